// One pipeline stage's work for one micro-batch on one of its ranks: its layers' GEMMs, attention
// and element-wise work (compute_model.h), the tensor-, context- and expert-parallel collectives
// inside each layer, and the embedding or output layer at the ends. docs/planner.md, "Step time".
#pragma once

#include "shardlab/plan/plan_estimate.h"

#include <vector>

namespace shardlab {

struct StageWork {
    int layers = 0;
    double forwardUs = 0;        // compute and exposed collectives
    double backwardUs = 0;       // the same, with the recomputation
    double forwardComputeUs = 0; // compute only
    double backwardComputeUs = 0;
    double forwardGemmUs = 0; // of the compute: the GEMMs (passGemms(), plan_flops.h)
    double backwardGemmUs = 0;
    double tpExposedUs = 0; // per micro-batch, forward and backward together
    double tpForwardUs = 0, tpBackwardUs = 0;
    double cpExposedUs = 0;
    double epExposedUs = 0;
    Bytes p2pBytes = 0;     // the activations sent to the next stage by each rank
    double denseParams = 0; // parameters held by a rank of the stage, before ZeRO sharding
    double expertParams = 0;
};

// Whether the ranks of `group` sit on more than one node.
bool groupCrossesNodes(const Topology& topology, const std::vector<int>& group);

// `record` (may be null) receives the stage's tensor-, context- and expert-parallel collectives,
// counted per step for `microBatches` micro-batches.
StageWork stageWork(const TransformerModel& model, const TrainingSettings& settings, const ParallelPlan& plan,
                    int stage, const ComputeModel& compute, PlanPricer& pricer, std::vector<PlanCollective>& record);

} // namespace shardlab
