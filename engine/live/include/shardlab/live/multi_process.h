// A live run as one of several processes started by a launcher (mpirun, srun), one per GPU:
// what each process does, in order, over a Transport (docs/mpi.md, "Design"):
//   1. setup: every rank maps its local rank to a GPU and reports it (host, device, topology) to
//      rank 0, which checks the job (one process per scenario rank, no GPU taken twice), creates
//      NCCL's unique id and broadcasts go (with the id) or no-go (with the reason);
//   2. heartbeats start (job_monitor.h); rank 0 measures every process's clock offset;
//   3. every rank runs its part (runLiveRankPart);
//   4. rank 0 measures the offsets again (clock drift), gathers every part and merges them onto
//      its clock (trace_merge.h), and broadcasts the job's exit status.
// Everything here runs over any Transport, so the tests drive it with an InProcessJob.
#pragma once

#include "shardlab/cluster/cluster_topology.h"
#include "shardlab/cluster/job_monitor.h"
#include "shardlab/cluster/launch.h"
#include "shardlab/cluster/transport.h"
#include "shardlab/live/live.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

// The calls into live mode (live_rank.h), replaceable in tests.
struct LiveHooks {
    std::function<Result<Bytes8>()> createUniqueId;
    std::function<int()> visibleDevices;
    std::function<RankTopologyReport(int device, const Environment& env)> probe;
    std::function<Result<RunResult>(const Scenario&, int rank, int device, const Bytes8& uniqueId, const LiveOptions&,
                                    RankProgress&)>
        runRankPart;
    std::function<double()> clockUs; // the clock runRankPart times with
};
// The real ones: live_rank.h and processClockUs.
LiveHooks liveHooks();

struct JobOptions {
    LiveOptions live;
    int clockRounds = 32;            // ping-pongs per process, before and after the run
    MonitorOptions monitor;          // stallMs 0: twice the watchdog plus 5 s
    double setupTimeoutMs = 120'000; // every process must have started and reported by then
    // A problem this process found before the job, e.g. it could not read the scenario file:
    // reported to rank 0 at setup (ranks with the same problem on one line), and the job does not start.
    std::optional<Error> localProblem;
    // Called (on the monitor's thread or this one) when this process sees the job fail after
    // setup: the CLI prints the message and aborts the job (Transport::abort). If it returns,
    // runLiveJob returns exit status 3 with the message (live.inc's job.failure), which a front end
    // words in its user's language.
    std::function<void(const Message&)> onFailure;

    // Streaming (`shardlab live --stream` under a launcher; every process sets it): each process
    // sends every iteration of its part to rank 0 as it completes (LiveOptions::iterationDone,
    // Tag::Chunk); rank 0 merges an iteration once every process's has arrived (stream_merge.h)
    // and hands the merged run so far to `chunk`. So that what was handed over stays true, every
    // process's clock is mapped onto rank 0's by the offset measured before the run, held through
    // it, for the chunks and the final run alike; the offsets measured after the run bound the
    // error that leaves, and the run's clock note states that bound.
    bool stream = false;
    // Rank 0, once the job is agreed, before any part runs: the machine of the job (combined from
    // every process's report, when it could be) and who runs where.
    std::function<void(const std::optional<Topology>& machine, const std::vector<RankTopologyReport>& placement)>
        started;
    // Rank 0, on a thread of its own: (the merged run so far, iterations merged, total); later
    // calls only append; the final JobOutcome::run begins with the last run handed over. false:
    // nobody reads any more; the job fails through onFailure (which ends it).
    std::function<bool(const RunResult& soFar, int done, int total)> chunk;
};

struct JobOutcome {
    int exitStatus = 0;                        // every process exits with this: 0, 2 bad input, 3 failed
    std::optional<RunResult> run;              // rank 0: the merged run (also with a hang report)
    std::vector<RankTopologyReport> placement; // rank 0: who ran where
    std::optional<Topology> machine;           // rank 0: the combined topology, when it could be built
    Message message;                           // for this process to print on stderr (empty: nothing)
};

// Never throws; every failure is in the outcome. Rank 0 prints job-wide problems (naming the
// ranks); the others print only what rank 0 cannot (rank 0 itself died or did not answer).
JobOutcome runLiveJob(Transport& transport, const Scenario& scenario, const LaunchInfo& launch, const Environment& env,
                      const LiveHooks& hooks, const JobOptions& options);

struct TopologyOutcome {
    int exitStatus = 0;
    std::optional<Topology> topology;        // rank 0
    std::vector<RankTopologyReport> reports; // rank 0, by rank
    Message message;                         // why it failed, to be worded in the user's language (empty: it did not)
};
// `shardlab topo` under a launcher: every rank reports its GPU; rank 0 combines the reports.
// A rank whose GPU cannot be identified makes it fail, naming the rank and why.
TopologyOutcome gatherTopology(Transport& transport, const LaunchInfo& launch, const Environment& env,
                               const LiveHooks& hooks, double timeoutMs = 60'000);

} // namespace shardlab
