// Two runs side by side (issue 29): what differs between the run of scenario A and the run of
// scenario B, as figures and as one sentence naming the difference, e.g. "ZeRO-3 against
// replicated: step 1,547.88 ms against 1,057.71 ms (+46%); communication +490.17 ms per rank;
// per iteration +2 All-Gather, +1 Reduce-Scatter, -1 All-Reduce; peak memory per GPU 6.75 GB
// against 24 GB (-17.25 GB)". Every figure is the two summaries' (summarize()) or the two
// programs': nothing is recomputed.
#pragma once

#include "shardlab/analysis/summary.h"
#include "shardlab/base/units.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/scenario.h"
#include "shardlab/text/message.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shardlab {

struct RunDifference {
    std::string nameA, nameB;
    double stepMsA = 0, stepMsB = 0; // Summary::stepTimeMs
    double commMsA = 0, commMsB = 0; // exposed communication per rank and iteration, mean over ranks
    // the largest peak memory over the ranks; unset where a run does not know its memory
    std::optional<Bytes> peakA, peakB;
    // collectives per iteration, B's count minus A's, by kind (kinds whose counts differ, in the
    // order of kOpInfos): the programs' collective steps
    std::vector<std::pair<OpKind, int>> collectives;
    Message message; // the sentence ("diff.sentence")
};

// `a` and `b` are the scenarios as run, `sa` and `sb` their runs' summaries; `nameA` and `nameB`
// name them in the sentence (the scenarios' names in the reader's language, say).
RunDifference runDifference(const Scenario& a, const Summary& sa, const Scenario& b, const Summary& sb,
                            std::string nameA, std::string nameB);

// Collective steps of a program per iteration, by kind (the kinds it has, in kOpInfos order).
std::vector<std::pair<OpKind, int>> collectiveCounts(const Scenario& scenario);

} // namespace shardlab
