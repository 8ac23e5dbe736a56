// All-reduce against reduce-scatter + all-gather, side by side: what each rank holds afterwards,
// memory per rank, bytes each rank sends and the time, on one topology. Used by the comparison
// view, the lab report and the lessons.
//
// Memory follows nccl-tests' out-of-place buffers: all-reduce needs a send and a receive buffer
// of S each (2S); reduce-scatter needs S in and S/n out; all-gather S/n in and S out. Run one
// after the other, with the reduce-scatter input freed before the all-gather, the pair peaks at
// S + S/n. Bytes sent per rank are the ring's: 2(n-1)/n S for all-reduce, (n-1)/n S for each of
// reduce-scatter and all-gather.
#pragma once

#include "shardlab/analysis/sweep.h"
#include "shardlab/model/semantics.h"
#include "shardlab/sim/cost_model.h"

#include "shardlab/text/message.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct ComparisonSide {
    OpKind kind = OpKind::AllReduce;
    RankValues exampleInputs;          // a small example: rank r holds 10(r+1), 10(r+1)+1, ... (2n values)
    RankValues exampleResult;          // what each rank holds afterwards
    Bytes heldAfterPerRank = 0;        // bytes of the result each rank keeps
    Bytes peakPerRank = 0;             // buffers alive at once (out of place, see above)
    Bytes sentPerRank = 0;             // ring traffic each rank sends
    double timeUs = 0;                 // from the cost model
    std::vector<CollectiveCost> steps; // one cost per collective call (1 for all-reduce, 2 for the pair)
    std::optional<double> measuredUs;  // measured on this machine (fillMeasuredTimes), the calls' sum
};

struct CollectiveComparison {
    Bytes bytes = 0;
    int ranks = 0;
    ComparisonSide allReduce;
    ComparisonSide reduceScatterAllGather;
    ComparisonSide reduceScatterOnly; // when each rank only needs its slice
    std::string sentence;
};

CollectiveComparison compareAllReduceWithRsAg(CostModel& model, const std::vector<int>& group, Bytes bytes);

// The comparison in one sentence, from its figures (call again after replacing the modelled
// times with measured ones).
Message comparisonMessage(const CollectiveComparison& comparison); // the same sentence, as data
std::string describeComparison(const CollectiveComparison& comparison);
// Measures one size of one collective on the first `gpus` GPUs (benchLive's signature).
using SweepMeasure = std::function<Result<std::vector<SweepRow>>(OpKind, int, const std::vector<Bytes>&)>;
// liveSweepMeasure() (shardlab/live/live_measure.h) measures on this machine's GPUs.

// Fills each side's measuredUs: all-reduce, reduce-scatter and all-gather of c.bytes on c.ranks
// GPUs; the pair's time is the sum of its two calls. Errors (no live mode, no GPU) are returned
// and leave the comparison as it was.
Status fillMeasuredTimes(CollectiveComparison& c, const SweepMeasure& measure);

} // namespace shardlab
