// Where ShardLab's shipped files (scenarios, lessons, translations) are: the first of
//   $SHARDLAB_RESOURCE_DIR; <executable>/../share/shardlab (installed); <executable>/../../resources
//   and the source tree's resources/ (build tree).
#pragma once

#include <filesystem>
#include <string>

namespace shardlab {

std::filesystem::path resourceDirectory();
// resourceDirectory() / "scenarios" / name
std::filesystem::path scenarioPath(const std::string& name);

} // namespace shardlab
