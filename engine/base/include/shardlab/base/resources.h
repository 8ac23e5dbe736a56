// Where ShardLab's shipped files (scenarios, lessons) are, for the command line and the app alike:
// the first of $SHARDLAB_RESOURCE_DIR; <executable>/../share/shardlab (installed);
// <executable>/../../resources or ../../../resources (a build tree); the source tree's resources/.
#pragma once

#include <filesystem>
#include <string>

namespace shardlab {

std::filesystem::path resourceDirectory();
// resourceDirectory() / "scenarios" / name
std::filesystem::path scenarioPath(const std::string& name);
// resourceDirectory() / "lessons"
std::filesystem::path lessonDirectory();

} // namespace shardlab
