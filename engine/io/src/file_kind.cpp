#include "shardlab/io/file_kind.h"

#include <fstream>

namespace shardlab {

FileKind fileKindOf(const std::string& name, const std::string& head)
{
    auto endsWith = [&](const std::string& suffix) {
        return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (endsWith(".shardlab-result.json"))
        return FileKind::Result;
    if (endsWith(".shardlab.json"))
        return FileKind::Scenario;
    const size_t start = head.find_first_not_of(" \t\r\n");
    // chromeTrace() writes displayTimeUnit first; other writers put traceEvents near the top
    if ((start != std::string::npos && head.compare(start, 18, "{\"displayTimeUnit\"") == 0)
        || head.find("\"traceEvents\"") != std::string::npos)
        return FileKind::Trace;
    // result files list their keys in order: clock, created_by, launch, ... (the run is large)
    if (head.find("\"shardlab_result\"") != std::string::npos
        || (head.find("\"created_by\"") != std::string::npos && head.find("\"launch\"") != std::string::npos))
        return FileKind::Result;
    if (head.find("\"shardlab\"") != std::string::npos)
        return FileKind::Scenario;
    return FileKind::Unknown;
}

FileKind fileKindOf(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::string head(8192, '\0');
    if (in) {
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<size_t>(in.gcount()));
    } else {
        head.clear();
    }
    return fileKindOf(path.filename().string(), head);
}

} // namespace shardlab
