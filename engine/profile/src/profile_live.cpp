#include "shardlab/profile/profile_live.h"

#include "shardlab/profile/profile_format.h"
#include "shardlab/text/foreign_text.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace shardlab {

namespace fs = std::filesystem;

namespace {

// "FILE: cannot be read (the system's reason)"
Error unreadable(const fs::path& path, int error)
{
    return runFailed(
        Message("error.profile.unreadable").with("file", path.string()).with("why", systemWords(std::strerror(error))));
}

} // namespace

struct ProfileDirectoryTail::Tailed {
    fs::path path;
    std::uintmax_t offset = 0;
    ProfileRecordParser parser;
    explicit Tailed(const fs::path& p) : path(p), parser(p.string()) {}
};

ProfileDirectoryTail::ProfileDirectoryTail(fs::path dir) : m_dir(std::move(dir)) {}
ProfileDirectoryTail::~ProfileDirectoryTail() = default;

Status ProfileDirectoryTail::poll()
{
    std::error_code ec;
    const std::string suffix = profile_format::kFileSuffix;
    for (const auto& entry : fs::directory_iterator(m_dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const bool known =
            std::any_of(m_files.begin(), m_files.end(), [&](const auto& t) { return t->path == entry.path(); });
        if (!known)
            m_files.push_back(std::make_unique<Tailed>(entry.path()));
    }
    std::sort(m_files.begin(), m_files.end(), [](const auto& a, const auto& b) { return a->path < b->path; });
    std::vector<char> buffer(1 << 20);
    for (auto& t : m_files) {
        const int fd = ::open(t->path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return unreadable(t->path, errno);
        Status status;
        while (true) {
            const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(t->offset));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                status = unreadable(t->path, errno);
                break;
            }
            if (n == 0)
                break;
            t->offset += static_cast<std::uintmax_t>(n);
            status = t->parser.feed(std::string_view(buffer.data(), static_cast<size_t>(n)));
            if (!status)
                break;
        }
        ::close(fd);
        if (!status)
            return status;
    }
    return {};
}

Result<std::vector<ProfileFile>> ProfileDirectoryTail::files() const
{
    std::vector<ProfileFile> out;
    for (const auto& t : m_files) {
        if (!t->parser.sawHeader())
            continue;
        auto f = t->parser.file(false);
        if (!f)
            return f.error();
        out.push_back(std::move(*f));
    }
    return out;
}

int ProfileDirectoryTail::worldRanks() const
{
    int n = 0;
    for (const auto& t : m_files) {
        if (!t->parser.sawHeader())
            continue;
        if (auto f = t->parser.file(false))
            for (const ProfiledComm& c : f->comms)
                n = std::max(n, c.ranks);
    }
    return n;
}

size_t settledCollectives(const RunResult& run)
{
    size_t k = 0;
    for (; k < run.collectives.size(); ++k) {
        const CollectiveRecord& c = run.collectives[k];
        if (c.op != 2 * static_cast<int>(k) + 1 || c.arrivalUs.size() != c.group.size())
            break;
        if (!std::all_of(c.arrivalUs.begin(), c.arrivalUs.end(), [](double a) { return std::isfinite(a); }))
            break;
    }
    return k;
}

RunResult settledPrefix(const RunResult& run, size_t collectives)
{
    RunResult out;
    out.mode = run.mode;
    out.ranks = run.ranks;
    out.collectives.assign(run.collectives.begin(), run.collectives.begin() + static_cast<std::ptrdiff_t>(collectives));
    const int opEnd = 2 * static_cast<int>(collectives);
    for (const Span& s : run.spans)
        if (s.op < opEnd)
            out.spans.push_back(s);
    return out;
}

} // namespace shardlab
