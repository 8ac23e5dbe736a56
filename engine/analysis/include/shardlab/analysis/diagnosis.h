// The course's diagnostic handbook (level 03, 诊断手册) as rules over a run. Each rule checks what
// the handbook says to check first and attaches the evidence it asks for, as data:
//   1. No speed-up after adding GPUs. Check: per-rank compute, the collectives' share of the
//      step, message size, topology path. Evidence: per-rank timeline, communication bandwidth,
//      strong/weak scaling curve.
//   2. The sync point always waits for the same card. Check: shard sizes, input distribution,
//      thermal throttling (slowdown), NUMA and link differences. Evidence: per-rank compute/
//      communication/wait distribution, not the global mean.
//   3. A collective hangs. Check: every rank calls in the same order, counts and types agree, a
//      failed rank has left. Evidence: per-rank log and the last successful collective number.
// Thresholds and wording: docs/analysis.md ("Diagnosis").
#pragma once

#include "shardlab/analysis/scaling.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/analysis/sweep.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

enum class FindingRule { NoSpeedup, SameRankWaitedFor, CollectiveHang, CapacityExceeded, Paging };
enum class Severity { Warning, Problem };
// "no_speedup", "same_rank_waited_for", "collective_hang", "capacity_exceeded", "paging"
const char* findingRuleName(FindingRule rule);
const char* severityName(Severity severity); // "warning", "problem"

// One rank's line of the per-rank timeline, with what the rules look at.
struct RankEvidence {
    int rank = 0;
    std::string device;
    double computeMs = 0, commMs = 0, waitMs = 0; // per iteration, from the summary
    int timesLast = 0;                            // blocking collectives it reached last
    double workShare = 0;                         // share of the program's compute work it does (1/n when balanced)
    Bytes owned = 0;                              // bytes of all items it owns
    double slowdown = 1;                          // the scenario's factor (thermal throttling, a slower card)
    double delayMs = 0;                           // injected delay per iteration
    double gpuTflops = 0;
    int node = 0, socket = 0;
    double ringInGBps = 0, ringOutGBps = 0; // widest route from its ring predecessor / to its successor
    int lastCompleted = -1;                 // hung runs: the rank's last completed collective (flight-recorder number)
    std::string state;                      // hung runs: what it is blocked in (English: english(stateMessage))
    Message stateMessage;
};

// One collective of the run, with its bandwidth and what limits it.
struct CollectiveEvidence {
    std::string name;
    OpKind kind = OpKind::AllReduce;
    Bytes bytes = 0;
    int ranks = 0;
    double timeMs = 0, algbwGBps = 0, busbwGBps = 0;
    std::string bottleneckLink;    // from the cost model on this topology (English)
    Message bottleneckLinkMessage; // the same, as data
    std::optional<LinkKind> linkKind;
    double crossoverBytes = 0; // alpha x beta of this collective on this group
    bool latencyBound = false; // bytes < crossoverBytes
};

// What the handbook says to check first, and what this run shows.
struct Check {
    std::string what;
    std::string shows;
    Message whatMessage, showsMessage; // the same, as data
};

struct Finding {
    FindingRule rule = FindingRule::NoSpeedup;
    Severity severity = Severity::Warning;
    // The texts are English as diagnose() returns them; wordedIn() words them in another language
    // from the Messages beside them.
    std::string title;
    std::string sentence; // the finding with numbers from the run
    std::vector<Check> checks;
    std::vector<std::string> evidenceNeeded; // the handbook's list, in words
    Message titleMessage, sentenceMessage;
    std::vector<Message> evidenceMessages;
    // the evidence, as data
    std::vector<RankEvidence> ranks;
    std::vector<CollectiveEvidence> collectives;
    std::vector<ScalingPoint> scaling;
    std::optional<int> rank; // the rank the finding is about (straggler, first mismatch)
};

struct DiagnosisContext {
    const ScalingCurve* scaling = nullptr; // strong scaling of the scenario, if computed
    std::optional<CostProfile> profile;    // else the scenario's named profile, else the defaults
};

// Rule 1 fires below this efficiency when communication, not waiting, is what is lost.
inline constexpr double kLowEfficiency = 0.7;
// ... and is a problem (not a warning) below this speed-up: "almost no speed-up".
inline constexpr double kAlmostNoSpeedup = 1.25;

std::vector<Finding> diagnose(const Scenario& scenario, const RunResult& run, const Summary& summary,
                              const DiagnosisContext& context = {});

// The findings with every text (title, sentence, checks, evidence needed, the ranks' states and
// the collectives' links) worded in `language`; the figures are the same.
Finding wordedIn(Finding finding, Language language);
std::vector<Finding> wordedIn(std::vector<Finding> findings, Language language);
std::string severityWord(Severity severity, Language language); // "problem" / "问题"

} // namespace shardlab
