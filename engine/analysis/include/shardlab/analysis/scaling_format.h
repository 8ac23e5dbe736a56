// A scaling curve as text: the table `shardlab scale` prints and its --json form.
#pragma once

#include "shardlab/analysis/scaling.h"

#include <string>
#include <vector>

namespace shardlab {

std::string formatScalingTable(const ScalingCurve& curve);
std::string scalingJson(const ScalingCurve& curve);

} // namespace shardlab
