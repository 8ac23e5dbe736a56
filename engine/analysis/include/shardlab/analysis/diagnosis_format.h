// The diagnosis as text: the table the command line prints and its --json form.
#pragma once

#include "shardlab/analysis/diagnosis.h"

#include <string>
#include <vector>

namespace shardlab {

std::string formatFindings(const std::vector<Finding>& findings);
std::string findingsJson(const std::vector<Finding>& findings);

} // namespace shardlab
