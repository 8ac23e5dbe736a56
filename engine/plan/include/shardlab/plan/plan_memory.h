// What each rank of a plan holds: weights, gradients, optimizer state, activations with the
// micro-batches its pipeline schedule keeps in flight, and temporary buffers. docs/planner.md,
// "Memory", derives every term and names its source (Rajbhandari et al. 2020 for the model states,
// Korthikanti et al. 2022 for the activations).
#pragma once

#include "shardlab/base/units.h"
#include "shardlab/plan/parallel_plan.h"

#include <vector>

namespace shardlab {

struct PlanMemory {
    double params = 0;      // bf16 weights held (bytes)
    double grads = 0;       // bf16 gradients held
    double optimizer = 0;   // fp32 master weights and Adam's two moments held
    double activations = 0; // kept for the backward pass, at the schedule's peak
    double temporary = 0;   // gathered ZeRO-3/FSDP layers, the output layer's fp32 logits
    double peak() const { return params + grads + optimizer + activations + temporary; }
};

// Activation bytes one layer keeps for one micro-batch on one rank (Korthikanti et al. 2022,
// Table 2, generalised to grouped-query attention, gated MLPs and dropout on or off).
double layerActivationBytes(const TransformerModel& model, const TrainingSettings& settings, const ParallelPlan& plan);
// Micro-batches whose activations stage `stage` holds at its peak: m for GPipe, P - stage for
// 1F1B, and for interleaved 1F1B the first stage's P(1 + (P-1)/(PV)) (Korthikanti 2022, 4.2.3),
// never more than the m micro-batches of a step.
double inFlightMicroBatches(const ParallelPlan& plan, int microBatches, int stage);

// The memory of every pipeline stage's ranks (ranks of a stage hold the same).
std::vector<PlanMemory> stageMemory(const TransformerModel& model, const TrainingSettings& settings,
                                    const ParallelPlan& plan);

} // namespace shardlab
