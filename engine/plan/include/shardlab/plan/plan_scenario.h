// A priced plan written as a scenario (`shardlab plan --scenario OUT`), so that `sim`, `live` and
// the app run and draw its schedule: the 1F1B (or GPipe, or interleaved) order of each stage's
// forward and backward passes per micro-batch, the TP collectives of each pass, the sends between
// stages and the data-parallel gradient reduction, with each rank's weights, gradients, optimizer
// state and activations as workload items. docs/planner.md, "As a scenario".
#pragma once

#include "shardlab/model/scenario.h"
#include "shardlab/plan/plan_estimate.h"

namespace shardlab {

// The most steps a written scenario holds; a larger plan is refused with the count.
inline constexpr long long kMaxPlanScenarioSteps = 200'000;

// `topology` is the machine the estimate priced (plan.gpus() GPUs).
Result<Scenario> planScenario(const TransformerModel& model, const TrainingSettings& settings,
                              const PlanEstimate& estimate, const Topology& topology);

} // namespace shardlab
