// A calibration as text (the accuracy table, --json) and the samples read back from
// `shardlab bench --json` files.
#pragma once

#include "shardlab/analysis/calibration.h"

#include <string>
#include <vector>

namespace shardlab {

// The accuracy table in `language` (calibration.inc); collective names, sizes and numbers as they are.
std::string formatAccuracyTable(const CalibrationResult& result, Language language = Language::English);
std::string calibrationJson(const CalibrationResult& result);
// Samples from `shardlab bench --json` output (one collective, one rank count, rows of sizes).
Result<std::vector<CalibrationSample>> samplesFromSweepJson(const std::string& text, const std::string& origin);
// The same for files, all samples together; the first unreadable or bad file is the error.
Result<std::vector<CalibrationSample>> samplesFromSweepFiles(const std::vector<std::string>& paths);

} // namespace shardlab
