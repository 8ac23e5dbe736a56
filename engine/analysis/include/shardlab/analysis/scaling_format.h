// A scaling curve as text: the table `shardlab scale` prints and its --json form.
#pragma once

#include "shardlab/analysis/scaling.h"
#include "shardlab/text/language.h"

#include <string>
#include <vector>

namespace shardlab {

// In `language`: its headings, column names, what limits each point and the notes along the curve
// (the rescale notes stay English).
std::string formatScalingTable(const ScalingCurve& curve, Language language = Language::English);
std::string scalingJson(const ScalingCurve& curve);

} // namespace shardlab
