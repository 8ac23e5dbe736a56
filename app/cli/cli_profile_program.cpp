#include "cli_profile.h"

#include "shardlab/base/resources.h"
#include "shardlab/model/presets.h"
#include "shardlab/profile/profile_format.h"
#include "shardlab/text/foreign_text.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace shardlab::cli {

namespace fs = std::filesystem;

Result<std::string> pluginPath()
{
    if (const char* env = std::getenv("SHARDLAB_NCCL_PROFILER"); env && *env) {
        std::error_code ec;
        if (!fs::exists(env, ec))
            return badInput(Message("error.line.live_library_missing")
                                .with("variable", "SHARDLAB_NCCL_PROFILER")
                                .with("path", std::string(env)));
        return fs::absolute(env).string();
    }
    std::vector<fs::path> looked = shippedLibraryCandidates(profile_format::kPluginFileName);
#ifdef SHARDLAB_PROFILER_BUILD_PATH
    looked.emplace_back(SHARDLAB_PROFILER_BUILD_PATH);
#endif
    std::string list;
    for (const fs::path& p : looked) {
        std::error_code ec;
        if (fs::exists(p, ec))
            return fs::weakly_canonical(p, ec).string();
        list += (list.empty() ? "" : ", ") + p.string();
    }
    return badInput(Message("error.line.profiler_missing")
                        .with("file", std::string(profile_format::kPluginFileName))
                        .with("where", list)
                        .with("variable", "SHARDLAB_NCCL_PROFILER"));
}

Message programProblem(const std::string& program)
{
    auto runnable = [](const std::string& path) {
        struct stat st {};
        return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
    };
    if (program.empty())
        return Message("cli.error.program_name_empty");
    if (program.find('/') != std::string::npos) {
        std::error_code ec;
        if (!fs::exists(program, ec))
            return Message("error.line.program_missing").with("program", program);
        if (!runnable(program))
            return Message("error.line.program_not_runnable").with("program", program);
        return {};
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t from = 0;
    while (from <= dirs.size()) {
        const size_t colon = std::min(dirs.find(':', from), dirs.size());
        const std::string dir = dirs.substr(from, colon - from);
        if (runnable((dir.empty() ? std::string(".") : dir) + "/" + program))
            return {};
        from = colon + 1;
    }
    return Message("error.line.program_not_on_path")
        .with("program", program)
        .with("variable", "PATH")
        .with("example", "./" + program);
}

namespace {

pid_t g_child = -1;
// A signal from the terminal (Ctrl-C: si_code SI_KERNEL) reached the program too, since it is in
// the same process group; one sent to this process alone (kill, mpirun, timeout) is passed on.
void forwardSignal(int sig, siginfo_t* info, void*)
{
    if (g_child > 0 && (!info || info->si_code != SI_KERNEL))
        ::kill(g_child, sig);
}

} // namespace

struct ProfiledProgram::Handlers {
    struct sigaction oldInt {
    }, oldTerm{};
};

Result<std::unique_ptr<ProfiledProgram>> ProfiledProgram::start(const std::vector<std::string>& command,
                                                                const std::vector<std::string>& extra,
                                                                bool stdoutToStderr)
{
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry = *e;
        bool replaced = false;
        for (const std::string& x : extra)
            replaced = replaced || entry.compare(0, x.find('=') + 1, x, 0, x.find('=') + 1) == 0;
        if (!replaced)
            env.push_back(entry);
    }
    env.insert(env.end(), extra.begin(), extra.end());
    std::vector<char*> envp, argv;
    for (std::string& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = command;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    // A program that cannot be started (programProblem() found it, but exec refuses it: not an
    // executable format, a script whose interpreter is missing) is said once, by this process: the
    // child sends exec's errno through a pipe that closes by itself when exec succeeds.
    int failed[2] = {-1, -1};
    if (::pipe2(failed, O_CLOEXEC) != 0)
        return runFailed(Message("error.line.cannot_start_program").with("why", systemWords(std::strerror(errno))));
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0) {
        const int err = errno;
        ::close(failed[0]);
        ::close(failed[1]);
        return runFailed(Message("error.line.cannot_start_program").with("why", systemWords(std::strerror(err))));
    }
    if (child == 0) {
        ::close(failed[0]);
        if (stdoutToStderr) { // --live: standard output is the stream's
            ::dup2(STDERR_FILENO, STDOUT_FILENO);
            // and the program never outlives the profile that streams it (the app killed it)
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        }
        ::execvpe(argv[0], argv.data(), envp.data());
        const int err = errno;
        if (::write(failed[1], &err, sizeof err) != static_cast<ssize_t>(sizeof err)) {
        }
        ::_exit(err == ENOENT ? 127 : 126);
    }
    ::close(failed[1]);
    int execErrno = 0;
    ssize_t got;
    while ((got = ::read(failed[0], &execErrno, sizeof execErrno)) < 0 && errno == EINTR) {
    }
    ::close(failed[0]);
    if (got == static_cast<ssize_t>(sizeof execErrno)) {
        int ignored = 0;
        while (::waitpid(child, &ignored, 0) < 0 && errno == EINTR) {
        }
        return badInput(Message("error.line.program_cannot_start")
                            .with("program", command.front())
                            .with("why", systemWords(std::strerror(execErrno))));
    }
    std::unique_ptr<ProfiledProgram> p(new ProfiledProgram);
    p->m_pid = child;
    p->m_handlers = std::make_unique<Handlers>();
    g_child = child;
    struct sigaction forward {};
    forward.sa_sigaction = forwardSignal;
    forward.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&forward.sa_mask);
    ::sigaction(SIGINT, &forward, &p->m_handlers->oldInt);
    ::sigaction(SIGTERM, &forward, &p->m_handlers->oldTerm);
    return p;
}

ProfiledProgram::~ProfiledProgram()
{
    if (!m_status && m_pid > 0) { // never left running behind
        ::kill(m_pid, SIGTERM);
        ended(true);
    }
    if (m_handlers) {
        ::sigaction(SIGINT, &m_handlers->oldInt, nullptr);
        ::sigaction(SIGTERM, &m_handlers->oldTerm, nullptr);
    }
    g_child = -1;
}

std::optional<int> ProfiledProgram::ended(bool block)
{
    if (m_status)
        return m_status;
    int status = 0;
    pid_t got;
    while ((got = ::waitpid(m_pid, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR) {
    }
    if (got != m_pid)
        return std::nullopt;
    if (WIFSIGNALED(status)) {
        m_signal = WTERMSIG(status);
        m_status = 128 + m_signal;
    } else {
        m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    g_child = -1;
    return m_status;
}

void ProfiledProgram::terminate()
{
    if (!m_status && m_pid > 0)
        ::kill(m_pid, SIGTERM);
}

Message programEndMessage(const ProfiledProgram& program, int status)
{
    if (program.signal())
        return Message("error.line.program_signal")
            .with("signal", program.signal())
            .with("name", std::string(strsignal(program.signal())));
    if (status != 0)
        return Message("error.line.program_status").with("status", status);
    return {};
}

std::string joined(const std::vector<std::string>& words)
{
    std::string s;
    for (const std::string& w : words)
        s += (s.empty() ? "" : " ") + w;
    return s;
}

void removeEarlierRecords(const fs::path& dir)
{
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        const std::string suffix = profile_format::kFileSuffix;
        if ((name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            || (name.rfind("rank-", 0) == 0 && name.size() > 5 && name.compare(name.size() - 5, 5, ".done") == 0))
            fs::remove(entry.path(), ec);
    }
}

Result<std::optional<Topology>> machineOption(const std::string& id)
{
    if (id.empty())
        return std::optional<Topology>();
    auto t = preset(id);
    if (!t)
        return badInput(
            Message("error.line.option_says").with("option", "machine").with("reason", unknownPresetSentence(id)));
    return std::optional<Topology>(*t);
}

} // namespace shardlab::cli
