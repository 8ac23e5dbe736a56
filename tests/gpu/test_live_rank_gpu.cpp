// A multi-process live run on real GPUs without MPI (CTest label `gpu`): each rank of the job
// runs in a thread of its own over an InProcessJob, through the real live hooks (live_rank.h ->
// libshardlab_live.so: the executor bound to one rank, its own NCCL communicator from the broadcast
// unique id). The whole sequence of multi_process.h runs as under mpirun, so the merged result
// must match a single-process run of the same scenario. (Under mpirun itself: bench/mpi_device.sh.)
#include "shardlab/analysis/summary.h"
#include "shardlab/cluster/in_process_job.h"
#include "gpu_test_helpers.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_rank.h"
#include "shardlab/live/multi_process.h"
#include "shardlab/sim/topo_matrix.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <thread>

using namespace shardlab;

namespace {

// n ranks on one NVSwitch; rank n-1 computes 2.5x as long; a bucketed overlapped all-reduce (the
// communication stream) and a plain one (the compute stream); with 3+ ranks a sub-group too.
Scenario jobScenario(int n, int iterations)
{
    Scenario s = test::nvSwitchScenario(n, 32 << 20, "rank parts on GPUs");
    Op compute;
    compute.kind = OpKind::Compute;
    compute.name = "backward";
    compute.item = "data";
    compute.flops = 8e-3 * 10e12 * n; // 8 ms per rank at 10 TFLOP/s
    compute.buckets = 2;
    Op bucketed;
    bucketed.kind = OpKind::AllReduce;
    bucketed.name = "gradient all-reduce";
    bucketed.item = "grads";
    bucketed.buckets = 2;
    bucketed.overlap = true;
    Op loss;
    loss.kind = OpKind::AllReduce;
    loss.name = "loss all-reduce";
    loss.bytes = 4 << 20;
    s.program = {compute, bucketed, loss};
    if (n >= 3) {
        Op sub;
        sub.kind = OpKind::AllGather;
        sub.name = "sub-group all-gather";
        sub.bytes = 3 << 20;
        for (int r = 1; r < n; ++r)
            sub.group.push_back(r);
        s.program.push_back(sub);
    }
    s.perturbations.slowdown.assign(static_cast<size_t>(n), 1.0);
    s.perturbations.slowdown[static_cast<size_t>(n - 1)] = 2.5;
    s.iterations = iterations;
    return s;
}

// Every rank of the job in a thread of its own, through the real hooks.
std::vector<JobOutcome> runAsJob(const Scenario& s, double watchdogMs)
{
    const int n = s.ranks();
    InProcessJob job(n);
    std::vector<JobOutcome> out(static_cast<size_t>(n));
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
        threads.emplace_back([&, r] {
            LaunchInfo l;
            l.rank = r;
            l.size = n;
            l.localRank = r;
            l.localSize = n;
            JobOptions o;
            o.live.watchdogMs = watchdogMs;
            out[static_cast<size_t>(r)] = runLiveJob(job.transport(r), s, l, {}, liveHooks(), o);
        });
    for (std::thread& t : threads)
        t.join();
    return out;
}

} // namespace

TEST(LiveRankGpu, EachRankInItsOwnThreadMatchesTheSingleProcessRun)
{
    REQUIRE_GPUS(2);
    const Scenario s = jobScenario(test::liveGpuCount(), 3);
    auto single = runLive(s);
    ASSERT_TRUE(single.ok()) << single.error().message;
    const auto out = runAsJob(s, 10000);
    for (int r = 0; r < s.ranks(); ++r)
        EXPECT_EQ(out[static_cast<size_t>(r)].exitStatus, 0)
            << "rank " << r << ": " << english(out[static_cast<size_t>(r)].message);
    ASSERT_TRUE(out[0].run.has_value()) << english(out[0].message);
    const RunResult& merged = *out[0].run;
    EXPECT_EQ(merged.mode, RunMode::Live);
    EXPECT_FALSE(merged.hang.has_value());
    ASSERT_EQ(merged.collectives.size(), single->collectives.size());
    for (const CollectiveRecord& c : merged.collectives)
        EXPECT_EQ(c.wrongElements, 0) << opName(c.kind) << " at step " << c.op;
    ASSERT_EQ(merged.devices.size(), static_cast<size_t>(s.ranks()));
    for (const std::string& d : merged.devices)
        EXPECT_FALSE(d.empty());
    // The straggler and the others' wait, as in one process.
    const Summary one = summarize(s, *single), many = summarize(s, merged);
    ASSERT_TRUE(many.straggler.has_value());
    EXPECT_EQ(*many.straggler, s.ranks() - 1);
    EXPECT_NEAR(many.stepTimeMs, one.stepTimeMs, 0.05 * one.stepTimeMs) << "step time, ms";
    for (const CollectiveRecord& c : merged.collectives) {
        if (c.op == 1) { // the bucketed all-reduce: each bucket waits for the slow rank's backward slice
            EXPECT_EQ(c.lastArrival, s.ranks() - 1);
        }
    }
    std::cout << "single process: step " << one.stepTimeMs << " ms; one thread per rank: step " << many.stepTimeMs
              << " ms\n"
              << "clocks: " << english(merged.clockNote) << "\n";
    EXPECT_NE(english(merged.clockNote).find("GPU timer within"), std::string::npos) << english(merged.clockNote);
    // Who ran where, from NVML, and the combined topology.
    ASSERT_EQ(out[0].placement.size(), static_cast<size_t>(s.ranks()));
    for (const RankTopologyReport& p : out[0].placement) {
        EXPECT_NE(p.probe.find("NVML"), std::string::npos) << p.probe << ": " << english(probeNotes(p.notes));
        EXPECT_FALSE(p.busId.empty());
        EXPECT_GT(p.gpuMemory, 0u);
    }
    std::cout << formatPlacement(out[0].placement);
    ASSERT_TRUE(out[0].machine.has_value());
    std::cout << topoMatrixText(*out[0].machine, Language::English);
}

TEST(LiveRankGpu, AMismatchHangsEveryPartAndRankZeroReportsIt)
{
    REQUIRE_GPUS(2);
    const int n = test::liveGpuCount();
    Scenario s = jobScenario(n, 2);
    s.perturbations.slowdown.assign(static_cast<size_t>(n), 1.0);
    Mismatch m;
    m.type = Mismatch::Type::Skip;
    m.rank = 1;
    m.op = 2; // rank 1 skips the loss all-reduce in iteration 1
    m.iteration = 1;
    s.perturbations.mismatches.push_back(m);
    const auto t0 = std::chrono::steady_clock::now();
    const auto out = runAsJob(s, 1500);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(out[0].exitStatus, 3) << english(out[0].message);
    ASSERT_TRUE(out[0].run.has_value()) << english(out[0].message);
    ASSERT_TRUE(out[0].run->hang.has_value());
    const HangReport& h = *out[0].run->hang;
    std::cout << "hang after " << seconds << " s: " << h.explanation << "\n";
    ASSERT_EQ(h.lastCompleted.size(), static_cast<size_t>(n));
    // Iteration 0: 2 buckets + the loss all-reduce (#0..#2); iteration 1: 2 buckets (#3, #4), then
    // rank 1 skips the loss all-reduce that rank 0 waits in.
    EXPECT_EQ(h.lastCompleted[0], 4);
    EXPECT_FALSE(h.pending[0].empty());
    EXPECT_LT(seconds, 1.5 + 15) << "set-up, the watchdog's 1.5 s, clocks and the merge";
    // The threads' processes stay usable: a normal job runs next.
    const auto again = runAsJob(jobScenario(n, 1), 10000);
    EXPECT_EQ(again[0].exitStatus, 0) << english(again[0].message);
}
