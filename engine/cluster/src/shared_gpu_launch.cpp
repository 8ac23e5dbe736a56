#include "shardlab/cluster/shared_gpu_launch.h"

#include "seconds_text.h"

#include "shardlab/cluster/socket_mesh.h"
#include "shardlab/text/foreign_text.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace shardlab {

namespace {

// The children, for the signal handler (written before it is installed, cleared after).
std::array<volatile pid_t, kMaxSharedGpuRanks> gChildren{};

void passOn(int signal)
{
    for (const volatile pid_t& pid : gChildren)
        if (pid > 0)
            ::kill(pid, signal);
}

// Installs passOn for the signals that end a job, and puts the old handlers back when done.
class PassSignalsOn {
public:
    PassSignalsOn()
    {
        struct sigaction sa {};
        sa.sa_handler = passOn;
        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < kSignals.size(); ++i)
            ::sigaction(kSignals[i], &sa, &m_old[i]);
    }
    ~PassSignalsOn()
    {
        for (size_t i = 0; i < kSignals.size(); ++i)
            ::sigaction(kSignals[i], &m_old[i], nullptr);
        for (volatile pid_t& pid : gChildren)
            pid = 0;
    }
    PassSignalsOn(const PassSignalsOn&) = delete;
    PassSignalsOn& operator=(const PassSignalsOn&) = delete;

private:
    static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
    std::array<struct sigaction, 3> m_old{};
};

std::string signalName(int signal)
{
    const char* abbrev = sigabbrev_np(signal);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

} // namespace

Message sharedGpuRanksProblem(int ranks)
{
    if (ranks >= kMinSharedGpuRanks && ranks <= kMaxSharedGpuRanks)
        return {};
    return Message("share_gpu.ranks")
        .with("option", "--share-gpu")
        .with("ranks", ranks)
        .with("min", kMinSharedGpuRanks)
        .with("max", kMaxSharedGpuRanks);
}

std::optional<std::string> sharedGpuChoice(const Environment& env)
{
    const auto visible = cudaVisibleDevices(env);
    if (!visible)
        return std::string("0");
    if (visible->empty())
        return std::nullopt;
    return visible->front();
}

Environment sharedGpuEnvironment(int rank, int ranks, const std::string& gpu, const std::string& fds)
{
    return {
        {"SHARDLAB_SHARED_RANK", std::to_string(rank)},
        {"SHARDLAB_SHARED_SIZE", std::to_string(ranks)},
        {kSharedFdsVariable, fds},
        {"CUDA_VISIBLE_DEVICES", gpu},
        // NCCL refuses two ranks on one GPU of one host: each rank is a host of its own...
        {"NCCL_HOSTID", "shardlab-shared-" + std::to_string(rank)},
        // ...so NCCL would try the network between them: the loopback, with sockets only.
        {"NCCL_P2P_DISABLE", "1"},
        {"NCCL_SHM_DISABLE", "1"},
        {"NCCL_IB_DISABLE", "1"},
        {"NCCL_SOCKET_IFNAME", "lo"},
    };
}

Result<SharedGpuOutcome> runSharedGpuJob(const SharedGpuJob& job)
{
    if (const Message problem = sharedGpuRanksProblem(job.ranks); !problem.empty())
        return badInput(problem);
    auto mesh = makeSocketMesh(job.ranks);
    if (!mesh)
        return mesh.error();
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devNull < 0) {
        closeSocketMesh(*mesh);
        return runFailed(Message("error.cluster.cannot_open")
                             .with("file", "/dev/null")
                             .with("why", systemWords(std::strerror(errno))));
    }

    // Everything a child needs is built before fork: after it, only async-signal-safe calls.
    std::vector<std::string> args{job.program};
    args.insert(args.end(), job.arguments.begin(), job.arguments.end());
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::vector<std::string>> envs(static_cast<size_t>(job.ranks));
    std::vector<std::vector<char*>> envps(static_cast<size_t>(job.ranks));
    for (int r = 0; r < job.ranks; ++r) {
        Environment env = processEnvironment();
        for (auto& [name, value] :
             sharedGpuEnvironment(r, job.ranks, job.gpu, meshFdsText(mesh->fds[static_cast<size_t>(r)], r)))
            env[name] = value;
        for (const auto& [name, value] : env)
            envs[static_cast<size_t>(r)].push_back(name + "=" + value);
        for (std::string& e : envs[static_cast<size_t>(r)])
            envps[static_cast<size_t>(r)].push_back(e.data());
        envps[static_cast<size_t>(r)].push_back(nullptr);
    }

    PassSignalsOn signals;
    const pid_t launcher = ::getpid();
    std::vector<pid_t> pids(static_cast<size_t>(job.ranks), -1);
    Message startError; // why a rank's process could not be started
    for (int r = 0; r < job.ranks && startError.empty(); ++r) {
        const std::vector<int>& mine = mesh->fds[static_cast<size_t>(r)];
        const pid_t pid = ::fork();
        if (pid < 0) {
            startError = Message("error.cluster.cannot_start_rank")
                             .with("rank", r)
                             .with("why", systemWords(std::strerror(errno)));
            break;
        }
        if (pid == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != launcher)
                ::_exit(kExitRunFailed); // the launcher died before the line above
            for (int fd : mine)
                if (fd >= 0)
                    ::fcntl(fd, F_SETFD, 0); // inherited across exec
            if (r > 0) {
                ::dup2(devNull, STDIN_FILENO);
                ::dup2(STDERR_FILENO, STDOUT_FILENO); // only rank 0 writes on standard output
            }
            ::execve(argv[0], argv.data(), envps[static_cast<size_t>(r)].data());
            static constexpr char kFailed[] = "shardlab: --share-gpu: cannot run this ShardLab again as a rank\n";
            (void)!::write(STDERR_FILENO, kFailed, sizeof kFailed - 1);
            ::_exit(127);
        }
        pids[static_cast<size_t>(r)] = pid;
        gChildren[static_cast<size_t>(r)] = pid;
    }
    closeSocketMesh(*mesh); // the children hold their ends; a child's death now closes its sockets
    ::close(devNull);
    if (!startError.empty())
        passOn(SIGKILL);

    SharedGpuOutcome out;
    std::vector<int> status(static_cast<size_t>(job.ranks), -1);
    int running = 0;
    for (pid_t p : pids)
        running += p > 0 ? 1 : 0;
    bool killing = false; // after a failure: the others are killed at killAt
    auto killAt = std::chrono::steady_clock::time_point::max();
    int firstFailed = -1;
    while (running > 0) {
        int st = 0;
        const pid_t pid = ::waitpid(-1, &st, WNOHANG);
        if (pid < 0 && errno != EINTR && errno != ECHILD)
            break;
        if (pid > 0) {
            for (int r = 0; r < job.ranks; ++r) {
                if (pids[static_cast<size_t>(r)] != pid)
                    continue;
                --running;
                gChildren[static_cast<size_t>(r)] = 0;
                pids[static_cast<size_t>(r)] = -1;
                if (WIFSIGNALED(st)) {
                    status[static_cast<size_t>(r)] = 128 + WTERMSIG(st);
                    if (out.message.empty() && !killing)
                        out.message =
                            Message("share_gpu.killed").with("rank", r).with("signal", signalName(WTERMSIG(st)));
                } else {
                    status[static_cast<size_t>(r)] = WEXITSTATUS(st);
                }
                if (status[static_cast<size_t>(r)] != 0 && firstFailed < 0) {
                    firstFailed = r;
                    killing = true;
                    killAt = std::chrono::steady_clock::now()
                             + std::chrono::milliseconds(static_cast<long long>(job.graceMs));
                }
            }
            continue;
        }
        if (killing && std::chrono::steady_clock::now() >= killAt) {
            std::string left;
            for (int r = 0; r < job.ranks; ++r)
                if (pids[static_cast<size_t>(r)] > 0) {
                    left += (left.empty() ? "" : ", ") + std::to_string(r);
                    ::kill(pids[static_cast<size_t>(r)], SIGKILL);
                }
            if (!left.empty() && out.message.empty())
                out.message = Message("share_gpu.stopped")
                                  .with("ranks", left)
                                  .with("seconds", detail::secondsText(job.graceMs))
                                  .with("failed", firstFailed);
            killing = false;
            continue;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!startError.empty())
        return runFailed(startError);
    out.exitStatus = status[0];
    if (out.exitStatus == 0 && firstFailed >= 0)
        out.exitStatus = status[static_cast<size_t>(firstFailed)];
    if (out.exitStatus > 125)
        out.exitStatus = kExitRunFailed; // killed: a failed run, as the CLI's statuses go
    return out;
}

} // namespace shardlab
