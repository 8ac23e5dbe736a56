// A lesson's "plan" and "compare_plan" blocks: a transformer plan stated with the keys of
// `shardlab plan`'s options (docs/lessons.md), read into a PlanRequest.
#pragma once

#include "shardlab/base/json_reader.h"
#include "shardlab/plan/plan_request.h"

#include <optional>

namespace shardlab::detail {

// The plan under `k` of `obj`, or nullopt where there is none; failures go to `rd`.
std::optional<PlanRequest> readLessonPlan(JsonReader& rd, const json& obj, const std::string& path, const char* k);

} // namespace shardlab::detail
