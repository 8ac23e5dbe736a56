// Named cost profiles: the defaults, and calibrations saved by `shardlab calibrate`.
// Stored as JSON in $SHARDLAB_PROFILE_DIR, else $XDG_DATA_HOME/shardlab/profiles, else
// ~/.local/share/shardlab/profiles, one file NAME.json each.
#pragma once

#include "shardlab/model/scenario.h"
#include "shardlab/sim/cost_model.h"

#include <filesystem>
#include <string>
#include <vector>

namespace shardlab {

std::filesystem::path profileDirectory();
std::string profileToJson(const CostProfile& profile);
Result<CostProfile> profileFromJson(const std::string& text, const std::string& origin);
// "default" (or empty) is the built-in profile; anything else is read from the directory.
Result<CostProfile> loadProfile(const std::string& name);
// The profile a scenario runs with: its named profile (Scenario::costProfile), or the defaults.
Result<CostProfile> profileFor(const Scenario& scenario);
Status saveProfile(const CostProfile& profile);
std::vector<std::string> profileNames();

} // namespace shardlab
