#include "shardlab/base/file_io.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace shardlab {

Result<std::string> readUserFile(const std::filesystem::path& path, const std::string& expected, std::uintmax_t maxBytes)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return badInput(path.string() + ": no such file");
    if (std::filesystem::is_directory(path, ec))
        return badInput(path.string() + ": is a folder (expected " + expected + ")");
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > maxBytes)
        return badInput(path.string() + ": $: the file is larger than " + std::to_string(maxBytes >> 20) + " MB (expected "
                        + expected + ")");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return badInput(path.string() + ": cannot be read (check its permissions)");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Status writeFileAtomically(const std::filesystem::path& path, const std::string& text)
{
    std::error_code ec;
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    const std::filesystem::path tmp = dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return badInput(path.string() + ": cannot write in " + dir.string() + " (check that the folder exists and is writable)");
        out << text;
        out.flush();
        if (!out) {
            std::filesystem::remove(tmp, ec);
            return badInput(path.string() + ": writing failed (disk full?)");
        }
    }
    if (FILE* f = std::fopen(tmp.c_str(), "rb")) { // flush to disk before the rename makes it visible
        ::fsync(fileno(f));
        std::fclose(f);
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        return badInput(path.string() + ": cannot replace the file (" + ec.message() + ")");
    }
    return {};
}

} // namespace shardlab
