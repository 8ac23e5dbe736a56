// `shardlab profile`'s output folder: what is checked before anything there is removed or replaced
// (the plugin, --machine, the program, every output), and the lock that keeps a second profile out
// of a folder in use (docs/profiling.md, "How to run it").
#include "cli_profile.h"

#include "shardlab/profile/profile_format.h"
#include "shardlab/text/foreign_text.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace shardlab::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = ".shardlab-profile.lock";

// Fine when `path` can be written (created or replaced) as a file; else why not.
Status writableFile(const std::string& option, const fs::path& path)
{
    std::error_code ec;
    const fs::path file = fs::absolute(path, ec);
    if (fs::is_directory(file, ec))
        return badInput(Message("error.file.folder")
                            .with("file", option + " " + path.string())
                            .with("expected", Message("error.expected.file_name")));
    const fs::path folder = file.parent_path();
    if (!fs::is_directory(folder, ec) || ::access(folder.c_str(), W_OK | X_OK) != 0)
        return badInput(Message("error.line.cannot_write_in")
                            .with("file", option + " " + path.string())
                            .with("folder", folder.string()));
    return {};
}

} // namespace

OutFolderLock::~OutFolderLock()
{
    if (m_fd < 0)
        return;
    if (!m_shared && ::ftruncate(m_fd, 0) != 0) { // the process id goes with the lock
    }
    ::close(m_fd); // and the lock with the last descriptor of the file
}

Result<std::unique_ptr<OutFolderLock>> OutFolderLock::take(const fs::path& dir, bool shared)
{
    const fs::path path = dir / kLockName;
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return badInput(
            Message("error.line.cannot_write_in").with("file", "--out " + dir.string()).with("folder", dir.string()));
    if (::flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
        const int err = errno;
        char text[32] = {};
        const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
        ::close(fd);
        if (err != EWOULDBLOCK)
            return runFailed(Message("cli.error.cannot_lock")
                                 .with("option", "--out")
                                 .with("folder", dir.string())
                                 .with("file", path.string())
                                 .with("why", systemWords(std::strerror(err))));
        std::string pid(text, got > 0 ? static_cast<size_t>(got) : 0);
        pid.erase(pid.find_last_not_of("\n ") + 1);
        const bool known = !pid.empty() && pid.find_first_not_of("0123456789") == std::string::npos;
        Message inUse(known ? "error.line.out_in_use" : "error.line.out_in_use_job");
        inUse.arg("option", "--out");
        inUse.arg("folder", dir.string());
        inUse.arg("command", "shardlab profile");
        if (known)
            inUse.arg("pid", pid);
        inUse.arg("option2", "--out");
        return badInput(std::move(inUse));
    }
    std::unique_ptr<OutFolderLock> lock(new OutFolderLock);
    lock->m_fd = fd;
    lock->m_shared = shared;
    if (!shared) { // the holder, named to whoever is refused
        const std::string pid = std::to_string(::getpid()) + "\n";
        if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
            // the lock holds all the same; a refused run then cannot name this process
        }
    }
    return lock;
}

Result<ProfileStart> prepareProfile(const ProfileArgs& a, bool sharedFolder)
{
    ProfileStart start;
    auto plugin = pluginPath();
    if (!plugin)
        return plugin.error();
    start.plugin = *plugin;
    auto machine = machineOption(a.machine);
    if (!machine)
        return machine.error();
    start.machine = *machine;
    if (Message problem = programProblem(a.command.front()); !problem.empty())
        return badInput(std::move(problem));
    start.dir = fs::absolute(a.out);
    std::error_code ec;
    fs::create_directories(start.dir, ec);
    if (ec)
        return badInput(Message("error.line.out_folder")
                            .with("option", "--out")
                            .with("folder", a.out)
                            .with("why", systemWords(ec.message())));
    // Every output: the result file and the trace (in --out unless given), --scenario, --csv.
    std::vector<std::pair<std::string, fs::path>> outputs = {
        {"--result", a.run.result.empty() ? start.dir / "profile.shardlab-result.json" : fs::path(a.run.result)},
        {"--trace", a.run.trace.empty() ? start.dir / "profile.trace.json" : fs::path(a.run.trace)}};
    if (!a.scenario.empty())
        outputs.emplace_back("--scenario", a.scenario);
    if (!a.run.csvPrefix.empty())
        for (const char* table : {"-ranks.csv", "-collectives.csv", "-spans.csv"})
            outputs.emplace_back("--csv", a.run.csvPrefix + table);
    for (const auto& [option, path] : outputs)
        if (Status st = writableFile(option, path); !st)
            return st.error();
    auto lock = OutFolderLock::take(start.dir, sharedFolder);
    if (!lock)
        return lock.error();
    start.lock = std::move(*lock);
    return start;
}

} // namespace shardlab::cli
