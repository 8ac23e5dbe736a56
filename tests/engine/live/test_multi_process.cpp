// The multi-process run (multi_process.h) end to end over an in-process job: setup agreement,
// unique id broadcast, clock alignment, the parts, the merge, and what each process prints.
// The "GPU work" is a simulated run split into rank parts on clocks with known offsets.
#include "../rank_parts.h"
#include "../test_helpers.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/cluster/clock_sync.h"
#include "shardlab/cluster/in_process_job.h"
#include "shardlab/cluster/socket_mesh.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_plan.h"
#include "shardlab/live/multi_process.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <sstream>
#include <thread>

using namespace shardlab;

namespace {

// What a process of the job printed, in English.
template <class Outcome> // JobOutcome, TopologyOutcome
std::string said(const Outcome& outcome)
{
    return english(outcome.message);
}

const std::vector<double> kOffsets = {0, 2.5e6, -7.75e5, 123.25};

Bytes8 fakeId()
{
    Bytes8 id(128);
    for (size_t i = 0; i < id.size(); ++i)
        id[i] = static_cast<std::uint8_t>(i * 7 + 3);
    return id;
}

struct Job {
    int size = 4;
    int ranksPerHost = 4;
    Scenario scenario;
    RunResult whole; // what the fake GPUs "measure"
    std::function<Environment(int)> env = [](int) { return Environment{}; };
    int visibleDevices = 4;
    // what a rank's part does; default: its slice of `whole`, reporting progress
    std::function<Result<RunResult>(int rank, InProcessJob&, RankProgress&)> part;
    JobOptions options;
    // >= 0: every executor's watchdog fires in this iteration, where rank 3 never reaches its
    // collectives (the default part hands over the iterations before it, then returns the hang)
    int hangAt = -1;
    std::shared_ptr<std::atomic<int>> idsSeen = std::make_shared<std::atomic<int>>(0);
    Launcher launcher = Launcher::OpenMpi;
    bool overSockets = false; // the socket mesh of `live --share-gpu` (socket_mesh.h) instead of mailboxes
    std::shared_ptr<std::atomic<int>> sharesSeen =
        std::make_shared<std::atomic<int>>(0); // parts told to share a GPU of `size`

    Job()
    {
        options.clockRounds = 8;
        options.setupTimeoutMs = 30'000;
        options.monitor.beatIntervalMs = 20;
        options.monitor.silenceMs = 1500;
    }

    std::vector<JobOutcome> run(std::vector<std::string>* failures = nullptr)
    {
        InProcessJob job(size, ranksPerHost);
        std::vector<std::unique_ptr<Transport>> sockets;
        if (overSockets) {
            auto mesh = makeSocketMesh(size);
            EXPECT_TRUE(mesh) << mesh.error().message;
            for (int r = 0; r < size && mesh; ++r)
                sockets.push_back(socketMeshTransport(r, mesh->fds[static_cast<size_t>(r)]));
        }
        auto transport = [&](int r) -> Transport& {
            return overSockets ? *sockets[static_cast<size_t>(r)] : job.transport(r);
        };
        // Every rank's part starts at the same moment of rank 0's clock, shown on its own clock.
        const double base = processClockUs();
        std::vector<JobOutcome> outcomes(static_cast<size_t>(size));
        std::mutex m;
        std::vector<std::thread> threads;
        for (int r = 0; r < size; ++r)
            threads.emplace_back([&, r] {
                LiveHooks h;
                h.createUniqueId = [] { return Result<Bytes8>(fakeId()); };
                h.visibleDevices = [this] { return visibleDevices; };
                h.probe = [r, this](int device, const Environment&) {
                    RankTopologyReport rep;
                    rep.host = "host" + std::to_string(r / ranksPerHost);
                    rep.device = device;
                    rep.gpuName = "G";
                    rep.busId = "0000:0" + std::to_string(device) + ":00.0";
                    rep.probe = "test";
                    return rep;
                };
                h.clockUs = [r] { return processClockUs() + kOffsets[static_cast<size_t>(r) % kOffsets.size()]; };
                h.runRankPart = [&, r](const Scenario&, int rank, int, const Bytes8& id, const LiveOptions& o,
                                       RankProgress& p) {
                    EXPECT_EQ(rank, r);
                    if (o.shareGpu == size)
                        ++*sharesSeen;
                    if (id == fakeId())
                        ++*idsSeen;
                    if (part)
                        return part(r, job, p);
                    RankPart rp = test::partOf(whole, r, base + kOffsets[static_cast<size_t>(r) % kOffsets.size()]);
                    const int n = static_cast<int>(whole.iterations.size());
                    if (o.iterationDone) { // streamed: handed over iteration by iteration, as the executor does
                        rp.run = test::firstIterations(rp.run, n);
                        for (int it = 0; it < (hangAt >= 0 ? hangAt : n); ++it)
                            if (!o.iterationDone(test::firstIterations(rp.run, it + 1), it + 1, n))
                                return Result<RunResult>(Error(ErrorKind::Cancelled, verbatim("live run cancelled")));
                    }
                    if (hangAt >= 0) {
                        RunResult hung = test::firstIterations(rp.run, hangAt + 1);
                        if (r == 3) { // never reached its collectives of that iteration
                            size_t keep = 0;
                            while (keep < hung.collectives.size() && hung.collectives[keep].iteration < hangAt)
                                ++keep;
                            hung.collectives.resize(keep);
                            std::erase_if(hung.spans,
                                          [&](const Span& sp) { return sp.collective >= static_cast<int>(keep); });
                        }
                        HangReport report;
                        report.lastCompleted.assign(4, -1);
                        report.pending.assign(4, "");
                        report.lastCompleted[static_cast<size_t>(r)] = static_cast<int>(hung.collectives.size()) - 1;
                        report.pending[static_cast<size_t>(r)] =
                            "in a collective of iteration " + std::to_string(hangAt);
                        report.explanation = "the watchdog aborted a collective after 10 s";
                        hung.hang = report;
                        return Result<RunResult>(hung);
                    }
                    int ordinal = 0;
                    for (const CollectiveRecord& c : rp.run.collectives)
                        p.collectiveCompleted(
                            ordinal++, verbatim(std::string(opName(c.kind)) + " #" + std::to_string(c.sequence)));
                    // what the "GPU" took: the run's length, so that rank 0's clock has moved on too
                    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long>(whole.endUs())));
                    return Result<RunResult>(rp.run);
                };
                JobOptions o = options;
                o.onFailure = [&, r](const Message& failure) {
                    const std::string msg = english(failure);
                    {
                        std::lock_guard lock(m);
                        if (failures)
                            failures->push_back(msg);
                    }
                    if (!overSockets) // (the socket mesh's abort ends the process, as MPI_Abort does)
                        job.transport(r).abort(3);
                };
                LaunchInfo launch;
                launch.launcher = launcher;
                launch.rank = r;
                launch.size = size;
                launch.localRank = r % ranksPerHost;
                launch.localSize = ranksPerHost;
                outcomes[static_cast<size_t>(r)] = runLiveJob(transport(r), scenario, launch, env(r), h, o);
            });
        for (auto& t : threads)
            t.join();
        return outcomes;
    }
};

Job stragglerJob()
{
    Job j;
    j.scenario = test::loadExample("straggler-12-6-4-2.shardlab.json");
    j.scenario.iterations = 2;
    auto sim = simulate(j.scenario);
    EXPECT_TRUE(sim.ok());
    j.whole = *sim;
    j.whole.mode = RunMode::Live;
    return j;
}

} // namespace

TEST(MultiProcess, FourProcessesGiveTheSameRunAsOne)
{
    Job j = stragglerJob();
    j.ranksPerHost = 2; // two pretend hosts
    const auto out = j.run();
    EXPECT_EQ(j.idsSeen->load(), 4); // every process got rank 0's unique id, byte for byte
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 0)
            << "rank " << r << ": " << said(out[static_cast<size_t>(r)]);
        EXPECT_TRUE(out[static_cast<size_t>(r)].message.empty()) << said(out[static_cast<size_t>(r)]);
    }
    for (int r = 1; r < 4; ++r)
        EXPECT_FALSE(out[static_cast<size_t>(r)].run.has_value());
    ASSERT_TRUE(out[0].run.has_value());
    const RunResult& merged = *out[0].run;
    EXPECT_EQ(merged.mode, RunMode::Live);
    EXPECT_NE(english(merged.clockNote)
                  .find("clocks of 4 processes aligned to rank 0's by 8 ping-pongs each over in-process"),
              std::string::npos)
        << english(merged.clockNote);
    // The measured offsets were removed: the figures are those of the original run, within the
    // clock error (which on this test's threads is far below the run's milliseconds).
    const Summary a = summarize(j.scenario, j.whole), b = summarize(j.scenario, merged);
    EXPECT_NEAR(a.stepTimeMs, b.stepTimeMs, 0.05 * a.stepTimeMs);
    EXPECT_EQ(a.straggler, b.straggler);
    EXPECT_EQ(a.bottleneck, b.bottleneck);
    ASSERT_EQ(a.perRank.size(), b.perRank.size());
    for (size_t r = 0; r < a.perRank.size(); ++r)
        EXPECT_NEAR(a.perRank[r].waitMs, b.perRank[r].waitMs, 0.05 * a.stepTimeMs) << "rank " << r;
    EXPECT_EQ(merged.collectives.size(), j.whole.collectives.size());
    ASSERT_EQ(out[0].placement.size(), 4u);
    EXPECT_EQ(out[0].placement[3].host, "host1");
    ASSERT_TRUE(out[0].machine.has_value());
    EXPECT_EQ(out[0].machine->nodeCount(), 2);
}

TEST(MultiProcess, WrongProcessCountIsReportedOnceByRankZero)
{
    Job j = stragglerJob();
    j.size = 3;
    j.ranksPerHost = 3;
    const auto out = j.run();
    EXPECT_EQ(out[0].exitStatus, 2);
    EXPECT_NE(said(out[0]).find("the scenario has 4 ranks but the launcher started 3 processes"), std::string::npos)
        << said(out[0]);
    EXPECT_NE(said(out[0]).find("mpirun -np 4"), std::string::npos);
    for (int r = 1; r < 3; ++r) {
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 2);
        EXPECT_TRUE(out[static_cast<size_t>(r)].message.empty());
    }
    EXPECT_EQ(j.idsSeen->load(), 0);
}

// Issue 14: rank 0 holds the merged timeline, so a job that would record more than a run may hold
// is refused at setup, before any NCCL id is made; without the timeline it is not.
TEST(MultiProcess, AJobTooLargeToHoldIsRefusedAtSetup)
{
    Job j = stragglerJob();
    j.scenario.program[0].buckets = 100000;
    j.scenario.iterations = 100000;
    auto out = j.run();
    EXPECT_EQ(out[0].exitStatus, 2);
    EXPECT_NE(said(out[0]).find("this run would record up to "), std::string::npos) << said(out[0]);
    EXPECT_NE(said(out[0]).find("--no-timeline"), std::string::npos) << said(out[0]);
    for (int r = 1; r < 4; ++r)
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 2);
    EXPECT_EQ(j.idsSeen->load(), 0);
    // the check itself, without the timeline
    EXPECT_TRUE(checkLiveEvents(j.scenario, false).ok());
}

TEST(MultiProcess, RanksWithoutAGpuAreNamed)
{
    Job j = stragglerJob();
    j.visibleDevices = 2; // four processes on a host with two GPUs
    const auto out = j.run();
    EXPECT_EQ(out[0].exitStatus, 2);
    // (a rank without a GPU reports this machine's host name: the probe is for GPUs)
    EXPECT_NE(said(out[0]).find("rank 2 (" + hostName() + "): local rank 2 (rank 2 of 4) has no GPU of its own"),
              std::string::npos)
        << said(out[0]);
    EXPECT_NE(said(out[0]).find("rank 3 (" + hostName() + ")"), std::string::npos);
    EXPECT_EQ(said(out[0]).rfind("the job cannot start (2 problems):\n  rank 2", 0), 0u) << said(out[0]);
    EXPECT_TRUE(out[3].message.empty());
    EXPECT_EQ(out[3].exitStatus, 2);
}

TEST(MultiProcess, TwoRanksOnOneGpuAreRefused)
{
    Job j = stragglerJob();
    j.env = [](int) { return Environment{{"CUDA_VISIBLE_DEVICES", "0"}}; }; // the same GPU for everyone
    const auto out = j.run();
    EXPECT_EQ(out[0].exitStatus, 2);
    EXPECT_NE(said(out[0]).find("ranks 0 and 1 on host0 both took GPU 0000:00:00.0"), std::string::npos)
        << said(out[0]);
}

// `shardlab live --share-gpu 4`: four processes on one GPU on purpose, over the socket mesh its
// launcher makes. The run is the same; it is marked, and every rank planned with a quarter of the GPU.
TEST(MultiProcess, RanksStartedToShareOneGpuRunAndTheRunSaysSo)
{
    Job j = stragglerJob();
    j.env = [](int) { return Environment{{"CUDA_VISIBLE_DEVICES", "0"}}; };
    j.launcher = Launcher::SharedGpu;
    j.overSockets = true;
    const auto out = j.run();
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 0)
            << "rank " << r << ": " << said(out[static_cast<size_t>(r)]);
    ASSERT_TRUE(out[0].run.has_value());
    EXPECT_EQ(out[0].run->sharedGpu, 4);
    ASSERT_FALSE(out[0].run->notes.empty());
    EXPECT_EQ(english(out[0].run->notes.front()),
              "4 ranks shared one GPU: results and waits are real, times are not those of 4 GPUs");
    EXPECT_EQ(j.sharesSeen->load(), 4);
    EXPECT_NE(english(out[0].run->clockNote).find("over local sockets between 4 processes"), std::string::npos)
        << english(out[0].run->clockNote);
    EXPECT_EQ(out[0].run->collectives.size(), j.whole.collectives.size());
    // the same run without --share-gpu is not marked
    Job plain = stragglerJob();
    const auto alone = plain.run();
    ASSERT_TRUE(alone[0].run.has_value());
    EXPECT_EQ(alone[0].run->sharedGpu, 0);
    EXPECT_EQ(plain.sharesSeen->load(), 0);
}

TEST(MultiProcess, SharingOneGpuNeedsAsManyProcessesAsTheScenarioHasRanks)
{
    Job j = stragglerJob();
    j.size = 2;
    j.ranksPerHost = 2;
    j.launcher = Launcher::SharedGpu;
    const auto out = j.run();
    EXPECT_EQ(out[0].exitStatus, 2);
    EXPECT_NE(said(out[0]).find("the scenario has 4 ranks but --share-gpu 2 started 2 processes: use --share-gpu 4"),
              std::string::npos)
        << said(out[0]);
}

TEST(MultiProcess, WithoutLiveModeOrAGpuTheJobExplainsOnce)
{
    // The real hooks: a build without live mode, or one where no GPU can be used (the build
    // machine), explains once, from rank 0. With GPUs this would be a real run: the GPU tests do that.
    std::string why = "live mode is not built into this ShardLab";
    if (liveBuiltIn()) {
        auto devices = liveDevices();
        if (devices && !devices->empty())
            GTEST_SKIP() << "GPUs are visible: the real hooks would run (tests/gpu and the mpi label cover it)";
        why = devices ? "no CUDA GPU" : devices.error().message.substr(0, 40);
    }
    Job j = stragglerJob();
    // the real hooks' unique id: this build has no live mode
    InProcessJob job(2);
    std::vector<JobOutcome> out(2);
    std::vector<std::thread> threads;
    j.scenario.topology = j.scenario.topology.firstGpus(2);
    for (auto& item : j.scenario.workload.items)
        item.shards.clear();
    j.scenario.program.clear();
    for (int r = 0; r < 2; ++r)
        threads.emplace_back([&, r] {
            LiveHooks h = liveHooks();
            h.probe = [](int, const Environment&) { return RankTopologyReport{}; };
            LaunchInfo l;
            l.rank = r;
            l.size = 2;
            l.localRank = r;
            l.localSize = 2;
            out[static_cast<size_t>(r)] = runLiveJob(job.transport(r), j.scenario, l, {}, h, j.options);
        });
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(out[0].exitStatus, 2);
    EXPECT_NE(said(out[0]).find(why), std::string::npos) << said(out[0]);
    EXPECT_EQ(out[1].exitStatus, 2);
    EXPECT_TRUE(out[1].message.empty());
}

TEST(MultiProcess, ARankThatDiesMidRunEndsTheJobWithItsLastCollective)
{
    Job j = stragglerJob();
    j.options.monitor.silenceMs = 500;
    j.part = [&](int r, InProcessJob& job, RankProgress& p) -> Result<RunResult> {
        p.collectiveCompleted(0, verbatim("all_reduce 'grads' (step 1, iteration 0)"));
        if (r == 2) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            job.kill(2); // the process is gone
            return runFailed(verbatim("killed"));
        }
        p.collectiveCompleted(1, verbatim("all_reduce 'grads' (step 1, iteration 1)"));
        return test::partOf(j.whole, r, processClockUs()).run;
    };
    std::vector<std::string> failures;
    const auto start = std::chrono::steady_clock::now();
    const auto out = j.run(&failures);
    const double tookMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(tookMs, 10'000);
    EXPECT_EQ(out[0].exitStatus, 3);
    EXPECT_NE(said(out[0]).find("rank 0 (host0): rank 2 (host0) stopped responding"), std::string::npos)
        << said(out[0]);
    EXPECT_NE(said(out[0]).find("its last completed collective was #0 all_reduce 'grads' (step 1, iteration 0)"),
              std::string::npos)
        << said(out[0]);
    // rank 0's monitor reported it (the dead process's own thread also saw its transport go, as a
    // dead process would not: the in-process job keeps its thread)
    EXPECT_NE(std::find(failures.begin(), failures.end(), said(out[0])), failures.end());
    for (const JobOutcome& o : out)
        EXPECT_EQ(o.exitStatus, 3);
}

TEST(MultiProcess, ARankThatFailsIsNamedWithItsError)
{
    Job j = stragglerJob();
    j.part = [&](int r, InProcessJob&, RankProgress&) -> Result<RunResult> {
        if (r == 1)
            return runFailed(verbatim("cudaMalloc of 12 GB failed: out of memory"));
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        return test::partOf(j.whole, r, processClockUs()).run;
    };
    const auto out = j.run();
    EXPECT_EQ(out[0].exitStatus, 3);
    EXPECT_NE(said(out[0]).find("rank 1 (host0)"), std::string::npos) << said(out[0]);
    EXPECT_NE(said(out[0]).find("cudaMalloc of 12 GB failed: out of memory"), std::string::npos) << said(out[0]);
}

TEST(MultiProcess, TopologyAcrossProcesses)
{
    InProcessJob job(4, 2);
    std::vector<TopologyOutcome> out(4);
    std::vector<std::thread> threads;
    for (int r = 0; r < 4; ++r)
        threads.emplace_back([&, r] {
            LiveHooks h;
            h.visibleDevices = [] { return 2; };
            h.probe = [r](int device, const Environment&) {
                RankTopologyReport rep;
                rep.host = r < 2 ? "a" : "b";
                rep.device = device;
                rep.gpuName = r == 3 ? "" : "G"; // rank 3's GPU cannot be identified
                rep.busId = r == 3 ? "" : "0000:0" + std::to_string(device) + ":00.0";
                if (r == 3)
                    rep.notes = {verbatim("no NVIDIA GPU is listed")};
                rep.nics = {{"ib0", "infiniband", 25, 0}};
                return rep;
            };
            LaunchInfo l;
            l.rank = r;
            l.size = 4;
            l.localRank = r % 2;
            l.localSize = 2;
            out[static_cast<size_t>(r)] = gatherTopology(job.transport(r), l, {}, h, 20'000);
        });
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(out[0].exitStatus, 3);
    EXPECT_NE(said(out[0]).find("rank 3 (b): its GPU (device 1) cannot be identified: no NVIDIA GPU is listed"),
              std::string::npos)
        << said(out[0]);
    EXPECT_EQ(out[3].exitStatus, 3);
    EXPECT_TRUE(out[3].message.empty());
}

TEST(MultiProcess, AHangIsMergedAndEveryProcessExitsWithThree)
{
    // Rank 3 never reaches collective #1 (a deliberate mismatch); every executor's watchdog
    // fired and each returned its view of the hang.
    Job j = stragglerJob();
    j.part = [&](int r, InProcessJob&, RankProgress&) -> Result<RunResult> {
        RunResult part = test::partOf(j.whole, r, processClockUs()).run;
        part.collectives.resize(r == 3 ? 1 : 2);
        std::erase_if(part.spans,
                      [&](const Span& sp) { return sp.collective >= static_cast<int>(part.collectives.size()); });
        HangReport h;
        h.lastCompleted.assign(4, -1);
        h.pending.assign(4, "");
        h.lastCompleted[static_cast<size_t>(r)] = r == 3 ? 0 : 1;
        h.pending[static_cast<size_t>(r)] =
            r == 3 ? "in all_gather (step 3, iteration 0)" : "in all_reduce (step 3, iteration 0)";
        h.explanation = "the watchdog aborted a collective after 10 s";
        part.hang = h;
        return part;
    };
    const auto out = j.run();
    ASSERT_TRUE(out[0].run.has_value()) << said(out[0]);
    ASSERT_TRUE(out[0].run->hang.has_value());
    EXPECT_EQ(out[0].run->hang->lastCompleted, (std::vector<int>{1, 1, 1, 0}));
    EXPECT_EQ(out[0].run->hang->firstMismatchRank, 3);
    EXPECT_NE(out[0].run->hang->explanation.find("rank 3 is behind"), std::string::npos);
    for (const JobOutcome& o : out)
        EXPECT_EQ(o.exitStatus, 3);
}

TEST(MultiProcess, NoRankClosesItsCommunicatorBeforeEveryRankHasEnded)
{
    // Over sockets, a process that destroys its NCCL communicator while a peer is still inside a
    // collective makes NCCL fail that peer at once, hiding the hang its watchdog would explain
    // (the first GPU run of --share-gpu, 2026-12-05). So an executor calls programEnded() before
    // its teardown, and it returns only once every rank's program has ended: here rank 3 ends
    // last, 300 ms after the others.
    Job j = stragglerJob();
    j.overSockets = true;
    std::atomic<bool> lastEnded{false};
    std::vector<std::atomic<int>> saw(4);
    for (auto& v : saw)
        v = -1;
    j.part = [&](int r, InProcessJob&, RankProgress& p) -> Result<RunResult> {
        if (r == 3) {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            lastEnded = true;
        }
        p.programEnded();
        saw[static_cast<size_t>(r)] = lastEnded.load();
        return test::partOf(j.whole, r, processClockUs()).run;
    };
    const auto out = j.run();
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(saw[static_cast<size_t>(r)].load(), 1) << "rank " << r << " went on before rank 3 had ended";
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 0) << said(out[static_cast<size_t>(r)]);
    }
}

TEST(MultiProcess, AUniqueIdOfTheWrongSizeIsRefused)
{
    Job j = stragglerJob();
    InProcessJob job(1);
    LiveHooks h;
    h.createUniqueId = [] { return Result<Bytes8>(Bytes8(64)); };
    h.visibleDevices = [] { return 1; };
    h.probe = [](int, const Environment&) { return RankTopologyReport{}; };
    j.scenario.topology = j.scenario.topology.firstGpus(1);
    for (auto& item : j.scenario.workload.items)
        item.shards.clear();
    j.scenario.program.clear();
    LaunchInfo l;
    const JobOutcome o = runLiveJob(job.transport(0), j.scenario, l, {}, h, j.options);
    EXPECT_EQ(o.exitStatus, 3);
    EXPECT_NE(said(o).find("unique id has 64 bytes (expected 128)"), std::string::npos) << said(o);
}

TEST(MultiProcess, AFileMissingOnSomeNodesIsReportedOnceWithTheirRanks)
{
    Job j = stragglerJob();
    InProcessJob job(4);
    std::vector<JobOutcome> out(4);
    std::vector<std::thread> threads;
    for (int r = 0; r < 4; ++r)
        threads.emplace_back([&, r] {
            LiveHooks h;
            h.createUniqueId = [] { return Result<Bytes8>(fakeId()); };
            h.visibleDevices = [] { return 4; };
            h.probe = [](int device, const Environment&) {
                RankTopologyReport rep;
                rep.busId = "0000:0" + std::to_string(device) + ":00.0";
                return rep;
            };
            JobOptions o = j.options;
            if (r >= 2) // the file is not on the second node
                o.localProblem = badInput(verbatim("/data/step.shardlab.json: no such file"));
            LaunchInfo l;
            l.rank = r;
            l.size = 4;
            l.localRank = r;
            l.localSize = 4;
            out[static_cast<size_t>(r)] = runLiveJob(job.transport(r), j.scenario, l, {}, h, o);
        });
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(out[0].exitStatus, 2);
    const std::string host = hostName();
    EXPECT_EQ(said(out[0]), "rank 2 (" + host + "), rank 3 (" + host + "): /data/step.shardlab.json: no such file")
        << said(out[0]);
    EXPECT_TRUE(out[2].message.empty());
    EXPECT_EQ(out[2].exitStatus, 2);
}

namespace {

// Rank 0 of a streamed job writing the run stream, as `shardlab live --stream` under a launcher does.
struct StreamedJob {
    std::mutex m;
    std::ostringstream out;
    RunStreamWriter writer{out};
    std::vector<int> done;
    bool readerLeaves = false;

    void attach(Job& j)
    {
        j.options.stream = true;
        j.options.started = [this, scenario = j.scenario](const std::optional<Topology>& machine,
                                                          const std::vector<RankTopologyReport>& placement) {
            std::lock_guard lock(m);
            StreamHeader h;
            h.mode = RunMode::Live;
            h.scenario = scenario;
            h.machine = machine;
            h.launch = "in-process test, " + std::to_string(placement.size()) + " processes";
            writer.header(h);
        };
        j.options.chunk = [this](const RunResult& soFar, int d, int total) {
            std::lock_guard lock(m);
            done.push_back(d);
            EXPECT_EQ(total, 3);
            return !readerLeaves && writer.chunk(soFar, d, total);
        };
    }
};

Job streamedStragglerJob()
{
    Job j;
    j.scenario = test::loadExample("straggler-12-6-4-2.shardlab.json");
    j.scenario.iterations = 3;
    j.whole = test::simulated(j.scenario);
    j.whole.mode = RunMode::Live;
    j.ranksPerHost = 2;
    return j;
}

} // namespace

TEST(MultiProcess, AStreamedJobIsReadBackAsTheMergedRun)
{
    Job j = streamedStragglerJob();
    StreamedJob stream;
    stream.attach(j);
    const auto out = j.run();
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 0)
            << "rank " << r << ": " << said(out[static_cast<size_t>(r)]);
    ASSERT_TRUE(out[0].run.has_value());
    const RunResult& merged = *out[0].run;
    // one chunk per iteration, during the run (before runLiveJob returned), then the result adds none
    EXPECT_EQ(stream.done, (std::vector<int>{1, 2, 3}));
    ASSERT_TRUE(stream.writer.result(merged));
    int chunks = 0;
    std::istringstream lines(stream.out.str());
    for (std::string line; std::getline(lines, line);)
        chunks += line.find("\"type\":\"chunk\"") != std::string::npos ? 1 : 0;
    EXPECT_EQ(chunks, 3);
    StreamHeader header;
    auto read = readRunStream(stream.out.str(), "<stream>", &header);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(serializeRunResult(*read), serializeRunResult(merged)); // to the last bit
    EXPECT_EQ(english(read->notes), english(merged.notes));
    // the header came before the run with the job's machine (two pretend hosts), which the
    // writer sends where it is a valid topology (these pretend GPUs have no specifications)
    ASSERT_TRUE(out[0].machine.has_value());
    EXPECT_EQ(out[0].machine->nodeCount(), 2);
    EXPECT_EQ(header.machine.has_value(), validateTopology(*out[0].machine).ok());
    EXPECT_EQ(header.launch, "in-process test, 4 processes");
    EXPECT_NE(english(merged.clockNote).find("held through it"), std::string::npos) << english(merged.clockNote);
    // and it is the run that was measured
    const Summary a = summarize(j.scenario, j.whole), b = summarize(j.scenario, *read);
    EXPECT_NEAR(a.stepTimeMs, b.stepTimeMs, 0.05 * a.stepTimeMs);
    EXPECT_EQ(a.straggler, b.straggler);
    EXPECT_EQ(read->collectives.size(), j.whole.collectives.size());
}

TEST(MultiProcess, AStreamedJobEndsWhenItsReaderLeaves)
{
    Job j = streamedStragglerJob();
    StreamedJob stream;
    stream.readerLeaves = true;
    stream.attach(j);
    std::vector<std::string> failures;
    const auto out = j.run(&failures);
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 3) << "rank " << r;
    ASSERT_FALSE(failures.empty());
    EXPECT_NE(failures.front().find("the reader of the stream went away"), std::string::npos) << failures.front();
    EXPECT_EQ(stream.done, (std::vector<int>{1})); // nothing merged after it left
}

TEST(MultiProcess, AStreamedJobThatHangsSendsWhatCompletedThenTheHangReport)
{
    // Iteration 0 completes everywhere and is streamed during the run; in iteration 1 rank 3 never
    // arrives and every watchdog fires: the result brings the rest of the run and the hang report.
    Job j = streamedStragglerJob();
    j.hangAt = 1;
    StreamedJob stream;
    stream.attach(j);
    const auto out = j.run();
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 3) << "rank " << r;
    ASSERT_TRUE(out[0].run.has_value()) << said(out[0]);
    ASSERT_TRUE(out[0].run->hang.has_value());
    EXPECT_EQ(out[0].run->hang->firstMismatchRank, 3);
    EXPECT_EQ(stream.done, (std::vector<int>{1})); // the iteration that completed, during the run
    ASSERT_TRUE(stream.writer.result(*out[0].run));
    auto read = readRunStream(stream.out.str(), "<stream>");
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(serializeRunResult(*read), serializeRunResult(*out[0].run));
    ASSERT_TRUE(read->hang.has_value());
    EXPECT_NE(read->hang->explanation.find("rank 3 is behind"), std::string::npos) << read->hang->explanation;
}
