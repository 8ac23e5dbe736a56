// Errors of cluster/ and live/ born as Messages (issue 26): a job's launch variables, the socket
// mesh, the transport's exchanges, the clocks, the heartbeats, the topology reports, the merge of
// the processes' parts, a job that cannot start and the live plan's refusals, each triggered
// through the public API with its English as before and its Chinese without English words. (The
// GPU library and the MPI module need a GPU or an MPI job; their messages are in the catalogue.)
#include "../../common/born_message.h"
#include "../test_helpers.h"

#include "shardlab/cluster/clock_sync.h"
#include "shardlab/cluster/cluster_topology.h"
#include "shardlab/cluster/in_process_job.h"
#include "shardlab/cluster/job_monitor.h"
#include "shardlab/cluster/launch.h"
#include "shardlab/cluster/shared_gpu_launch.h"
#include "shardlab/cluster/socket_mesh.h"
#include "shardlab/cluster/stream_merge.h"
#include "shardlab/cluster/trace_merge.h"
#include "shardlab/cluster/transport.h"
#include "shardlab/live/live_plan.h"
#include "shardlab/live/multi_process.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

using namespace shardlab;
using shardlab::test::expectBornInBothLanguages;

namespace born_cluster { // named: the unity build puts other tests' helpers beside these

Error bornErrorOf(const Status& st)
{
    EXPECT_FALSE(st.ok());
    return st.ok() ? Error() : st.error();
}

template <class T>
Error bornErrorOf(const Result<T>& r)
{
    EXPECT_FALSE(r.ok());
    return r.ok() ? Error() : r.error();
}

// A part of rank `rank` in a job of `ranks`, with the collective records given.
RankPart bornPartOf(int rank, int ranks, std::vector<CollectiveRecord> collectives = {})
{
    RankPart p;
    p.ranks = {rank};
    p.run.ranks = ranks;
    p.run.collectives = std::move(collectives);
    p.clock = exactClock(0);
    return p;
}

CollectiveRecord bornAllReduce(std::vector<int> group, std::vector<double> arrivals)
{
    CollectiveRecord c;
    c.kind = OpKind::AllReduce;
    c.sequence = 3;
    c.op = 2;
    c.iteration = 1;
    c.bytes = 64'000'000;
    c.group = std::move(group);
    c.arrivalUs = std::move(arrivals);
    return c;
}

} // namespace born_cluster

using namespace born_cluster;

TEST(ErrorsBornCluster, TheMergeOfTheProcessesParts)
{
    const Error none = bornErrorOf(mergeRankParts({}));
    EXPECT_EQ(none.message, "no process sent its part of the run");
    expectBornInBothLanguages(none);

    const Error twice = bornErrorOf(mergeRankParts({bornPartOf(0, 2), bornPartOf(0, 2)}));
    EXPECT_EQ(twice.message, "two processes both ran rank 0");
    expectBornInBothLanguages(twice);

    const Error outside = bornErrorOf(mergeRankParts({bornPartOf(0, 2), bornPartOf(5, 2)}));
    EXPECT_EQ(outside.message, "a part claims rank 5, which is not in a job of 2");
    expectBornInBothLanguages(outside);

    const Error sizes = bornErrorOf(mergeRankParts({bornPartOf(0, 2), bornPartOf(1, 3)}));
    EXPECT_EQ(sizes.message, "the part with ranks {1} says the job has 3 ranks; another says 2");
    expectBornInBothLanguages(sizes);

    const Error missing = bornErrorOf(mergeRankParts({bornPartOf(0, 2)}));
    EXPECT_EQ(missing.message, "no process sent the part of rank 1");
    expectBornInBothLanguages(missing);

    // a record of a collective, as the messages describe it
    const Error arrivals =
        bornErrorOf(mergeRankParts({bornPartOf(0, 2, {bornAllReduce({0, 1}, {1.0})}), bornPartOf(1, 2)}));
    EXPECT_EQ(arrivals.message,
              "rank 0's record of all_reduce #3 on ranks {0,1} (step 2, iteration 1, 64 MB) does not hold one arrival "
              "per member");
    expectBornInBothLanguages(arrivals, {"all_reduce"});

    const Error notMine =
        bornErrorOf(mergeRankParts({bornPartOf(0, 2, {bornAllReduce({1}, {1.0})}), bornPartOf(1, 2)}));
    EXPECT_EQ(notMine.message,
              "the process of ranks {0} recorded all_reduce #3 on ranks {1} (step 2, iteration 1, 64 MB), which none "
              "of its ranks is in");
    expectBornInBothLanguages(notMine, {"all_reduce"});

    CollectiveRecord other = bornAllReduce({0, 1}, {1.0, 2.0});
    other.bytes = 32'000'000;
    const Error disagree =
        bornErrorOf(mergeRankParts({bornPartOf(0, 2, {bornAllReduce({0, 1}, {1.0, 2.0})}), bornPartOf(1, 2, {other})}));
    EXPECT_EQ(
        disagree.message,
        "the ranks disagree about collective #3 on ranks {0,1}: rank 0 recorded all_reduce #3 on ranks {0,1} "
        "(step 2, iteration 1, 64 MB), rank 1 recorded all_reduce #3 on ranks {0,1} (step 2, iteration 1, 32 MB)");
    expectBornInBothLanguages(disagree, {"all_reduce"});

    const Error unrecorded =
        bornErrorOf(mergeRankParts({bornPartOf(0, 2, {bornAllReduce({0, 1}, {1.0, 2.0})}), bornPartOf(1, 2)}));
    EXPECT_EQ(unrecorded.message.rfind("rank 1 has no record of all_reduce #3", 0), 0u) << unrecorded.message;
    expectBornInBothLanguages(unrecorded, {"all_reduce"});

    RankPart spans = bornPartOf(0, 2);
    spans.run.spans.push_back(Span{.rank = 1});
    const Error foreign = bornErrorOf(mergeRankParts({spans, bornPartOf(1, 2)}));
    EXPECT_EQ(foreign.message, "the process of ranks {0} sent a span of rank 1");
    expectBornInBothLanguages(foreign);
}

TEST(ErrorsBornCluster, AnIterationOfAStreamedMerge)
{
    IterationMerger merger(2, {exactClock(0), exactClock(0)}, 0);
    RunResult bad;
    bad.collectives.push_back(bornAllReduce({0, 1}, {}));
    merger.add(0, bad);
    merger.add(1, RunResult{});
    const Error e = bornErrorOf(merger.mergeReady());
    EXPECT_EQ(e.message.rfind("iteration 1: rank 0's record of all_reduce #3", 0), 0u) << e.message;
    expectBornInBothLanguages(e, {"all_reduce"});
}

TEST(ErrorsBornCluster, ALaunchersVariables)
{
    const Error notBelow = bornErrorOf(detectLauncher(
        {{"OMPI_COMM_WORLD_RANK", "5"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}}));
    EXPECT_EQ(notBelow.message,
              "this process was started by Open MPI (mpirun) but its variables are inconsistent: rank 5 is not below "
              "the job size 2 (OMPI_COMM_WORLD_RANK=5, OMPI_COMM_WORLD_SIZE=2, OMPI_COMM_WORLD_LOCAL_RANK=0)");
    expectBornInBothLanguages(notBelow,
                              {"Open", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"});

    const Error notWhole = bornErrorOf(detectLauncher({{"OMPI_COMM_WORLD_RANK", "x"}}));
    EXPECT_NE(notWhole.message.find("OMPI_COMM_WORLD_RANK='x' (expected a whole number of at least 0)"),
              std::string::npos)
        << notWhole.message;
    expectBornInBothLanguages(notWhole, {"Open", "OMPI_COMM_WORLD_RANK"});

    const Error unset = bornErrorOf(detectLauncher({{"OMPI_COMM_WORLD_SIZE", "2"}}));
    EXPECT_NE(unset.message.find("OMPI_COMM_WORLD_RANK is not set"), std::string::npos) << unset.message;
    expectBornInBothLanguages(unset, {"Open", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"});

    const Error slurmList = bornErrorOf(parseSlurmTasksPerNode("4(y2)"));
    EXPECT_EQ(slurmList.message, "'4(y2)' is not a Slurm tasks-per-node list (expected e.g. \"4(x2),2\")");
    expectBornInBothLanguages(slurmList, {"4(y2)"});

    const Environment slurm = {{"SLURM_PROCID", "0"},  {"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_TASKS", "2"},
                               {"SLURM_LOCALID", "0"}, {"SLURM_NODEID", "5"},  {"SLURM_STEP_TASKS_PER_NODE", "1(x2)"}};
    const Error nodes = bornErrorOf(detectLauncher(slurm));
    EXPECT_NE(nodes.message.find("SLURM_STEP_TASKS_PER_NODE='1(x2)' lists 2 nodes but SLURM_NODEID is 5"),
              std::string::npos)
        << nodes.message;
    expectBornInBothLanguages(nodes, {"Slurm", "SLURM_PROCID", "SLURM_STEP_ID", "SLURM_STEP_NUM_TASKS", "SLURM_LOCALID",
                                      "SLURM_NODEID", "SLURM_STEP_TASKS_PER_NODE", "1(x2)"});

    Environment badList = slurm;
    badList["SLURM_STEP_TASKS_PER_NODE"] = "two";
    const Error says = bornErrorOf(detectLauncher(badList));
    EXPECT_NE(says.message.find("SLURM_STEP_TASKS_PER_NODE: 'two' is not a Slurm tasks-per-node list"),
              std::string::npos)
        << says.message;
    expectBornInBothLanguages(says, {"Slurm", "SLURM_PROCID", "SLURM_STEP_ID", "SLURM_STEP_NUM_TASKS", "SLURM_LOCALID",
                                     "SLURM_NODEID", "SLURM_STEP_TASKS_PER_NODE", "two"});

    LaunchInfo l;
    l.rank = 3;
    l.size = 4;
    l.localRank = 3;
    const Error hidden = bornErrorOf(deviceForLocalRank(l, {{"CUDA_VISIBLE_DEVICES", "-1"}}, 4));
    EXPECT_EQ(hidden.message, "local rank 3 (rank 3 of 4) can see no GPU: CUDA_VISIBLE_DEVICES='-1' hides them all "
                              "(give each process one GPU, e.g. srun --gpus-per-task=1)");
    expectBornInBothLanguages(hidden, {"CUDA_VISIBLE_DEVICES", "--gpus-per-task"});

    const Error none = bornErrorOf(deviceForLocalRank(l, {}, 1));
    EXPECT_EQ(none.message, "local rank 3 (rank 3 of 4) has no GPU of its own: this node has 1 GPU and ShardLab runs "
                            "one process per GPU (start at most 1 processes on this node, e.g. mpirun --map-by "
                            "ppr:1:node, or srun --ntasks-per-node=1)");
    expectBornInBothLanguages(none, {"--map-by", "ppr:1:node", "--ntasks-per-node"});

    const Error listed = bornErrorOf(deviceForLocalRank(l, {{"CUDA_VISIBLE_DEVICES", "0,1"}}, 8));
    EXPECT_NE(listed.message.find("has no GPU of its own: CUDA_VISIBLE_DEVICES lists 2 GPUs and"), std::string::npos)
        << listed.message;
    expectBornInBothLanguages(listed, {"CUDA_VISIBLE_DEVICES", "--map-by", "ppr:2:node", "--ntasks-per-node"});
}

TEST(ErrorsBornCluster, TheSocketMeshOfShareGpu)
{
    const Error size = bornErrorOf(makeSocketMesh(65));
    EXPECT_EQ(size.message, "a socket mesh of 65 processes (1 to 64)");
    expectBornInBothLanguages(size);

    LaunchInfo l;
    l.launcher = Launcher::SharedGpu;
    l.rank = 1;
    l.size = 3;
    const Error unset = bornErrorOf(openSocketMeshTransport(l, {}));
    EXPECT_EQ(unset.message, "this process was started by ShardLab's --share-gpu launcher but SHARDLAB_SHARED_FDS is "
                             "not set: start the job with `shardlab live --share-gpu N`");
    expectBornInBothLanguages(unset, {"--share-gpu", "SHARDLAB_SHARED_FDS"});

    const Error dash = bornErrorOf(openSocketMeshTransport(l, {{kSharedFdsVariable, "-,5,6"}}));
    EXPECT_EQ(dash.message, "SHARDLAB_SHARED_FDS='-,5,6' has '-' at 0, not at this process's rank (rank 1 of 3)");
    expectBornInBothLanguages(dash, {"SHARDLAB_SHARED_FDS"});

    const Error word = bornErrorOf(openSocketMeshTransport(l, {{kSharedFdsVariable, "x,-,6"}}));
    EXPECT_EQ(word.message, "SHARDLAB_SHARED_FDS='x,-,6' has 'x' where a file descriptor belongs (rank 1 of 3)");
    expectBornInBothLanguages(word, {"SHARDLAB_SHARED_FDS"});

    const Error own = bornErrorOf(openSocketMeshTransport(l, {{kSharedFdsVariable, "0,1,2"}}));
    EXPECT_EQ(own.message, "SHARDLAB_SHARED_FDS='0,1,2' gives this process's own rank a descriptor (rank 1 of 3)");
    expectBornInBothLanguages(own, {"SHARDLAB_SHARED_FDS"});

    const Error closed = bornErrorOf(openSocketMeshTransport(l, {{kSharedFdsVariable, "999999,-,2"}}));
    EXPECT_EQ(closed.message,
              "SHARDLAB_SHARED_FDS='999999,-,2' names descriptor 999999, which this process does not have open (rank 1 "
              "of 3)");
    expectBornInBothLanguages(closed, {"SHARDLAB_SHARED_FDS"});

    const Error count = bornErrorOf(openSocketMeshTransport(l, {{kSharedFdsVariable, "2,-"}}));
    EXPECT_EQ(count.message, "SHARDLAB_SHARED_FDS='2,-' lists 2 ranks (rank 1 of 3)");
    expectBornInBothLanguages(count, {"SHARDLAB_SHARED_FDS"});

    auto mesh = makeSocketMesh(2);
    ASSERT_TRUE(mesh.ok()) << mesh.error().message;
    {
        auto zero = socketMeshTransport(0, mesh->fds[0]);
        const Error outside = bornErrorOf(zero->send(7, Tag::Part, {1}));
        EXPECT_EQ(outside.message, "rank 0 sent to rank 7, which is not in the job");
        expectBornInBothLanguages(outside);
        // rank 1's process ends without a word: its sockets close
        ::close(mesh->fds[1][0]);
        mesh->fds[1][0] = -1;
        const Error ended = bornErrorOf(zero->receive(1, Tag::Part, deadlineIn(10'000)));
        EXPECT_EQ(ended.message, "rank 1's process ended without a word (it crashed or was killed)");
        expectBornInBothLanguages(ended);
    }
    closeSocketMesh(*mesh);

    SharedGpuJob shared;
    shared.program = "/bin/true";
    shared.ranks = 0;
    const Error ranks = bornErrorOf(runSharedGpuJob(shared));
    expectBornInBothLanguages(ranks, {"--share-gpu"});
}

TEST(ErrorsBornCluster, AnInProcessJobAndItsExchanges)
{
    InProcessJob job(3);
    const Error outside = bornErrorOf(job.transport(0).send(3, Tag::Part, {}));
    EXPECT_EQ(outside.message, "rank 0 sent to rank 3, which is not in the job");
    expectBornInBothLanguages(outside);

    const Error fromRoot =
        bornErrorOf(broadcastBytes(job.transport(1), {}, 0, Tag::Decision, deadlineIn(50), "go/no-go"));
    EXPECT_NE(fromRoot.message.find(" for the go/no-go from rank 0 and got nothing (rank 0 died, hung or is stuck "
                                    "elsewhere)"),
              std::string::npos)
        << fromRoot.message;
    expectBornInBothLanguages(fromRoot);

    const Error silent = bornErrorOf(
        gatherBytes(job.transport(0), {}, 0, Tag::Part, deadlineIn(50), Message("error.exchange.topology_report")));
    EXPECT_NE(silent.message.find(" for the topology report of every rank; nothing came from ranks 1, 2 (died, hung or "
                                  "stuck elsewhere)"),
              std::string::npos)
        << silent.message;
    expectBornInBothLanguages(silent);

    const Error waited = bornErrorOf(measureClockOffsets(job.transport(2), processClockUs, 4, deadlineIn(50)));
    EXPECT_EQ(waited.message, "rank 2 waited for rank 0's clock exchange 1 of 4 and got nothing (rank 0 died, hung or "
                              "is stuck elsewhere)");
    expectBornInBothLanguages(waited);

    job.kill(1);
    const Error killed = bornErrorOf(job.transport(1).receive(0, Tag::Part, deadlineIn(50)));
    EXPECT_EQ(killed.message, "rank 1 was killed");
    expectBornInBothLanguages(killed);

    job.transport(2).abort(3);
    const Error aborted = bornErrorOf(job.transport(0).send(2, Tag::Part, {}));
    EXPECT_EQ(aborted.message, "the job was aborted by rank 2 (exit status 3)");
    expectBornInBothLanguages(aborted);
}

TEST(ErrorsBornCluster, ClocksHeartbeatsAndTopologyReports)
{
    const Error none = bornErrorOf(estimateOffset({}));
    EXPECT_EQ(none.message, "no clock exchange to estimate an offset from");
    expectBornInBothLanguages(none);

    const Error backwards = bornErrorOf(estimateOffset({PingSample{.sendUs = 10, .remoteUs = 0, .receiveUs = 5}}));
    EXPECT_EQ(
        backwards.message,
        "a clock exchange came back before it was sent (round trip -5.000000 us): rank 0's clock is not monotonic");
    expectBornInBothLanguages(backwards);

    const Error garbage = bornErrorOf(decodeHeartbeat(Bytes8{0xff, 0x00}));
    EXPECT_EQ(garbage.message.rfind("a heartbeat that cannot be read (", 0), 0u) << garbage.message;
    EXPECT_FALSE(garbage.what.empty());

    const nlohmann::json beat = {{"r", 1}, {"s", 99}, {"p", 0}, {"c", -1}, {"l", ""}, {"a", ""}, {"h", ""}, {"m", ""}};
    const Error state = bornErrorOf(decodeHeartbeat(nlohmann::json::to_cbor(beat)));
    EXPECT_EQ(state.message, "a heartbeat with an unknown state 99");
    expectBornInBothLanguages(state);

    const Error report =
        bornErrorOf(decodeTopologyReport(Bytes8{0xa0}, Message("error.live.setup_report_of").with("rank", 2)));
    EXPECT_EQ(report.message.rfind("rank 2's setup report: not a topology report (", 0), 0u) << report.message;
    EXPECT_FALSE(report.what.empty());

    const Error noGpu = bornErrorOf(combineTopology({}));
    EXPECT_EQ(noGpu.message, "no process reported its GPU");
    expectBornInBothLanguages(noGpu);
}

TEST(ErrorsBornCluster, AJobThatCannotStart)
{
    Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    ASSERT_GT(s.ranks(), 1);
    InProcessJob job(1);
    LiveHooks h;
    h.createUniqueId = [] { return Result<Bytes8>(Bytes8(128)); };
    h.visibleDevices = [] { return 1; };
    h.probe = [](int, const Environment&) { return RankTopologyReport{}; };
    JobOptions o;
    o.setupTimeoutMs = 10'000;
    const JobOutcome out = runLiveJob(job.transport(0), s, LaunchInfo{}, {}, h, o);
    EXPECT_EQ(out.exitStatus, kExitBadInput);
    ASSERT_FALSE(out.message.empty());
    const std::string ranks = std::to_string(s.ranks());
    EXPECT_EQ(english(out.message), "the scenario has " + ranks
                                        + " ranks but the launcher started 1 processes; ShardLab runs "
                                          "one process per GPU, so start "
                                        + ranks + " (mpirun -np " + ranks + ", srun --ntasks=" + ranks + ")");
    expectBornInBothLanguages(Error(ErrorKind::BadInput, out.message), {"-np", "--ntasks"});

    // the unique id of the wrong size
    s.topology = s.topology.firstGpus(1);
    for (auto& item : s.workload.items)
        item.shards.clear();
    s.program.clear();
    h.createUniqueId = [] { return Result<Bytes8>(Bytes8(64)); };
    const JobOutcome id = runLiveJob(job.transport(0), s, LaunchInfo{}, {}, h, o);
    EXPECT_EQ(english(id.message),
              "NCCL's unique id has 64 bytes (expected 128): the live executor and this program disagree");
    expectBornInBothLanguages(Error(ErrorKind::RunFailed, id.message));
}

TEST(ErrorsBornCluster, TheLivePlansRefusals)
{
    Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    const Error memory = bornErrorOf(planLive(s, {1ULL << 30}, 0, 0.8, true));
    EXPECT_EQ(memory.message,
              "live plan: free memory is known for 1 GPUs, the scenario has " + std::to_string(s.ranks()) + " ranks");
    expectBornInBothLanguages(memory);

    const std::vector<Bytes> free(static_cast<size_t>(s.ranks()), 1ULL << 30);
    const Error fraction = bornErrorOf(planLive(s, free, 0, 0.0, true));
    EXPECT_EQ(fraction.message, "live plan: the memory fraction must be in (0, 1]");
    expectBornInBothLanguages(fraction);

    const Error events = bornErrorOf(checkLiveEvents(s, true, 10));
    EXPECT_NE(events.message.find(" (or run it with --no-timeline, which keeps only the iteration times)"),
              std::string::npos)
        << events.message;
    EXPECT_FALSE(events.what.empty());

    const Message oom = allocationFailure(1, 1, Message("error.live.buffer.send"), 200'000'000'000ULL,
                                          14'200'000'000ULL, 16'000'000'000ULL);
    EXPECT_EQ(english(oom), allocationFailureMessage(1, 1, "its collective send buffer", 200'000'000'000ULL,
                                                     14'200'000'000ULL, 16'000'000'000ULL));
    EXPECT_EQ(english(oom), "rank 1: could not allocate 200 GB for its collective send buffer on GPU 1, which has "
                            "14.2 GB free of 16 GB (shorten the scenario's collectives, or let live mode scale them to "
                            "fit)");
    expectBornInBothLanguages(runFailed(oom));
}

TEST(ErrorsBornCluster, ATopologyThatCannotBeGathered)
{
    InProcessJob job(1);
    LiveHooks h;
    h.visibleDevices = [] { return 1; };
    h.probe = [](int, const Environment&) {
        RankTopologyReport r;
        r.host = "node-a";
        r.notes = {Message("error.piece.no_gpu_listed").with("file", "/proc/driver/nvidia/gpus"),
                   Message("error.piece.cuda_device_unlisted").with("device", 0)};
        return r;
    };
    const TopologyOutcome out = gatherTopology(job.transport(0), LaunchInfo{}, {}, h, 10'000);
    EXPECT_EQ(out.exitStatus, kExitRunFailed);
    EXPECT_EQ(english(out.message), "rank 0 (node-a): its GPU (device 0) cannot be identified: no NVIDIA GPU is "
                                    "listed in /proc/driver/nvidia/gpus (is the NVIDIA driver loaded?); CUDA does not "
                                    "list device 0");
    EXPECT_EQ(
        render(out.message, Language::Chinese),
        "Rank 0（node-a）：无法识别它的 GPU（设备 0）：/proc/driver/nvidia/gpus 中没有列出任何 NVIDIA GPU（NVIDIA "
        "驱动加载了吗？）；CUDA 没有列出设备 0");
    expectBornInBothLanguages(Error(ErrorKind::RunFailed, out.message), {"node-a", "/proc/driver/nvidia/gpus", "CUDA"});
}
