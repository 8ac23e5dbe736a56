#include "shardlab/base/file_io.h"

#include "shardlab/base/units.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <fcntl.h>
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

namespace {

// "No space left on device: the disk is full" from the errno of a failed write, when it says why.
std::string whyWritingFailed(int err)
{
    if (err == ENOSPC)
        return std::string(std::strerror(err)) + ": the disk is full";
    if (err == EDQUOT)
        return std::string(std::strerror(err)) + ": the disk quota is used up";
    if (err != 0)
        return std::strerror(err);
    return "disk full?";
}

} // namespace

Status writeFileAtomicallyWith(const std::filesystem::path& path, const std::function<Status(std::ostream& out)>& write)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return badInput(path.string() + ": is a folder (expected a file name)");
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    const std::filesystem::path tmp = dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
    auto fail = [&](const std::string& message) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        return Status(badInput(message));
    };
    std::uintmax_t written = 0;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return badInput(path.string() + ": cannot write in " + dir.string() + " (check that the folder exists and is writable)");
        errno = 0;
        Status st = write(out);
        const int writeErrno = errno;
        if (!st) {
            out.close();
            return fail(st.error().message);
        }
        if (out)
            out.flush();
        written = std::filesystem::file_size(tmp, ec);
        if (ec)
            written = 0;
        if (!out) {
            const int err = errno ? errno : writeErrno;
            return fail(path.string() + ": writing failed after " + formatBytes(written) + " (" + whyWritingFailed(err)
                        + "); the previous file, if any, is unchanged");
        }
        errno = 0;
        out.close();
        if (out.fail())
            return fail(path.string() + ": writing failed when closing the file (" + whyWritingFailed(errno) + ")");
    }
    // flush to disk before the rename makes it visible; a file system that cannot sync (EINVAL,
    // EROFS) loses nothing here, any other failure is the data not reaching the disk
    if (const int fd = ::open(tmp.c_str(), O_RDONLY); fd >= 0) {
        const int synced = ::fsync(fd);
        const int err = errno;
        ::close(fd);
        if (synced != 0 && err != EINVAL && err != EROFS)
            return fail(path.string() + ": writing failed when flushing " + formatBytes(written) + " to disk ("
                        + whyWritingFailed(err) + ")");
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        return fail(path.string() + ": cannot replace the file (" + ec.message() + ")");
    return {};
}

Status writeFileAtomically(const std::filesystem::path& path, const std::string& text)
{
    return writeFileAtomicallyWith(path, [&](std::ostream& out) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return Status{};
    });
}

} // namespace shardlab
