// `shardlab live --share-gpu N`: the scenario's N ranks as N processes of this machine's one GPU
// (cluster/shared_gpu_launch.h). This process checks what it can before anything starts (the rank
// count, the scenario, a GPU), then runs this same command once per rank, without --share-gpu, as
// ShardLab's own launcher; each of those runs as a process of an mpirun job does (cli_mpi.cpp)
// and rank 0 prints or streams the run. Its exit status is the job's.
#include "cli.h"

#include "shardlab/cluster/shared_gpu_launch.h"
#include "shardlab/live/live.h"

#include <ostream>

#include <climits>
#include <unistd.h>

namespace shardlab::cli {

namespace {

std::vector<std::string> g_arguments;

// This program's path, for running it again.
std::string thisProgram()
{
    char path[PATH_MAX] = {};
    const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string();
}

} // namespace

void setCommandArguments(std::vector<std::string> args) { g_arguments = std::move(args); }

std::vector<std::string> withoutOption(const std::vector<std::string>& args, const std::string& option)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == option) {
            ++i; // and its value
            continue;
        }
        if (args[i].rfind(option + "=", 0) == 0)
            continue;
        out.push_back(args[i]);
    }
    return out;
}

int liveSharingOneGpu(const RunArgs& args, int ranks, Io io)
{
    auto say = [&](const Message& m, int status) {
        io.err << "shardlab: " << io.say(m) << "\n";
        return status;
    };
    if (const Message problem = sharedGpuRanksProblem(ranks); !problem.empty())
        return say(problem, kExitBadInput);
    const Environment env = processEnvironment();
    auto launch = detectLauncher(env);
    if (!launch)
        return reportError(launch.error(), io);
    if (*launch)
        return say(Message("share_gpu.under_launcher")
                       .with("option", "--share-gpu")
                       .with("launcher", launcherName((*launch)->launcher)),
                   kExitBadInput);
    // The scenario here too when it is a file (standard input is rank 0's alone): a wrong rank
    // count or a broken file is said once, before any process starts.
    if (args.file != "-") {
        auto scenario = loadRunScenario(args, io.language());
        if (!scenario)
            return reportError(scenario.error(), io);
        if (scenario->ranks() != ranks)
            return say(Message("share_gpu.scenario_ranks")
                           .with("option", "--share-gpu")
                           .with("gpus", scenario->ranks())
                           .with("ranks", ranks),
                       kExitBadInput);
    }
    auto devices = liveDevices();
    if (!devices)
        return reportError(
            suggestInstead(devices.error(), Message("cli.error.instead_scenario").with("command", "shardlab sim FILE")),
            io);
    if (devices->empty())
        return reportError(badInput(Message("cli.error.no_cuda_gpu")), io);
    const auto gpu = sharedGpuChoice(env);
    if (!gpu)
        return say(Message("share_gpu.none_visible"), kExitBadInput);
    SharedGpuJob job;
    job.program = thisProgram();
    job.arguments = withoutOption(g_arguments, "--share-gpu");
    job.ranks = ranks;
    job.gpu = *gpu;
    if (job.program.empty())
        return reportError(runFailed(Message("cli.error.own_path").with("path", "/proc/self/exe")), io);
    io.err << "shardlab: " << io.say(Message("share_gpu.starting").with("ranks", ranks).with("gpu", *gpu)) << "\n";
    io.err.flush();
    io.out.flush();
    auto outcome = runSharedGpuJob(job);
    if (!outcome)
        return reportError(outcome.error(), io);
    if (!outcome->message.empty())
        say(outcome->message, 0);
    return outcome->exitStatus;
}

} // namespace shardlab::cli
