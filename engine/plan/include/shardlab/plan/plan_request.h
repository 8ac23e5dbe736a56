// One plan as a user states it (a model, a machine, the parallel sizes and the training settings),
// from `shardlab plan`'s options, the plan dialog's boxes or a lesson's "plan" block, and the one
// place that turns it into a priced plan: the model and the machine loaded, the GPU count settled,
// the plan refused with its reasons or priced (docs/planner.md).
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/plan/plan_estimate.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/text/message.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct PlanRequest {
    std::string model = "llama3-8b";         // a model preset or a Hugging Face config.json
    std::string machine = "h200-nvswitch-8"; // a machine preset (more GPUs repeat its first node)
    int gpus = 0;                            // 0: TP x CP x PP x DP (DP 1 where it is 0 too)
    ParallelPlan plan;                       // plan.dp 0: the replicas `gpus` leaves
    TrainingSettings settings;
    std::string computeFile; // a measured compute calibration (`calibrate --compute`); empty: the shipped one
    bool operator==(const PlanRequest&) const = default;

    // The GPU count the request means: `gpus`, else TP x CP x PP x max(DP, 1).
    long long gpuCount() const;
};

struct PricedPlan {
    TransformerModel model;
    TrainingSettings settings;
    Topology topology; // the machine of gpuCount() GPUs the plan was priced on
    PlanEstimate estimate;
};

struct PlanPricing {
    std::optional<PricedPlan> priced; // absent when the plan is refused
    std::vector<Message> problems;    // why it is refused (plan.refuse.*), each naming the numbers
};

// Error (BadInput): the model, the machine or the compute file cannot be loaded, or the compute
// file was measured on another GPU (planComputeCalibration()). A plan that cannot run is not an
// error: it comes back refused, with every reason.
// The compute calibration for plans on `gpu`: `computeFile` loaded (when not empty) and checked
// by planComputeCalibration().
Result<std::optional<ComputeCalibration>> planCompute(const std::string& computeFile, const Gpu& gpu);

Result<PlanPricing> pricePlan(const PlanRequest& request, const CostProfile& profile = CostProfile::defaults());

} // namespace shardlab
