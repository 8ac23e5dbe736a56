// Figures derived from a run: step time, speed-up, efficiency, straggler, bottleneck, per-rank
// breakdown and per-collective bandwidth. docs/cost-model.md ("What the summary means") gives
// each definition; the functions here are the only place they are computed.
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/text/message.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

enum class Bottleneck { Compute, Communication, Wait, Capacity, Hang };
const char* bottleneckName(Bottleneck b); // "compute", "communication", "wait", "capacity", "hang"
// The same name as a message, for the reader's language ("summary.bottleneck.<name>").
Message bottleneckMessage(Bottleneck b);

struct RankBreakdown {
    int rank = 0;
    std::string device;
    double computeMs = 0; // per iteration, averaged
    double commMs = 0;    // exposed communication (the compute stream blocked in a collective)
    double waitMs = 0;    // idle at sync points waiting for the last arrival
    Bytes owned = 0;      // the shards the scenario gives this rank (capacityOf)
    Bytes peakMemory = 0; // the run's: simulated = owned + largest transient buffer; live = measured use
    Bytes capacity = 0;
    bool fits = true;  // the model's peak (owned + transient) <= capacity: RankMemory::fits()
    int timesLast = 0; // how often this rank arrived last at a blocking collective
};

struct CollectiveFigures {
    std::string name; // the op's label
    OpKind kind = OpKind::AllReduce;
    Bytes bytes = 0;
    int ranks = 0;
    double timeMs = 0;    // mean duration (last arrival to end)
    double algbwGBps = 0; // bytes / time
    double busbwGBps = 0; // algbw * busBandwidthFactor
    int count = 0;        // instances averaged
};

struct Summary {
    RunMode mode = RunMode::Simulated;
    int ranks = 0;
    double stepTimeMs = 0; // mean iteration time
    double oneGpuMs = 0;   // the same total work on rank 0's GPU alone, no communication
    double speedup = 0;    // oneGpuMs / stepTimeMs (0 when !hasSpeedup)
    double efficiency = 0; // speedup / ranks (0 when !hasSpeedup)
    // Whether the speed-up means anything: not for a run that hung, a program without compute or a
    // run on one GPU. speedupNote says why not, or why the efficiency is above 100% when it is.
    bool hasSpeedup = true;
    // Whether the ranks' memory (owned, peak, fits) and the one-GPU time are known: not for a
    // profiled program, whose buffers and single-GPU run ShardLab did not see
    // (Scenario::strategy == kObservedStrategy); those figures are then 0, shown as a dash.
    bool memoryKnown = true;
    bool oneGpuKnown = true;
    std::string speedupNote; // English: english(speedupNoteMessage)
    Message speedupNoteMessage;
    std::optional<HangReport> hang; // the run's, when it hung
    std::optional<int> straggler;
    Bottleneck bottleneck = Bottleneck::Compute;
    bool fits = true;
    double computeShare = 0, commShare = 0, waitShare = 0; // of rank-time, averaged over ranks
    std::vector<RankBreakdown> perRank;
    std::vector<CollectiveFigures> collectives;
    std::string sentence;    // the bottleneck in one sentence, with numbers; English: english(sentenceMessage)
    Message sentenceMessage; // the same as data, to be worded in the user's language
};

// The summary with its sentences (sentence, speedupNote) worded in `language`; every figure is
// the same. What the command line, the GUI and the report show to a user.
Summary wordedIn(Summary summary, Language language);
std::string wordedSentence(const Summary& summary, Language language);

Summary summarize(const Scenario& scenario, const RunResult& run);

// Time of the whole program's compute on one GPU (rank 0's), without communication or slowdown.
double oneGpuTimeMs(const Scenario& scenario, const CostProfile& profile = CostProfile::defaults());

} // namespace shardlab
