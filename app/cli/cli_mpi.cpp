// `shardlab live` and `shardlab topo` as one process of an mpirun/srun job (docs/mpi.md).
#include "cli.h"

#include "shardlab/cluster/mpi_loader.h"
#include "shardlab/live/multi_process.h"
#include "shardlab/sim/topo_matrix.h"

#include <ostream>
#include <set>

namespace shardlab::cli {

namespace {

// Opens MPI, or reports why not (from rank 0 only: every process fails the same way).
Transport* openTransport(const LaunchInfo& launch, std::unique_ptr<Transport>& holder, int& status, Io io)
{
    auto t = openMpiTransport();
    if (!t) {
        if (launch.rank == 0)
            reportError(Error{t.error().kind, t.error().message + " [" + launcherName(launch.launcher) + ": " + launch.variables + "]"},
                        io);
        status = t.error().kind == ErrorKind::BadInput ? kExitBadInput : kExitRunFailed;
        return nullptr;
    }
    holder = std::move(*t);
    if (holder->rank() != launch.rank || holder->size() != launch.size) {
        io.err << "shardlab: rank " << holder->rank() << ": MPI says rank " << holder->rank() << " of " << holder->size()
               << " but the launcher's variables say rank " << launch.rank << " of " << launch.size << " ("
               << launch.variables << "); was this process started by a different launcher than its MPI library expects?\n";
        status = kExitRunFailed;
        holder->abort(kExitRunFailed);
        return nullptr;
    }
    return holder.get();
}

std::string launchText(const LaunchInfo& launch, const std::vector<RankTopologyReport>& placement)
{
    std::set<std::string> hosts;
    for (const RankTopologyReport& r : placement)
        hosts.insert(r.host);
    return std::string(launcherName(launch.launcher)) + ", " + std::to_string(launch.size) + " processes on "
           + std::to_string(hosts.size()) + " host" + (hosts.size() == 1 ? "" : "s");
}

} // namespace

int liveUnderLauncher(const Result<Scenario>& loaded, const LaunchInfo& launch, const RunArgs& args,
                      const LiveOptions& liveOptions, Io io)
{
    std::unique_ptr<Transport> holder;
    int status = kExitOk;
    Transport* t = openTransport(launch, holder, status, io);
    if (!t)
        return status;
    const Scenario scenario = loaded ? *loaded : Scenario{};
    JobOptions options;
    if (!loaded)
        options.localProblem = loaded.error();
    options.live = liveOptions;
    options.onFailureWording = [&](const Message& message) {
        io.err << "shardlab: " << io.say(message) << "\nshardlab: " << io.say("cli.ending_job") << "\n";
        io.err.flush();
        t->abort(kExitRunFailed);
    };
    JobOutcome out = [&] {
        StdoutToStderr quiet(args.json); // NCCL's version line stays off the JSON (every rank: mpirun merges stdout)
        return runLiveJob(*t, scenario, launch, processEnvironment(), liveHooks(), options);
    }();
    if (!out.message.empty())
        io.err << "shardlab: " << (out.wording.empty() ? out.message : io.say(out.wording)) << "\n";
    if (t->rank() != 0 || !out.run)
        return out.exitStatus;
    // Rank 0: what a single-process run prints, then who ran where and how the clocks were aligned.
    if (!writeResultFile(args.result, scenario, *out.run, launchText(launch, out.placement), out.machine, io))
        return kExitBadInput;
    const int printed = printRun(scenario, *out.run, args, io);
    if (!args.json)
        io.out << "\n" << launchText(launch, out.placement) << " (" << t->describe() << "):\n"
               << formatPlacement(out.placement) << io.say(Message("cli.clocks").with("note", out.run->clockMessage())) << "\n";
    return checkWrongElements(*out.run, std::max(printed, out.exitStatus), io);
}

int topoUnderLauncher(const LaunchInfo& launch, Io io)
{
    std::unique_ptr<Transport> holder;
    int status = kExitOk;
    Transport* t = openTransport(launch, holder, status, io);
    if (!t)
        return status;
    TopologyOutcome out = gatherTopology(*t, launch, processEnvironment(), liveHooks());
    if (!out.message.empty())
        io.err << "shardlab: " << out.message << "\n";
    if (t->rank() == 0 && out.topology)
        io.out << launchText(launch, out.reports) << " (" << t->describe() << "):\n"
               << formatPlacement(out.reports) << "\n"
               << topoMatrixText(*out.topology, io.language());
    return out.exitStatus;
}

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

} // namespace shardlab::cli
