// `shardlab live` and `shardlab topo` as one process of an mpirun/srun job (docs/mpi.md).
#include "cli.h"

#include "shardlab/base/version.h"
#include "shardlab/cluster/mpi_loader.h"
#include "shardlab/cluster/socket_mesh.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/multi_process.h"
#include "shardlab/sim/topo_matrix.h"

#include <mutex>
#include <ostream>
#include <set>

namespace shardlab::cli {

namespace {

// Opens MPI, or reports why not (from rank 0 only: every process fails the same way).
Transport* openTransport(const LaunchInfo& launch, std::unique_ptr<Transport>& holder, int& status, Io io)
{
    // started by `shardlab live --share-gpu`: the socket mesh it made; else the MPI library
    auto t = launch.launcher == Launcher::SharedGpu ? openSocketMeshTransport(launch, processEnvironment())
                                                    : openMpiTransport();
    if (!t) {
        if (launch.rank == 0)
            reportError(Error(t.error().kind, Message("cli.error.under_launcher")
                                                  .with("reason", messageOf(t.error()))
                                                  .with("launcher", launcherName(launch.launcher))
                                                  .with("variables", launch.variables)),
                        io);
        status = exitStatusOf(t.error().kind);
        return nullptr;
    }
    holder = std::move(*t);
    if (holder->rank() != launch.rank || holder->size() != launch.size) {
        io.err << "shardlab: "
               << io.say(Message("placement.mismatch")
                             .with("rank", holder->rank())
                             .with("size", holder->size())
                             .with("launch_rank", launch.rank)
                             .with("launch_size", launch.size)
                             .with("variables", launch.variables))
               << "\n";
        status = kExitRunFailed;
        holder->abort(kExitRunFailed);
        return nullptr;
    }
    return holder.get();
}

// "Open MPI (mpirun), 8 processes on 2 hosts": printed in the user's language, kept in English in
// result files and streams (launchText).
Message launchMessage(const LaunchInfo& launch, const std::vector<RankTopologyReport>& placement)
{
    std::set<std::string> hosts;
    for (const RankTopologyReport& r : placement)
        hosts.insert(r.host);
    Message m(hosts.size() == 1 ? "placement.launch.one_host" : "placement.launch.hosts");
    m.arg("launcher", launcherName(launch.launcher))
        .arg("processes", launch.size)
        .arg("hosts", static_cast<int>(hosts.size()));
    return m;
}

std::string launchText(const LaunchInfo& launch, const std::vector<RankTopologyReport>& placement)
{
    return english(launchMessage(launch, placement));
}

// The line above the placement table: the launch and the MPI library.
std::string launchLine(const LaunchInfo& launch, const std::vector<RankTopologyReport>& placement, const Transport& t,
                       Io io)
{
    return io.say(Message("placement.launch.line")
                      .with("launch", launchMessage(launch, placement))
                      .with("transport", t.describe()));
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
    options.onFailure = [&](const Message& message) {
        io.err << "shardlab: " << io.say(message) << "\nshardlab: " << io.say("cli.ending_job") << "\n";
        io.err.flush();
        t->abort(kExitRunFailed);
    };
    JobOutcome out = [&] {
        StdoutToStderr quiet(args.json); // NCCL's version line stays off the JSON (every rank: mpirun merges stdout)
        return runLiveJob(*t, scenario, launch, processEnvironment(), liveHooks(), options);
    }();
    if (!out.message.empty())
        io.err << "shardlab: " << io.say(out.message) << "\n";
    if (t->rank() != 0 || !out.run)
        return out.exitStatus;
    // Rank 0: what a single-process run prints, then who ran where and how the clocks were aligned.
    if (!writeResultFile(args.result, scenario, *out.run, launchText(launch, out.placement), out.machine, io))
        return kExitBadInput;
    const int printed = printRun(scenario, *out.run, args, io);
    if (!args.json)
        io.out << "\n"
               << launchLine(launch, out.placement, *t, io) << "\n"
               << formatPlacement(out.placement, io.language())
               << io.say(Message("cli.clocks").with("note", out.run->clockNote)) << "\n";
    return checkWrongElements(*out.run, std::max(printed, out.exitStatus), io);
}

int liveStreamUnderLauncher(const RunArgs& args, const LaunchInfo& launch, const LiveOptions& liveOptions, Io io)
{
    std::unique_ptr<Transport> holder;
    int status = kExitOk;
    Transport* t = openTransport(launch, holder, status, io);
    if (!t)
        return status;
    const bool root = t->rank() == 0;
    // The scenario: rank 0's (FILE `-` is its standard input: mpirun gives it to rank 0 only),
    // sent to every process, so that all run what rank 0 streams in its header.
    Result<Scenario> scenario = Scenario{}; // a process that was sent none runs none (rank 0 says why)
    Bytes8 text;
    if (root) {
        scenario = loadRunScenario(args, io.language());
        if (scenario && !args.profile.empty())
            scenario->costProfile = args.profile;
        const std::string s = scenario ? serializeScenario(*scenario) : std::string();
        text.assign(s.begin(), s.end());
    }
    auto sent = broadcastBytes(*t, text, 0, Tag::Scenario, deadlineIn(120'000), "scenario");
    if (!sent) {
        io.err << "shardlab: "
               << io.say(Message("job.failure")
                             .with("who", Message("job.who").with("rank", t->rank()))
                             .with("what", messageOf(sent.error())))
               << "\n";
        return kExitRunFailed;
    }
    JobOptions options;
    options.live = liveOptions;
    options.stream = true;
    if (!root && !sent->empty())
        scenario = parseScenario(std::string(sent->begin(), sent->end()), "rank 0's scenario");
    if (root && !scenario)
        options.localProblem = scenario.error(); // rank 0 reports it at setup; the others just stop
    const Scenario run = scenario ? *scenario : Scenario{};

    // Only rank 0 writes on standard output; every process's file descriptor 1 goes to standard
    // error (NCCL prints there), so that the stream is the only thing on it.
    std::optional<LiveStreamOutput> output;
    std::optional<StdoutToStderr> quiet;
    if (root)
        output.emplace(io);
    else
        quiet.emplace(true);
    std::mutex writing; // the stream's lines come from this thread, the merging thread and the monitor
    std::optional<RunStreamWriter> writer;
    if (root)
        writer.emplace(output->stream());
    bool readerGone = false;
    options.started = [&](const std::optional<Topology>& machine, const std::vector<RankTopologyReport>& placement) {
        StreamHeader header;
        header.mode = RunMode::Live;
        header.scenario = run;
        header.machine = machine;
        header.launch = launchText(launch, placement);
        header.shardlabVersion = kVersion;
        std::lock_guard lock(writing);
        readerGone = !writer->header(header);
    };
    options.chunk = [&](const RunResult& soFar, int done, int total) {
        std::lock_guard lock(writing);
        return !readerGone && writer->chunk(soFar, done, total);
    };
    options.onFailure = [&](const Message& message) {
        if (root) {
            std::lock_guard lock(writing);
            writer->error(Error(ErrorKind::RunFailed, message));
        }
        io.err << "shardlab: " << io.say(message) << "\nshardlab: " << io.say("cli.ending_job") << "\n";
        io.err.flush();
        t->abort(kExitRunFailed);
    };
    JobOutcome out = runLiveJob(*t, run, launch, processEnvironment(), liveHooks(), options);
    if (!out.message.empty())
        io.err << "shardlab: " << io.say(out.message) << "\n";
    if (!root)
        return out.exitStatus;
    std::lock_guard lock(writing);
    if (!out.run) { // the job did not start, or failed: the stream ends with why
        const ErrorKind kind = out.exitStatus == kExitBadInput ? ErrorKind::BadInput : ErrorKind::RunFailed;
        writer->error(Error(kind, out.message.empty() ? Message("cli.error.job_failed") : out.message));
        return out.exitStatus == kExitOk ? kExitRunFailed : out.exitStatus;
    }
    if (!writeResultFile(args.result, run, *out.run, launchText(launch, out.placement), out.machine, io)) {
        writer->error(badInput(Message("error.line.result_not_saved").with("file", args.result)));
        return kExitBadInput;
    }
    if (readerGone || !writer->result(*out.run)) {
        io.err << "shardlab: " << io.say("cli.stream.gone_before_result") << "\n";
        return kExitRunFailed;
    }
    if (out.run->hang)
        io.err << "shardlab: " << io.say(Message("cli.hung").with("explanation", out.run->hang->explanationMessage()))
               << "\n";
    return checkWrongElements(*out.run, out.exitStatus, io);
}

int topoUnderLauncher(const LaunchInfo& launch, bool json, Io io)
{
    std::unique_ptr<Transport> holder;
    int status = kExitOk;
    Transport* t = openTransport(launch, holder, status, io);
    if (!t)
        return status;
    TopologyOutcome out = gatherTopology(*t, launch, processEnvironment(), liveHooks());
    const Message problem = out.message.empty() ? Message("error.line.topology_not_gathered_one") : out.message;
    if (!out.message.empty())
        io.err << "shardlab: " << io.say(problem) << "\n";
    if (json) { // what the app asks before a run through srun/mpirun: rank 0's one object, the job's machine
        if (t->rank() == 0)
            io.out << topoJson(out.topology ? Result<Topology>(*out.topology) : Result<Topology>(runFailed(problem)));
        return out.exitStatus;
    }
    if (t->rank() == 0 && out.topology)
        io.out << launchLine(launch, out.reports, *t, io) << "\n"
               << formatPlacement(out.reports, io.language()) << "\n"
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
