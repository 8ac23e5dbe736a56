#include "shardlab/base/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
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

bool sameFile(const std::filesystem::path& a, const std::filesystem::path& b)
{
    std::error_code ec;
    if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec))
        return std::filesystem::equivalent(a, b, ec) && !ec;
    const auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ec), ec);
    const auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, ec), ec);
    return ca == cb;
}

Status refuseOutputOverInput(const std::string& option, const std::filesystem::path& output,
                             const std::filesystem::path& input, const std::string& inputRole)
{
    if (output.empty() || input.empty() || !sameFile(output, input))
        return {};
    return badInput(option + " " + output.string() + ": that is " + inputRole + " " + input.string()
                    + "; writing there would replace it (choose another file)");
}

Status writeFileAtomically(const std::filesystem::path& path, const std::string& text)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return badInput(path.string() + ": is a folder (expected a file name)");
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    const std::filesystem::path tmp = dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return badInput(path.string() + ": cannot write in " + dir.string() + " (check that the folder exists and is writable)");
        errno = 0;
        out << text;
        out.flush();
        if (!out) {
            // ENOSPC on a full disk, EFBIG past a file-size limit, EDQUO over a quota
            const std::string why = errno != 0 ? std::strerror(errno) : "the disk may be full";
            out.close();
            std::filesystem::remove(tmp, ec);
            return badInput(path.string() + ": writing failed (" + why + "); the previous file, if any, is unchanged");
        }
    }
    if (FILE* f = std::fopen(tmp.c_str(), "rb")) { // flush to disk before the rename makes it visible
        ::fsync(fileno(f));
        std::fclose(f);
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        const std::string why = ec.message(); // before remove() reuses ec
        std::filesystem::remove(tmp, ec);
        return badInput(path.string() + ": cannot replace the file (" + why + ")");
    }
    return {};
}

} // namespace shardlab
