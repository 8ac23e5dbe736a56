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

// Moving part of a plan's mesh onto other GPUs (the diagram: drag a card of a plan's scenario
// onto another). A TP group is the GPUs that share a CP, PP and DP coordinate; a stage is one
// data-parallel replica's pipeline stage, the GPUs that share a PP and DP coordinate.
enum class MeshUnit { TensorGroup, Stage };
// The pairs of GPUs whose roles swap (swapRanks, scenario_edit.h) so that the unit GPU `from`
// belongs to takes the places of the unit GPU `to` belongs to and the other way round, member
// for member (same TP and CP coordinates). The pairs are disjoint. Empty when both GPUs are in
// the same unit, either is not on the mesh, or the mesh's order cannot be read.
std::vector<std::pair<int, int>> meshUnitSwaps(const ScenarioMesh& mesh, int from, int to, MeshUnit unit);

} // namespace shardlab
