#include "cli.h"

#include "shardlab/live.h"
#include "shardlab/scenario_io.h"

#include <ostream>

namespace shardlab::cli {

std::optional<LaunchInfo> multiProcessLaunch(Io io, int& status)
{
    status = kExitOk;
    auto launch = detectLauncher(processEnvironment());
    if (!launch) {
        status = reportError(launch.error(), io);
        return std::nullopt;
    }
    // One process (mpirun -np 1): the plain single-process run, with every GPU of this machine.
    if (!*launch || (*launch)->size <= 1)
        return std::nullopt;
    return **launch;
}

void addLive(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("live", "Run a scenario on this machine's GPUs (CUDA kernels, NCCL collectives); under "
                                           "mpirun or srun, one process per GPU across nodes");
    auto a = std::make_shared<RunArgs>();
    auto watchdogMs = std::make_shared<double>(10000);
    addRunOptions(cmd, *a);
    cmd->add_option("--watchdog-ms", *watchdogMs, "A collective that takes longer is aborted as a hang")
        ->check(CLI::Range(100.0, 3.6e6));
    cmd->callback([=, &action] {
        action = [=]() -> int {
            int status = kExitOk;
            const auto launch = multiProcessLaunch(io, status);
            if (status != kExitOk)
                return status;
            auto scenario = loadScenario(a->file);
            if (scenario && a->iterations > 0)
                scenario->iterations = a->iterations;
            if (launch) // a file missing on some node is reported by rank 0 with the others' problems
                return liveUnderLauncher(scenario, *launch, *a, *watchdogMs, io);
            if (!scenario)
                return reportError(scenario.error(), io);
            LiveOptions options;
            options.watchdogMs = *watchdogMs;
            auto run = runLive(*scenario, options);
            if (!run)
                return reportError(run.error(), io);
            if (!writeResultFile(a->result, *scenario, *run, "single process", std::nullopt, io))
                return kExitBadInput;
            return printRun(*scenario, *run, a->json, a->trace, a->csvPrefix, io);
        };
    });
}

} // namespace shardlab::cli
