// The scenario file format (docs/scenario-format.md): versioned JSON, "shardlab": 1.
#pragma once

#include "shardlab/model/scenario.h"

#include <filesystem>
#include <string>

namespace shardlab {

inline constexpr int kScenarioFormatVersion = 1;

// Parses a scenario. `origin` names the source in messages ("file.shardlab.json"). Every message
// reads "ORIGIN: $.json.path: what was wrong (expected ...)". All problems found are reported,
// one per line.
Result<Scenario> parseScenario(const std::string& text, const std::string& origin = "<text>");
Result<Scenario> loadScenario(const std::filesystem::path& path);

// Canonical JSON text: everything explicit, sizes as byte counts, so load(save(s)) == s.
std::string serializeScenario(const Scenario& scenario);
// Writes to a temporary file in the same folder and renames it over the target.
Status saveScenario(const Scenario& scenario, const std::filesystem::path& path);

} // namespace shardlab
