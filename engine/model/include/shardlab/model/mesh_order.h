// The axes of a device mesh and the order in which they number the ranks: one parser for the
// planner (`shardlab plan --order`, plan_request.h), a scenario's "mesh" (scenario.h, checked by
// validateScenario) and the diagram that draws it.
#pragma once

#include "shardlab/model/enum_names.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace shardlab {

// The mesh axes, innermost first as ranks are numbered by default (ParallelPlan::order): TP inside
// a node, then CP, PP and DP outward (rank = tp + T*(cp + C*(pp + P*dp))). Expert parallelism takes
// its groups from the data-parallel axis: EP consecutive DP replicas (EP divides DP).
enum class MeshAxis { Tensor, Context, Pipeline, Data, Expert };
inline constexpr EnumName<MeshAxis> kMeshAxisNames[] = {{MeshAxis::Tensor, "tp"},
                                                        {MeshAxis::Context, "cp"},
                                                        {MeshAxis::Pipeline, "pp"},
                                                        {MeshAxis::Data, "dp"},
                                                        {MeshAxis::Expert, "ep"}};
static_assert(listsEveryValueInOrder(kMeshAxisNames, MeshAxis::Expert));

// The order in which the four mesh axes number the ranks, innermost (consecutive ranks) first.
using MeshOrder = std::array<MeshAxis, 4>;
inline constexpr MeshOrder kDefaultMeshOrder{MeshAxis::Tensor, MeshAxis::Context, MeshAxis::Pipeline, MeshAxis::Data};
// "tp,cp,pp,dp": each of the four once (EP is not an axis of its own); nullopt otherwise.
std::optional<MeshOrder> meshOrderFromText(std::string_view text);
std::string meshOrderText(const MeshOrder& order);

} // namespace shardlab
