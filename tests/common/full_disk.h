// A full disk without root or a special filesystem: RLIMIT_FSIZE makes every write that would take
// a file past `bytes` fail (EFBIG), exactly where a write on a full filesystem fails (ENOSPC).
// SIGXFSZ, which the kernel sends with it, is ignored while the guard lives. Files already larger
// than the limit stay readable; only writing past it fails. Used by the tests that check that
// every writer reports the failure and leaves the previous file as it was (issue 14).
#pragma once

#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace shardlab::fs_test {

class FullDisk {
public:
    explicit FullDisk(rlim_t bytes = 4096)
    {
        ::getrlimit(RLIMIT_FSIZE, &m_old);
        m_oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = m_old;
        limit.rlim_cur = bytes;
        m_active = ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FullDisk()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_oldHandler);
    }
    FullDisk(const FullDisk&) = delete;
    FullDisk& operator=(const FullDisk&) = delete;
    bool active() const { return m_active; }

private:
    rlimit m_old{};
    void (*m_oldHandler)(int) = nullptr;
    bool m_active = false;
};

inline std::string fileText(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A previous good file, to check that a failed write leaves it as it was.
inline void writePlain(const std::filesystem::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// Leftover temporary files of an atomic write next to `p` (".NAME.tmp-PID" or QSaveFile's).
inline int leftoverTemporaries(const std::filesystem::path& p)
{
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(p.parent_path()))
        if (e.path() != p && e.path().filename().string().find(p.filename().string()) != std::string::npos)
            ++n;
    return n;
}

} // namespace shardlab::fs_test
