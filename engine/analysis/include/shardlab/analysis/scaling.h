// Strong and weak scaling of a scenario from 1 to N GPUs (simulated, up to thousands of ranks).
//
// How a scenario is rescaled to n GPUs (docs/analysis.md, "Rescaling a scenario"):
// * Topology: the scenario's machine is the template. A preset's first GPUs are widened back to
//   the whole preset; scaleOut(template, n) then takes its first n GPUs, or joins copies of its
//   first node over a 400 Gb/s InfiniBand fabric when n needs more nodes.
// * Ownership, item by item, from how the base scenario holds it: an item every rank owns
//   (replicated) stays replicated on all n ranks; an item whose shards each have one owner, spread
//   over several ranks (split), is re-split evenly over all n ranks (any imbalance of the base is
//   not carried over, and a note says so); an item held by one rank alone stays on that rank (rank
//   0 if it does not exist at n). A base of one rank, or an item replicated on some ranks only,
//   follows data parallelism: data and activations split, model state replicated.
// * Strong scaling keeps the total work: item sizes, compute FLOP and collective sizes unchanged.
//   Weak scaling keeps the work per rank: split items grow by n / n0 (n0 = the base's ranks), and
//   so do the FLOP of compute ops over them and explicit collective sizes over them.
// * Collectives must run on every rank (a subset group or a send/recv cannot be rescaled and is
//   an error naming the step); a root beyond n moves to rank 0. Slowdowns and delays of ranks
//   that exist at n are kept; deliberate mismatches are dropped (a scaling curve measures time).
#pragma once

#include "shardlab/analysis/summary.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/text/message.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

enum class ScalingMode { Strong, Weak };
const char* scalingModeName(ScalingMode mode); // "strong", "weak"

struct ScalingOptions {
    ScalingMode mode = ScalingMode::Strong;
    int maxGpus = 0;                        // 0: the scenario's own rank count
    std::vector<int> gpuCounts;             // explicit points (1 is always added); empty: defaultGpuCounts(maxGpus)
    std::optional<CostProfile> profile;     // else the scenario's named profile, else the defaults
    std::function<bool(int, int)> progress; // (points done, total); false cancels
    const std::atomic<bool>* cancel = nullptr;
};

struct ScalingPoint {
    int gpus = 0;
    int nodes = 0;
    double stepTimeMs = 0;
    double speedup = 0;    // strong: T(1) / T(n); weak: n x T(1) / T(n) (scaled speed-up)
    double efficiency = 0; // strong: speed-up / n; weak: T(1) / T(n)
    // Per rank and iteration, averaged over ranks; they add up to the step time with idleMs.
    double computeMs = 0, commMs = 0, waitMs = 0;
    double idleMs = 0;       // step time not covered by the three (a rank that finished early)
    double maxComputeMs = 0; // the busiest rank's compute
    Bottleneck bottleneck = Bottleneck::Compute;
    bool fits = true;
    bool hung = false;
    // The collective that costs the step the most, and what limits it.
    std::string collective; // its label; empty on one GPU or without collectives
    OpKind collectiveKind = OpKind::AllReduce;
    Bytes collectiveBytes = 0;
    double collectiveMs = 0; // per iteration
    double busbwGBps = 0;
    Algorithm algorithm = Algorithm::Ring;
    std::optional<LinkKind> linkKind;
    std::string linkText;
    Message linkMessage;    // linkText as data
    double patternGBps = 0; // bandwidth per rank on the algorithm's pattern
};

// A sentence explaining one step of the curve, with the numbers.
struct ScalingNote {
    int fromGpus = 0, toGpus = 0;
    // NetworkTakesOver: the first point where a collective over the network costs the step more
    // than compute does (the network sets the pace from there on).
    enum class Kind { Slower, CrossesLink, EfficiencyDrop, NetworkTakesOver } kind = Kind::Slower;
    std::string sentence; // English: english(message())
    Message wording;      // the same as data
    Message message() const { return wording.empty() ? verbatim(sentence) : wording; }
};

struct ScalingCurve {
    ScalingMode mode = ScalingMode::Strong;
    std::string scenarioName;
    std::string topologyName; // the template
    int baseGpus = 0;
    std::vector<ScalingPoint> points; // ascending GPU counts, starting at 1
    std::vector<ScalingNote> notes;
    std::vector<std::string> rescaleNotes; // how the scenario was rescaled, in words (English)
    std::vector<Message>
        rescaleMessages; // the same notes as data (scaling.inc); may be shorter in a curve made by hand
    const ScalingPoint* find(int gpus) const;
};

// 1, 2, ..., 16, then four points per doubling (20, 24, 28, 32, 40, 48, 56, 64, 80, ...) up to
// maxGpus, which is always the last point.
std::vector<int> defaultGpuCounts(int maxGpus);

// The machine a scenario scales on: the whole preset when its topology is a preset's first GPUs
// (name "ID (first N)" and the same GPUs), else the topology itself.
Topology scalingTemplate(const Topology& topology);

// The scenario on `gpus` GPUs of `tpl` (see the file comment). `notes` (optional) receives one
// line per rescaling decision that a user should know about, in English; `messages` (optional)
// the same decisions as Messages, to be worded in the user's language.
Result<Scenario> rescaleScenario(const Scenario& base, const Topology& tpl, int gpus, ScalingMode mode,
                                 std::vector<std::string>* notes = nullptr, std::vector<Message>* messages = nullptr);

Result<ScalingCurve> scalingCurve(const Scenario& base, const ScalingOptions& options = {});

} // namespace shardlab
