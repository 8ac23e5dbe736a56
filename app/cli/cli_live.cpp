// `shardlab live FILE` and the live side of `shardlab bench`: the same output as `sim` and as a
// simulated sweep, measured on this machine's GPUs by the live engine (libshardlab_live.so).
#include "cli.h"

#include "progress.h"
#include "shardlab/live/live.h"

#include <map>
#include <ostream>

namespace shardlab::cli {

namespace {
// "2x NVIDIA H200" for the sweep's title, from the devices it ran on.
std::string machineLabel(int gpus)
{
    auto devices = liveDevices();
    if (!devices || devices->empty())
        return std::to_string(gpus) + " GPUs";
    std::map<std::string, int> names;
    for (int i = 0; i < gpus && i < static_cast<int>(devices->size()); ++i)
        ++names[(*devices)[static_cast<size_t>(i)].name];
    std::string s;
    for (const auto& [name, n] : names)
        s += (s.empty() ? "" : " + ") + std::to_string(n) + "x " + name;
    return s;
}
} // namespace

int benchLive(OpKind kind, int gpus, const std::vector<Bytes>& sizes, bool json, int warmup, int iterations, Io io)
{
    if (!liveBuiltIn()) {
        io.err << "shardlab: " << io.say(Message("cli.error.bench_no_live").with("options", "--sim --preset ID"))
               << "\n";
        return kExitBadInput;
    }
    LiveBenchOptions options;
    options.warmup = warmup;
    options.iterations = iterations;
    auto rows = [&] {
        StdoutToStderr quiet(json); // NCCL's version line stays off the JSON
        return shardlab::benchLive(kind, gpus, sizes, options);
    }();
    if (!rows)
        return reportError(
            suggestInstead(rows.error(),
                           Message("cli.error.instead_sweep").with("command", "shardlab bench --sim --preset ID")),
            io);
    if (json)
        io.out << sweepJson(kind, gpus, *rows, "live");
    else
        io.out << formatSweepTable(kind, gpus, *rows,
                                   Message("sweep.title.live")
                                       .with("machine", machineLabel(gpus))
                                       .with("iterations", iterations)
                                       .with("batches", options.batches),
                                   io.language());
    for (const SweepRow& r : *rows)
        if (r.wrong > 0) {
            io.err << "shardlab: "
                   << io.say(Message("cli.error.wrong_at_size")
                                 .with("wrong", std::to_string(r.wrong))
                                 .with("bytes", std::to_string(r.bytes)))
                   << "\n";
            return kExitRunFailed;
        }
    return kExitOk;
}

void addLive(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("live", "Run a scenario on this machine's GPUs (real kernels and NCCL collectives); "
                                           "under mpirun or srun, one process per GPU across nodes");
    auto a = std::make_shared<RunArgs>();
    addRunOptions(cmd, *a);
    auto watchdog = std::make_shared<double>(10000);
    auto noTimeline = std::make_shared<bool>(false);
    auto noVerify = std::make_shared<bool>(false);
    auto noScale = std::make_shared<bool>(false);
    auto shareGpu = std::make_shared<int>(0);
    cmd->add_option("--share-gpu", *shareGpu,
                    "Run the scenario's N ranks as N processes on this machine's one GPU (NCCL over loopback "
                    "sockets): results and waits are real, times are not those of N GPUs");
    cmd->add_option("--watchdog-ms", *watchdog, "Abort a collective that makes no progress for this long")
        ->check(realNumber(1.0, 3.6e6));
    cmd->add_flag("--no-timeline", *noTimeline, "Stamp only iteration boundaries (no per-phase timeline)");
    cmd->add_flag("--no-verify", *noVerify, "Skip checking the collectives' results in the warm-up pass");
    cmd->add_flag("--no-scale", *noScale,
                  "Keep collective sizes as asked even where they do not fit in GPU memory (default: scale them down, "
                  "with a note); what does not fit is reported per rank");
    cmd->callback([=, &action] {
        action = [=]() -> int {
            if (!a->on.empty()) {
                std::vector<std::string> forwarded{"--watchdog-ms", std::to_string(*watchdog)};
                if (!a->profile.empty())
                    forwarded.insert(forwarded.end(), {"--profile", a->profile});
                for (const auto& [flag, on] :
                     {std::pair{"--no-timeline", *noTimeline}, {"--no-verify", *noVerify}, {"--no-scale", *noScale}})
                    if (on)
                        forwarded.emplace_back(flag);
                if (*shareGpu != 0)
                    forwarded.insert(forwarded.end(), {"--share-gpu", std::to_string(*shareGpu)});
                return runRemote(*a, io, "live", forwarded);
            }
            if (*shareGpu != 0) // this process starts the ranks; each runs this command without the option
                return liveSharingOneGpu(*a, *shareGpu, io);
            int status = kExitOk;
            const auto launch = multiProcessLaunch(io, status);
            if (status != kExitOk)
                return status;
            LiveOptions options;
            options.watchdogMs = *watchdog;
            options.captureTimeline = !*noTimeline;
            options.verify = !*noVerify;
            options.fitToMemory = !*noScale;
            if (a->stream && launch) // rank 0 streams the merged run (docs/remote.md "Slurm")
                return liveStreamUnderLauncher(*a, *launch, options, io);
            if (a->stream)
                return liveStream(*a, io, options);
            auto scenario = loadRunScenario(*a, io.language());
            if (scenario && !a->profile.empty())
                scenario->costProfile = a->profile;
            if (launch) // a file missing on some node is reported by rank 0 with the others' problems
                return liveUnderLauncher(scenario, *launch, *a, options, io);
            if (!scenario)
                return reportError(scenario.error(), io);
            auto run = [&] {
                StdoutToStderr quiet(a->json); // NCCL's version line stays off the JSON
                ProgressLine progress = progressLine("running live", "iteration");
                options.progress = [&](int done, int total) {
                    progress.update(done, total);
                    return true;
                };
                return runLive(*scenario, options);
            }();
            if (!run)
                return reportError(run.error(), io);
            if (!writeResultFile(a->result, *scenario, *run, "single process", std::nullopt, io))
                return kExitBadInput;
            return checkWrongElements(*run, printRun(*scenario, *run, *a, io), io);
        };
    });
}

int checkWrongElements(const RunResult& run, int status, Io io)
{
    for (const CollectiveRecord& c : run.collectives)
        if (c.wrongElements > 0) {
            io.err << "shardlab: "
                   << io.say(Message("cli.error.wrong_in_step")
                                 .with("step", c.op)
                                 .with("op", opName(c.kind))
                                 .with("wrong", std::to_string(c.wrongElements)))
                   << "\n";
            return status == kExitOk ? kExitRunFailed : status;
        }
    return status;
}

} // namespace shardlab::cli
