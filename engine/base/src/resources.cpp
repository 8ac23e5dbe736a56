#include "shardlab/base/resources.h"

#include <cstdlib>
#include <system_error>
#include <unistd.h>

namespace shardlab {

std::filesystem::path executableDirectory()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

std::vector<std::filesystem::path> shippedLibraryCandidates(const std::string& fileName)
{
    const auto dir = executableDirectory();
    if (dir.empty())
        return {};
    std::vector<std::filesystem::path> list = {dir / fileName, dir / ".." / "lib" / fileName,
                                               dir / ".." / "lib" / "shardlab" / fileName};
    if (std::string(SHARDLAB_INSTALL_LIBDIR) != "lib") // GNUInstallDirs' multiarch folder (Debian under /usr)
        list.push_back(dir / ".." / SHARDLAB_INSTALL_LIBDIR / "shardlab" / fileName);
    return list;
}

namespace {
bool hasScenarios(const std::filesystem::path& dir)
{
    std::error_code ec;
    return !dir.empty() && std::filesystem::is_directory(dir / "scenarios", ec);
}
} // namespace

std::filesystem::path resourceDirectory()
{
    if (const char* env = std::getenv("SHARDLAB_RESOURCE_DIR"); env && *env)
        return env;
    const auto exe = executableDirectory();
    for (const auto& candidate : {exe / ".." / "share" / "shardlab", exe / ".." / ".." / ".." / "resources",
                                  exe / ".." / ".." / "resources", std::filesystem::path(SHARDLAB_SOURCE_RESOURCE_DIR)})
        if (hasScenarios(candidate))
            return std::filesystem::weakly_canonical(candidate);
    return SHARDLAB_SOURCE_RESOURCE_DIR;
}

std::filesystem::path lessonDirectory() { return resourceDirectory() / "lessons"; }

std::filesystem::path scenarioPath(const std::string& name) { return resourceDirectory() / "scenarios" / name; }

} // namespace shardlab
