#include "shardlab/base/file_io.h"

#include "shardlab/text/foreign_text.h"

#include "shardlab/base/units.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>
#include <algorithm>
#include <random>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace shardlab {

namespace {

Message tooLarge(const std::string& name, const Message& expected, std::uintmax_t maxBytes)
{
    return Message("error.at")
        .with("origin", name)
        .with("path", "$")
        .with("what", Message("error.file.too_large")
                          .with("megabytes", std::to_string(maxBytes >> 20))
                          .with("expected", expected));
}

Message replaceFailed(const std::filesystem::path& path, const std::string& why)
{
    return Message("error.line.replace_failed").with("file", path.string()).with("why", systemWords(why));
}

Message notWritableKind(const std::filesystem::path& path)
{
    return Message("error.line.not_writable_kind")
        .with("file", path.string())
        .with("expected", Message("error.expected.file_name"));
}

} // namespace

Result<std::string> readUserFile(const std::filesystem::path& path, const Message& expected, std::uintmax_t maxBytes)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return badInput(Message("error.file.missing").with("file", path.string()));
    if (std::filesystem::is_directory(path, ec))
        return badInput(Message("error.file.folder").with("file", path.string()).with("expected", expected));
    // a regular file too large is refused before a byte is read; anything else as it comes
    const auto size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : 0;
    if (!ec && size > maxBytes)
        return badInput(tooLarge(path.string(), expected, maxBytes));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return badInput(Message("error.file.unreadable").with("file", path.string()));
    return readCapped(in, path.string(), expected, maxBytes);
}

Result<std::string> readCapped(std::istream& in, const std::string& name, const Message& expected,
                               std::uintmax_t maxBytes)
{
    std::string text;
    std::vector<char> buffer(1 << 16);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto n = static_cast<std::uintmax_t>(in.gcount());
        if (n > maxBytes - std::min<std::uintmax_t>(maxBytes, text.size()))
            return badInput(tooLarge(name, expected, maxBytes));
        text.append(buffer.data(), static_cast<size_t>(n));
    }
    if (in.bad())
        return badInput(Message("error.file.unreadable").with("file", name));
    return text;
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
    // the roles the command line names (app/cli), each a sentence of its own in the catalogue
    static const struct {
        const char* role;
        const char* id;
    } known[] = {{"the scenario file being run", "error.line.over_running_input"},
                 {"the scenario file", "error.line.over_input"},
                 {"the result file being resimulated", "error.line.over_resimulated"},
                 {"the profile record file", "error.line.over_record"},
                 {"the measured file", "error.line.over_measured"},
                 {"the cost profile", "error.line.over_cost_profile"}};
    for (const auto& k : known)
        if (inputRole == k.role)
            return badInput(
                Message(k.id).with("option", option).with("output", output.string()).with("input", input.string()));
    return badInput(Message("error.io.over_input_as")
                        .with("option", option)
                        .with("output", output.string())
                        .with("role", inputRole)
                        .with("input", input.string()));
}

Status refuseOutputTwice(const std::string& option, const std::filesystem::path& output, const std::string& otherOption,
                         const std::filesystem::path& other)
{
    if (output.empty() || other.empty() || !sameFile(output, other))
        return {};
    std::error_code ec;
    if (std::filesystem::is_character_file(output, ec))
        return {};
    return badInput(Message("error.line.output_twice")
                        .with("option", option)
                        .with("output", output.string())
                        .with("other", otherOption)
                        .with("path", other.string()));
}

namespace {

// "No space left on device: the disk is full" from the errno of a failed write, when it says why.
Message whyWritingFailed(int err)
{
    if (err == ENOSPC)
        return Message("error.why.disk_full").with("why", systemWords(std::strerror(err)));
    if (err == EDQUOT)
        return Message("error.why.quota").with("why", systemWords(std::strerror(err)));
    if (err != 0)
        return systemWords(std::strerror(err));
    return Message("error.io.disk_full_maybe");
}

} // namespace

namespace {

// An ostream's buffer over a file descriptor: every write is checked, and the errno of the first
// one that failed is kept for the message (std::ofstream forgets it).
class DescriptorBuffer : public std::streambuf {
public:
    explicit DescriptorBuffer(int fd) : m_fd(fd) { setp(m_buffer, m_buffer + sizeof m_buffer); }
    std::uintmax_t written() const { return m_written; }
    int error() const { return m_error; }

protected:
    int_type overflow(int_type c) override
    {
        if (!drain())
            return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain()
    {
        const char* p = pbase();
        while (p < pptr()) {
            const ssize_t n = ::write(m_fd, p, static_cast<size_t>(pptr() - p));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                m_error = n < 0 ? errno : ENOSPC;
                return false;
            }
            p += n;
            m_written += static_cast<std::uintmax_t>(n);
        }
        setp(m_buffer, m_buffer + sizeof m_buffer);
        return true;
    }

    int m_fd;
    std::uintmax_t m_written = 0;
    int m_error = 0;
    char m_buffer[1 << 16];
};

// The mode a file created now gets (0666 less the umask), read from /proc so that no other thread
// sees the umask changed; 0644 where /proc does not say.
mode_t newFileMode()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("Umask:", 0) == 0)
            return static_cast<mode_t>(0666 & ~std::stoul(line.substr(6), nullptr, 8));
    return 0644;
}

// Eight random letters and digits for a temporary's name: nobody can plant a link at it beforehand.
std::string randomSuffix()
{
    static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char bytes[8] = {};
    if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
        std::random_device rd;
        for (unsigned char& b : bytes)
            b = static_cast<unsigned char>(rd());
    }
    std::string out;
    for (unsigned char b : bytes)
        out += kAlphabet[b % (sizeof kAlphabet - 1)];
    return out;
}

// A link that someone else put in a shared folder (sticky and writable by all, as /tmp): the
// kernel's own rule for following links there (fs.protected_symlinks), which reading the link
// ourselves would bypass: followed only when it is the user's or the folder owner's.
bool plantedByAnother(const std::filesystem::path& link, const struct stat& linkStat)
{
    struct stat dir {};
    const std::filesystem::path folder = link.has_parent_path() ? link.parent_path() : std::filesystem::path(".");
    if (::stat(folder.c_str(), &dir) != 0)
        return false;
    const bool shared = (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH);
    return shared && linkStat.st_uid != ::geteuid() && linkStat.st_uid != dir.st_uid;
}

// How an output is written (planOutput).
struct OutputPlan {
    enum class How { Replace, Through } how = How::Replace;
    std::filesystem::path path; // the file replaced (a symbolic link's target), or opened
    int openFlags = 0;          // for Through: O_APPEND for a regular file behind another process's descriptor
    int descriptor = -1;        // for Through: this process's descriptor N of /dev/stdout, /dev/fd/N, /proc/self/fd/N
};

// N of "/proc/self/fd/N" or "/dev/fd/N" (where /dev/stdout leads), else -1: written through a
// duplicate of the descriptor, so that it shares the offset of what else the process writes there
// (`> out.json`: the table first, then the trace, neither over the other).
int descriptorNumber(const std::string& path)
{
    for (const char* prefix : {"/proc/self/fd/", "/dev/fd/"}) {
        const std::string p(prefix);
        if (path.size() > p.size() && path.size() <= p.size() + 9 && path.compare(0, p.size(), p) == 0
            && path.find_first_not_of("0123456789", p.size()) == std::string::npos)
            return std::stoi(path.substr(p.size()));
    }
    return -1;
}

// A regular file (or none yet) is replaced; a character device (/dev/null, a terminal) or a FIFO
// is written straight through; a symbolic link is followed to what it names, which is then
// treated the same way (so the link stays a link); /dev/stdout, /dev/fd/N and /proc/self/fd/N are
// this process's descriptor, written through a duplicate; other links through /proc write
// straight through, appending when they name a regular file.
Result<OutputPlan> planOutput(const std::filesystem::path& path)
{
    namespace fs = std::filesystem;
    fs::path at = path;
    bool throughProc = false;
    for (int hops = 0;; ++hops) {
        if (const int fd = descriptorNumber(at.string()); fd >= 0)
            return OutputPlan{OutputPlan::How::Through, path, 0, fd};
        struct stat st {};
        if (::lstat(at.c_str(), &st) != 0)
            return OutputPlan{OutputPlan::How::Replace, at, 0, -1}; // a new file (its folder is checked later)
        if (S_ISLNK(st.st_mode)) {
            if (plantedByAnother(at, st))
                return badInput(Message("error.line.foreign_link").with("file", path.string()));
            if (hops >= 40)
                return badInput(replaceFailed(path, std::strerror(ELOOP)));
            std::error_code ec;
            const fs::path target = fs::read_symlink(at, ec);
            if (ec)
                return badInput(replaceFailed(path, ec.message()));
            at = target.is_absolute() ? target : at.parent_path() / target;
            if (descriptorNumber(at.string()) >= 0)
                continue; // /dev/stdout -> /proc/self/fd/1
            throughProc = throughProc || at.string().rfind("/proc/", 0) == 0;
            if (throughProc) {
                // /proc/self/fd/N: what the descriptor is, followed by the kernel
                struct stat real {};
                if (::stat(path.c_str(), &real) != 0)
                    return badInput(replaceFailed(path, std::strerror(errno)));
                if (S_ISREG(real.st_mode))
                    return OutputPlan{OutputPlan::How::Through, path, O_APPEND, -1};
                if (S_ISCHR(real.st_mode) || S_ISFIFO(real.st_mode) || S_ISSOCK(real.st_mode))
                    return OutputPlan{OutputPlan::How::Through, path, 0, -1};
                return badInput(notWritableKind(path));
            }
            continue;
        }
        if (S_ISDIR(st.st_mode))
            return badInput(Message("error.file.folder")
                                .with("file", path.string())
                                .with("expected", Message("error.expected.file_name")));
        if (S_ISREG(st.st_mode))
            return OutputPlan{OutputPlan::How::Replace, at, 0, -1};
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
            return OutputPlan{OutputPlan::How::Through, at, 0, -1};
        return badInput(notWritableKind(path));
    }
}

// Runs `write` on an ostream over `fd`; the message of a failure, or none when all of it was written.
Message writeThrough(int fd, const std::filesystem::path& path, const std::function<Status(std::ostream& out)>& write,
                     std::uintmax_t& written, Status& own)
{
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    own = write(out);
    if (own)
        out.flush();
    written = buffer.written();
    if (own && !out)
        return Message("error.line.write_failed")
            .with("file", path.string())
            .with("written", formatBytes(written))
            .with("why", whyWritingFailed(buffer.error()));
    return {};
}

// A device or FIFO: no temporary, no rename, nothing to keep.
Status writeStraightThrough(const OutputPlan& plan, const std::filesystem::path& shown,
                            const std::function<Status(std::ostream& out)>& write)
{
    const int fd = plan.descriptor >= 0 ? ::fcntl(plan.descriptor, F_DUPFD_CLOEXEC, 0)
                                        : ::open(plan.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | plan.openFlags);
    if (fd < 0)
        return badInput(Message("error.line.open_for_writing_failed")
                            .with("file", shown.string())
                            .with("why", whyWritingFailed(errno)));
    std::uintmax_t written = 0;
    Status own;
    Message failed = writeThrough(fd, shown, write, written, own);
    ::close(fd);
    if (!own)
        return own;
    if (!failed.empty())
        return badInput(std::move(failed));
    return {};
}

} // namespace

Status writeFileAtomicallyWith(const std::filesystem::path& path, const std::function<Status(std::ostream& out)>& write)
{
    auto plan = planOutput(path);
    if (!plan)
        return plan.error();
    if (plan->how == OutputPlan::How::Through)
        return writeStraightThrough(*plan, path, write);
    // the file replaced is the link's target when `path` is a symbolic link; messages name `path`
    const std::filesystem::path& target = plan->path;
    const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    // a temporary of a random name, created here and now (O_EXCL), never through a link
    // (O_NOFOLLOW), readable by the owner alone until it is complete
    std::filesystem::path tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp = dir / ("." + target.filename().string() + "." + randomSuffix() + ".tmp");
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        return badInput(Message("error.line.cannot_write_in").with("file", path.string()).with("folder", dir.string()));
    auto fail = [&](Message message) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return Status(badInput(std::move(message)));
    };
    std::uintmax_t written = 0;
    Status own;
    Message failed = writeThrough(fd, path, write, written, own);
    if (!own) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return own;
    }
    if (!failed.empty())
        return fail(std::move(failed));
    // the mode a new file gets, once complete; then flushed to disk before the rename makes it
    // visible (a file system that cannot sync, EINVAL or EROFS, loses nothing here)
    if (::fchmod(fd, newFileMode()) != 0)
        return fail(replaceFailed(path, std::strerror(errno)));
    if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        return fail(Message("error.line.flush_failed")
                        .with("file", path.string())
                        .with("written", formatBytes(written))
                        .with("why", whyWritingFailed(errno)));
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return badInput(
            Message("error.line.close_failed").with("file", path.string()).with("why", whyWritingFailed(err)));
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return badInput(replaceFailed(path, std::strerror(err)));
    }
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
