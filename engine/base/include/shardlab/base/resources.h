// Where ShardLab's shipped files (scenarios, lessons) are, for the command line and the app alike:
// the first of $SHARDLAB_RESOURCE_DIR; <executable>/../share/shardlab (installed);
// <executable>/../../resources or ../../../resources (a build tree); the source tree's resources/.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace shardlab {

std::filesystem::path resourceDirectory();
// resourceDirectory() / "scenarios" / name
std::filesystem::path scenarioPath(const std::string& name);
// resourceDirectory() / "lessons"
std::filesystem::path lessonDirectory();

// The folder of the running executable (/proc/self/exe), or empty where it cannot be read.
std::filesystem::path executableDirectory();
// Where a shared library ShardLab ships beside its programs may be, in order: next to the
// executable (a build tree), <executable>/../lib and <executable>/../lib/shardlab (installed), and
// <executable>/../<the install's libdir>/shardlab where that is another folder (Debian's multiarch).
// The live library and the NCCL profiler plugin are found this way.
std::vector<std::filesystem::path> shippedLibraryCandidates(const std::string& fileName);

} // namespace shardlab
