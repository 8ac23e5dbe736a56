// The diagnosis as text: the table the command line prints and its --json form.
#pragma once

#include "shardlab/analysis/diagnosis.h"

#include <string>
#include <vector>

namespace shardlab {

// The findings as they are worded (wordedIn() first for another language); the table's own
// words in `language`.
std::string formatFindings(const std::vector<Finding>& findings, Language language = Language::English);
std::string findingsJson(const std::vector<Finding>& findings);

} // namespace shardlab
