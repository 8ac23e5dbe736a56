// Every plan of a model on N GPUs: the combinations of TP, CP, PP, DP, EP, ZeRO stage, micro-batch
// and schedule that run and fit, fastest first, and why the others were dropped (counted by
// reason). docs/planner.md, "Search".
#pragma once

#include "shardlab/plan/plan_estimate.h"

#include <functional>
#include <vector>

namespace shardlab {

struct DroppedPlans {
    Message reason; // plan.drop.*: the kind of problem, with an example plan
    int count = 0;
};

struct PlanSearch {
    std::vector<PlanEstimate> plans; // the plans that run and fit, fastest first
    std::vector<DroppedPlans> dropped;
    int considered = 0;
};

struct PlanSearchOptions {
    int gpus = 0;
    // Micro-batch sizes tried when the settings leave it open (settings.microBatch = 0).
    std::vector<int> microBatches{1, 2, 4};
    // Called after each plan priced (done, total); false stops the search (the plans so far are kept).
    std::function<bool(int, int)> progress;
};

PlanSearch searchPlans(const TransformerModel& model, const TrainingSettings& settings, PlanPricer& pricer,
                       const PlanSearchOptions& options);

} // namespace shardlab
