// A plan priced on a machine: the step time from its schedule, each collective of each mesh axis
// priced by the cost model on its own group of the topology, memory per rank, throughput, MFU and
// the sentence naming what limits the step. docs/planner.md, "Step time".
//
// Per pipeline stage and micro-batch: t_stage = sum over its layers of forward + backward
// (+ recomputation) compute and the exposed TP, CP and EP collectives, + the embedding or output
// layer on the first and last stage, + the point-to-point sends to the neighbouring stages.
// A step: m micro-batches through P stages with V virtual stages each,
//   T_pipeline = m * max_stage(t) + (P - 1) / V * mean_stage(t)     (uniform stages: (m + (P-1)/V) t)
//   T_step     = T_pipeline + exposed data-parallel communication + the optimizer step.
// Ranks of one stage do the same work, so the estimate is computed once per stage (symmetry) and
// costs O(P) whatever the GPU count.
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/plan/compute_model.h"
#include "shardlab/plan/parallel_plan.h"
#include "shardlab/plan/plan_flops.h"
#include "shardlab/plan/plan_memory.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/text/message.h"

#include <memory>
#include <string>
#include <vector>

namespace shardlab {

// One kind of collective of one mesh axis, per step on one rank.
struct PlanCollective {
    MeshAxis axis = MeshAxis::Tensor;
    OpKind kind = OpKind::AllReduce;
    Message what;    // plan.what.*: layer activations, gradients, weights, K and V, tokens
    Bytes bytes = 0; // the size of one (nccl-tests convention)
    double countPerStep = 0;
    int groupSize = 0;
    bool crossesNodes = false;
    double timeUs = 0;    // one collective, priced on the group of rank 0's stage
    double exposedUs = 0; // per step, on the critical path (not hidden behind compute)
    Algorithm algorithm = Algorithm::Ring;
};

struct StageEstimate {
    int stage = 0;
    int layers = 0;
    double forwardUs = 0;   // one micro-batch through the stage, compute and exposed collectives
    double backwardUs = 0;  // with the recomputation
    double p2pUs = 0;       // the sends to the neighbouring stages per micro-batch
    double tpForwardUs = 0; // of forwardUs and backwardUs: the tensor-parallel collectives
    double tpBackwardUs = 0;
    double forwardGemmUs = 0; // of forwardUs and backwardUs: the GEMMs (passGemms(), plan_flops.h)
    double backwardGemmUs = 0;
    double microBatchUs() const { return forwardUs + backwardUs + p2pUs; }
    PlanMemory memory;
    bool fits = true;
};

struct PlanEstimate {
    ParallelPlan plan;
    int gpus = 0;
    int globalBatch = 0;
    int microBatch = 0;   // sequences per micro-batch
    int microBatches = 0; // per step and replica
    double stepUs = 0;
    double pipelineUs = 0;
    double bubbleUs = 0; // the mean stage's idle time in the pipeline
    double optimizerUs = 0;
    double computeUs = 0; // the mean stage's compute per step (no communication, no bubble)
    StepFlops flops;
    double tokensPerSecPerGpu = 0;
    double modelTflopsPerGpu = 0;
    double mfu = 0;
    double bubbleFraction = 0; // bubbleUs / stepUs
    double gpuMemory = 0;      // bytes of the smallest GPU the plan runs on
    bool fits = true;
    std::vector<StageEstimate> stages;
    std::vector<PlanCollective> collectives;
    Message bottleneck; // plan.bottleneck.*: what limits the step, with its share
    std::vector<Message> notes;
    std::string accelerator;   // the GPU spec the compute was priced with
    std::string computeSource; // its measured calibration, or the datasheet and assumptions
};

// Prices collectives on one machine for many plans: groups are taken at rank 0's place on the mesh
// and every price is cached by (collective, size, group), so a search prices each once.
class PlanPricer {
public:
    // Compute priced with the shipped calibration of the topology's first GPU, where there is one.
    PlanPricer(const Topology& topology, CostProfile profile = CostProfile::defaults());
    // Compute priced with `compute` (planComputeCalibration(): a measured file or the shipped one);
    // nullopt: the shape model alone.
    PlanPricer(const Topology& topology, CostProfile profile, std::optional<ComputeCalibration> compute);
    ~PlanPricer();
    const Topology& topology() const;
    const std::optional<ComputeCalibration>& computeCalibration() const;
    CollectiveCost price(OpKind kind, Bytes bytes, const std::vector<int>& group);
    // The all-to-all of expert parallelism, each rank sending `bytesPerRank` spread over the group:
    // priced as the all-gather of the same size, which sends each rank's (n-1)/n of it to the others.
    CollectiveCost allToAll(Bytes bytesPerRank, const std::vector<int>& group);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// The machine a plan runs on: the preset's first `gpus` GPUs, or copies of its first node joined by
// a network switch (scaleOut) when it has fewer; BadInput for an unknown preset.
Result<Topology> planMachine(const std::string& presetId, int gpus);

// The plan priced. The plan must have no planProblems() for the model and settings, and the
// topology at least plan.gpus() GPUs (the first ones are used).
PlanEstimate estimatePlan(const TransformerModel& model, const TrainingSettings& settings, const ParallelPlan& plan,
                          PlanPricer& pricer);

} // namespace shardlab
