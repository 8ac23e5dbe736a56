// A priced plan and a search as `shardlab plan` prints them: a table in the user's language, or
// JSON for scripts (the keys are listed in docs/planner.md, "Output", and docs/cli.md).
#pragma once

#include "shardlab/plan/plan_search.h"
#include "shardlab/text/language.h"

#include <string>

namespace shardlab {

std::string formatPlan(const TransformerModel& model, const PlanEstimate& estimate, Language language);
std::string planJson(const TransformerModel& model, const TrainingSettings& settings, const PlanEstimate& estimate);

// The first `top` plans and the reasons the others were dropped.
std::string formatPlanSearch(const TransformerModel& model, const PlanSearch& search, int top, Language language);
std::string planSearchJson(const TransformerModel& model, const TrainingSettings& settings, const PlanSearch& search,
                           int top);

} // namespace shardlab
