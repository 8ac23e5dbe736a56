// Live engine on real GPUs (CTest label `gpu`). Every test skips with a message where live mode
// cannot run (no GPU, no driver, library missing). Run on the device machine by bench/live_device.sh.
#include "cli.h"
#include "shardlab/analysis/summary.h"
#include "gpu_test_helpers.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_gemm.h"
#include "shardlab/live/machine_topology.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/sim/topo_matrix.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <sstream>

using namespace shardlab;

namespace {

// n ranks of the scenario's H200-like GPUs on one NVSwitch: "data" split evenly, "grads" replicated.
Scenario scenario(int n, double computeMsPerRank, Bytes gradBytes)
{
    Scenario s = test::nvSwitchScenario(n, gradBytes, "gpu test");
    Op compute;
    compute.kind = OpKind::Compute;
    compute.name = "compute";
    compute.item = "data";
    // each rank owns 1/n of the data: flops so that its share takes computeMsPerRank at 10 TFLOP/s
    compute.flops = computeMsPerRank * 1e-3 * 10e12 * n;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "all-reduce";
    ar.item = "grads";
    s.program = {compute, ar};
    s.iterations = 2;
    return s;
}

const std::vector<OpKind> kAllCollectives = {OpKind::AllReduce,
                                             OpKind::Reduce,
                                             OpKind::Broadcast,
                                             OpKind::AllGather,
                                             OpKind::AllGatherV,
                                             OpKind::ReduceScatter,
                                             OpKind::ReduceScatterAllGather,
                                             OpKind::SendRecv};

std::vector<int> rankCounts()
{
    std::vector<int> counts = {1, 2, test::liveGpuCount()};
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    std::erase_if(counts, [](int n) { return n > test::liveGpuCount() || n < 1; });
    return counts;
}

} // namespace

TEST(LiveGpu, DevicesAndTopology)
{
    REQUIRE_GPUS(1);
    auto devices = liveDevices();
    ASSERT_TRUE(devices.ok());
    for (const LiveDevice& d : *devices) {
        EXPECT_GT(d.memory, 0u);
        EXPECT_GE(d.computeMajor, 7);
        EXPECT_FALSE(d.pciBusId.empty());
    }
    auto topo = discoverTopology();
    ASSERT_TRUE(topo.ok()) << topo.error().message;
    EXPECT_EQ(topo->rankCount(), test::liveGpuCount());
    EXPECT_TRUE(validateTopology(*topo).ok());
    std::cout << topoMatrixText(*topo, Language::English) << shardlab::cli::formatDetectedDevices(*devices);
}

TEST(LiveGpu, ClockAlignmentWithinFiveMicroseconds)
{
    REQUIRE_GPUS(1);
    for (int d = 0; d < test::liveGpuCount(); ++d) {
        auto c = checkClockAlignment(d, 400);
        ASSERT_TRUE(c.ok()) << c.error().message;
        std::cout << "GPU" << d << ": bound " << c->errorBoundUs << " us, residual " << c->residualUs << " us, drift "
                  << c->driftPpm << " ppm, tick " << c->resolutionNs << " ns\n";
        EXPECT_LE(c->errorBoundUs, 5.0);
        EXPECT_LE(c->residualUs, 5.0);
    }
}

TEST(LiveGpu, ComputeKernelLastsWhatWasAsked)
{
    REQUIRE_GPUS(1);
    auto tflops = measureComputeTflops(0);
    ASSERT_TRUE(tflops.ok()) << tflops.error().message;
    std::cout << "compute kernel on GPU0: " << *tflops << " TFLOP/s at 64 FLOP/byte\n";
    EXPECT_GT(*tflops, 0.5);
    for (double ms : {2.0, 20.0}) {
        Scenario s = scenario(1, ms, 4096);
        auto run = runLive(s);
        ASSERT_TRUE(run.ok()) << run.error().message;
        for (const Span& sp : run->spans) {
            if (sp.kind == SpanKind::Compute) {
                EXPECT_NEAR(sp.durationUs(), ms * 1e3, ms * 1e3 * 0.05) << "asked " << ms << " ms";
            }
        }
    }
}

// `calibrate --compute`: cuBLAS bf16 GEMMs timed on GPU 0, below the GPU's dense peak (989 TFLOP/s on
// an H100 or H200, the largest this project runs on) and well above a CUDA-core rate; copies below
// 2 x the HBM bandwidth of any GPU made (read + write).
TEST(LiveGpu, CublasGemmsAreTimedBelowThePeak)
{
    REQUIRE_GPUS(1);
    GemmMeasureOptions options;
    int calls = 0;
    options.progress = [&](int done, int total, const GemmShape&) {
        ++calls;
        EXPECT_EQ(total, 3);
        EXPECT_EQ(done, calls);
    };
    auto m = measureGemms({{4096, 4096, 4096}, {8192, 8192, 8192}, {2048, 28672, 8192}}, options);
    if (!m && m.error().message.find("libcublas") != std::string::npos)
        GTEST_SKIP() << m.error().message;
    ASSERT_TRUE(m.ok()) << m.error().message;
    EXPECT_EQ(calls, 3);
    std::cout << m->device << ", " << m->library << ":";
    ASSERT_EQ(m->bf16.size(), 3u);
    for (const GemmTiming& t : m->bf16) {
        std::cout << " " << t.shape.m << "x" << t.shape.n << "x" << t.shape.k << " " << t.tflops() << " TFLOP/s;";
        EXPECT_GT(t.tflops(), 50);
        EXPECT_LT(t.tflops(), 989);
    }
    ASSERT_FALSE(m->copies.empty());
    for (const CopyTiming& c : m->copies) {
        std::cout << " copy " << c.bytes / 2 / (1 << 20) << " MiB " << c.gbps() << " GB/s;";
        EXPECT_GT(c.gbps(), 100);
        EXPECT_LT(c.gbps(), 20000);
    }
    std::cout << "\n";
}

// Issue 27: a compute step that names GEMMs runs them with cuBLAS, then the timed kernel for the rest
// of its modelled time; the phase lasts the GEMMs' real time plus that rest. Ten 4096^3 bf16 GEMMs
// (1.37 TFLOP) take 1.4 to 28 ms between 989 and 50 TFLOP/s; the rest is half of 1 TFLOP at the
// preset GPU's rate.
TEST(LiveGpu, AComputeStepRunsItsGemmsThenTheRest)
{
    REQUIRE_GPUS(1);
    auto s = parseScenario(R"({"shardlab": 1, "name": "gemms",
        "topology": {"preset": "h200-nvswitch-8", "gpus": 1},
        "workload": [{"name": "batch", "kind": "data", "size": "1 GB", "replicate_on": "all"}],
        "program": [{"op": "compute", "name": "forward", "item": "batch", "flops": "1 TFLOP",
                     "gemms": [{"m": 4096, "n": 4096, "k": 4096, "count": 10}], "gemm_share": 0.5},
                    {"op": "compute", "name": "optimizer", "item": "batch", "flops": "1 TFLOP"}],
        "iterations": 3})");
    ASSERT_TRUE(s.ok()) << s.error().message;
    const double modelUs = 1e12 / (s->topology.gpus[0].tflops * 1e12) * 1e6;
    auto run = runLive(*s);
    ASSERT_TRUE(run.ok()) << run.error().message;
    bool ran = false;
    for (const Message& note : run->notes) {
        if (note.id == "live.note.gemms_not_run")
            GTEST_SKIP() << english(note);
        ran = ran || note.id == "live.note.gemms_run";
    }
    ASSERT_TRUE(ran);
    const double gemmFlops = 10 * 2.0 * 4096 * 4096 * 4096;
    int phases = 0;
    for (const Span& sp : run->spans) {
        if (sp.kind != SpanKind::Compute)
            continue;
        ++phases;
        if (sp.op == 0) {
            std::cout << "iteration " << sp.iteration + 1 << ": GEMMs and rest " << sp.durationUs() << " us (rest "
                      << modelUs / 2 << " us)\n";
            EXPECT_GT(sp.durationUs(), modelUs / 2 + gemmFlops / 989e12 * 1e6);
            EXPECT_LT(sp.durationUs(), modelUs / 2 + gemmFlops / 50e12 * 1e6);
        } else {
            EXPECT_NEAR(sp.durationUs(), modelUs, 0.03 * modelUs);
        }
    }
    EXPECT_EQ(phases, 2 * 3);
}

// Issue 14: a backward in 4 buckets, each followed by an overlapped all-reduce of its gradients.
// The bucket that ran beside the first all-reduce took 4x its length in some iterations (the
// compute kernel's blocks doubled up on the SMs the NCCL kernel left). Every compute phase of
// every iteration now lands within 3% of what was asked, and a 1-rank all-reduce is the local copy
// the simulator predicts (within 25%).
TEST(LiveGpu, OverlappedBucketsComputeWhatWasAskedInEveryIteration)
{
    REQUIRE_GPUS(1);
    // bench/live-overlap-1.shardlab.json, inline so that the test binary runs anywhere
    auto s = parseScenario(R"({"shardlab": 1, "name": "overlapped buckets",
        "topology": {"preset": "h200-nvswitch-8", "gpus": 1},
        "workload": [{"name": "batch", "kind": "data", "size": "8 GB", "replicate_on": "all"},
                     {"name": "gradients", "kind": "gradients", "size": "1 GB", "replicate_on": "all"}],
        "program": [{"op": "compute", "name": "backward", "item": "batch", "flops": "0.5 TFLOP", "buckets": 4},
                    {"op": "all_reduce", "name": "gradient all-reduce", "item": "gradients", "buckets": 4,
                     "overlap": true}],
        "iterations": 8})");
    ASSERT_TRUE(s.ok()) << s.error().message;
    auto run = runLive(*s);
    ASSERT_TRUE(run.ok()) << run.error().message;
    const double askedUs = 0.5e12 / 4 / (s->topology.gpus[0].tflops * 1e12) * 1e6; // 1.866 ms at 67 TFLOP/s
    int phases = 0;
    for (const Span& sp : run->spans)
        if (sp.kind == SpanKind::Compute) {
            ++phases;
            EXPECT_NEAR(sp.durationUs(), askedUs, 0.03 * askedUs)
                << "iteration " << sp.iteration + 1 << ", bucket " << sp.bucket + 1;
        }
    EXPECT_EQ(phases, 8 * 4);
    // The local copy priced at this machine's memory bandwidth (an H100's 3.35 TB/s, not the
    // preset H200's 4.8: on an H100 the copy measured 0.181 ms against 0.129 ms simulated at 4.8).
    Scenario here = *s;
    if (auto machine = discoverTopology(); machine && !machine->gpus.empty() && machine->gpus[0].memBandwidthGBps > 0)
        here.topology.gpus[0].memBandwidthGBps = machine->gpus[0].memBandwidthGBps;
    std::cout << "memory bandwidth of the GPU simulated: " << here.topology.gpus[0].memBandwidthGBps << " GB/s\n";
    auto sim = simulate(here, {});
    ASSERT_TRUE(sim.ok());
    const Summary live = summarize(*s, *run), model = summarize(here, *sim);
    ASSERT_EQ(live.collectives.size(), 1u);
    ASSERT_EQ(model.collectives.size(), 1u);
    std::cout << "1-rank all-reduce of " << formatBytes(live.collectives[0].bytes) << ": measured "
              << live.collectives[0].timeMs << " ms, simulated " << model.collectives[0].timeMs << " ms\n";
    EXPECT_NEAR(live.collectives[0].timeMs, model.collectives[0].timeMs, 0.25 * model.collectives[0].timeMs);
}

TEST(LiveGpu, EveryCollectiveCorrectOnEveryRankAtSeveralSizes)
{
    REQUIRE_GPUS(1);
    const std::vector<Bytes> sizes = {4, 1000, 4096 * 3 + 4, 1 << 20, 64 << 20};
    for (int n : rankCounts())
        for (OpKind kind : kAllCollectives) {
            if (kind == OpKind::SendRecv && n != 2)
                continue;
            LiveBenchOptions o;
            o.warmup = 1;
            o.iterations = 2;
            o.batches = 1;
            auto rows = benchLive(kind, n, sizes, o);
            ASSERT_TRUE(rows.ok()) << opName(kind) << " on " << n << ": " << rows.error().message;
            for (const SweepRow& r : *rows) {
                EXPECT_EQ(r.wrong, 0) << opName(kind) << " on " << n << " GPUs, " << r.bytes << " B";
                EXPECT_GT(r.timeUs, 0);
            }
        }
}

TEST(LiveGpu, ScenarioWithEveryCollectiveGroupsBucketsAndOverlap)
{
    REQUIRE_GPUS(2);
    const int n = test::liveGpuCount();
    Scenario s = scenario(n, 2, 8 << 20);
    s.program.clear();
    Op compute;
    compute.kind = OpKind::Compute;
    compute.item = "data";
    compute.flops = 2e-3 * 10e12 * n;
    compute.buckets = 4;
    Op overlapped;
    overlapped.kind = OpKind::AllReduce;
    overlapped.item = "grads";
    overlapped.buckets = 4;
    overlapped.overlap = true;
    s.program = {compute, overlapped};
    for (OpKind kind : kAllCollectives) {
        Op op;
        op.kind = kind;
        op.item = "data"; // all_gather_v: each rank's share of "data"
        op.bytes = kind == OpKind::AllGatherV ? std::optional<Bytes>() : std::optional<Bytes>(3 << 20);
        op.root = n - 1;
        op.peer = 0;
        s.program.push_back(op);
    }
    Op sub; // a sub-communicator: ranks 1..n-1
    sub.kind = OpKind::AllReduce;
    sub.bytes = 1 << 20;
    for (int r = 1; r < n; ++r)
        sub.group.push_back(r);
    s.program.push_back(sub);
    ASSERT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;
    auto run = runLive(s);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_FALSE(run->hang);
    EXPECT_EQ(run->mode, RunMode::Live);
    EXPECT_EQ(run->iterations.size(), 2u);
    // 4 overlapped buckets + 8 collectives + the sub-group one, per iteration
    EXPECT_EQ(run->collectives.size(), 2u * (4 + 8 + 1));
    int onCommStream = 0;
    for (const CollectiveRecord& c : run->collectives) {
        EXPECT_EQ(c.wrongElements, 0) << opName(c.kind) << " at step " << c.op;
        EXPECT_GE(c.endUs, c.startUs);
        EXPECT_EQ(c.arrivalUs.size(), c.group.size());
    }
    for (const Span& sp : run->spans)
        onCommStream += sp.stream == 1;
    EXPECT_GT(onCommStream, 0) << "overlapped buckets run on the communication stream";
    EXPECT_NE(english(run->clockNote).find("alignment error"), std::string::npos);
    std::cout << english(run->clockNote) << "\n";
}

TEST(LiveGpu, StragglerArrivesLastAndTheOthersWait)
{
    REQUIRE_GPUS(2);
    const int n = test::liveGpuCount();
    Scenario s = scenario(n, 10, 16 << 20);
    s.perturbations.slowdown.assign(static_cast<size_t>(n), 1.0);
    s.perturbations.slowdown[static_cast<size_t>(n - 1)] = 2.5; // 25 ms instead of 10
    s.iterations = 3;
    auto run = runLive(s);
    ASSERT_TRUE(run.ok()) << run.error().message;
    ASSERT_EQ(run->collectives.size(), 3u);
    for (const CollectiveRecord& c : run->collectives)
        EXPECT_EQ(c.lastArrival, n - 1);
    for (int r = 0; r + 1 < n; ++r) {
        double waited = 0;
        for (const Span& sp : run->spans)
            if (sp.rank == r && sp.kind == SpanKind::Wait) {
                waited += sp.durationUs();
                EXPECT_EQ(sp.waitedFor, n - 1);
            }
        EXPECT_NEAR(waited / 3, 15'000, 2'000) << "rank " << r << " waits about 25 - 10 ms per iteration";
    }
    const Summary sum = summarize(s, *run);
    ASSERT_TRUE(sum.straggler.has_value());
    EXPECT_EQ(*sum.straggler, n - 1);
}

TEST(LiveGpu, InjectedDelayShowsAsItsOwnSpan)
{
    REQUIRE_GPUS(1);
    Scenario s = scenario(std::min(2, test::liveGpuCount()), 1, 4096);
    s.perturbations.delays.push_back({0, 1, -1, 5.0});
    auto run = runLive(s);
    ASSERT_TRUE(run.ok()) << run.error().message;
    int delays = 0;
    for (const Span& sp : run->spans)
        if (sp.detail == SpanDetail::InjectedDelay) {
            ++delays;
            EXPECT_EQ(sp.rank, 0);
            EXPECT_NEAR(sp.durationUs(), 5000, 250);
        }
    EXPECT_EQ(delays, 2);
}

TEST(LiveGpu, WithoutCaptureOnlyIterationTimesAreKept)
{
    REQUIRE_GPUS(1);
    Scenario s = scenario(std::min(2, test::liveGpuCount()), 3, 1 << 20);
    LiveOptions o;
    o.captureTimeline = false;
    auto run = runLive(s, o);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_TRUE(run->spans.empty());
    EXPECT_TRUE(run->collectives.empty());
    ASSERT_EQ(run->iterations.size(), 2u);
    for (const IterationMark& m : run->iterations)
        EXPECT_NEAR(m.endUs - m.beginUs, 3000, 600) << "3 ms of compute and a 1 MB all-reduce";
    EXPECT_NE(english(run->clockNote).find("capture off"), std::string::npos);
}

TEST(LiveGpu, WatchdogCatchesAMismatchAndTheProcessStaysUsable)
{
    REQUIRE_GPUS(2);
    const int n = test::liveGpuCount();
    for (Mismatch::Type type : {Mismatch::Type::Skip, Mismatch::Type::WrongCount}) {
        Scenario s = scenario(n, 1, 1 << 20);
        s.iterations = 2;
        Mismatch m;
        m.type = type;
        m.rank = 1;
        m.op = 1;
        m.iteration = 1;
        m.bytes = 64 << 20;
        s.perturbations.mismatches.push_back(m);
        LiveOptions o;
        o.watchdogMs = 1500;
        const auto t0 = std::chrono::steady_clock::now();
        auto run = runLive(s, o);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_TRUE(run.ok()) << run.error().message;
        ASSERT_TRUE(run->hang.has_value()) << "mismatch type " << static_cast<int>(type) << " did not hang";
        std::cout << "hang: " << run->hang->explanation << " (" << seconds << " s)\n";
        EXPECT_EQ(run->hang->firstMismatchRank, 1);
        ASSERT_EQ(run->hang->lastCompleted.size(), static_cast<size_t>(n));
        EXPECT_EQ(run->hang->lastCompleted[1], 0) << "rank 1 completed iteration 0's all-reduce only";
        EXPECT_GE(run->hang->lastCompleted[0], 0);
        // set-up (communicators, warm-up, clock probes) and iteration 0 take well under a second
        EXPECT_LT(seconds, 1.5 + 3) << "the watchdog fired within its deadline plus set-up time";
        // the same process runs the next scenario normally
        auto again = runLive(scenario(n, 1, 1 << 20));
        ASSERT_TRUE(again.ok()) << again.error().message;
        EXPECT_FALSE(again->hang.has_value());
        for (const CollectiveRecord& c : again->collectives)
            EXPECT_EQ(c.wrongElements, 0);
    }
}

TEST(LiveGpu, AllocationFailureNamesRankBytesAndFreeMemory)
{
    REQUIRE_GPUS(1);
    auto devices = liveDevices();
    ASSERT_TRUE(devices.ok());
    Scenario s = scenario(1, 1, (*devices)[0].memory * 2); // an all-reduce twice the GPU's memory
    LiveOptions o;
    o.fitToMemory = false;
    auto run = runLive(s, o);
    ASSERT_FALSE(run.ok());
    EXPECT_EQ(run.error().kind, ErrorKind::RunFailed);
    EXPECT_NE(run.error().message.find("rank 0"), std::string::npos) << run.error().message;
    EXPECT_NE(run.error().message.find("could not allocate"), std::string::npos) << run.error().message;
    EXPECT_NE(run.error().message.find("free"), std::string::npos) << run.error().message;
    // with fitting (the default) the same scenario runs at a scaled size and says so
    auto fitted = runLive(s);
    ASSERT_TRUE(fitted.ok()) << fitted.error().message;
    ASSERT_FALSE(fitted->notes.empty());
    EXPECT_NE(english(fitted->notes[0]).find("scaled by"), std::string::npos) << english(fitted->notes[0]);
    EXPECT_EQ(fitted->collectives[0].wrongElements, 0);
}

TEST(LiveGpu, MoreRanksThanGpusIsBadInput)
{
    REQUIRE_GPUS(1);
    auto run = runLive(scenario(test::liveGpuCount() + 1, 1, 4096));
    ASSERT_FALSE(run.ok());
    EXPECT_EQ(run.error().kind, ErrorKind::BadInput);
    EXPECT_NE(run.error().message.find("GPU"), std::string::npos) << run.error().message;
}

TEST(LiveGpu, CommandLine)
{
    REQUIRE_GPUS(1);
    const int n = test::liveGpuCount();
    const std::string file = (std::filesystem::temp_directory_path() / "shardlab-live-cli.shardlab.json").string();
    ASSERT_TRUE(saveScenario(scenario(n, 2, 1 << 20), file).ok());
    std::ostringstream out, err;
    int status = shardlab::cli::runCli({"live", file, "--json"}, out, err);
    EXPECT_EQ(status, 0) << err.str();
    EXPECT_NE(out.str().find("\"mode\": \"live\""), std::string::npos) << out.str();
    std::ostringstream out2, err2;
    status = shardlab::cli::runCli(
        {"bench", "--collective", "all_gather", "--gpus", std::to_string(n), "--sizes", "1K:1M:32"}, out2, err2);
    EXPECT_EQ(status, 0) << err2.str();
    EXPECT_NE(out2.str().find("#wrong"), std::string::npos);
    std::ostringstream out3, err3;
    EXPECT_EQ(shardlab::cli::runCli({"topo"}, out3, err3), 0) << err3.str();
    EXPECT_NE(out3.str().find("Detected by CUDA"), std::string::npos);
    std::ostringstream out4, err4;
    EXPECT_EQ(
        shardlab::cli::runCli({"bench", "--collective", "all_reduce", "--gpus", std::to_string(n + 1)}, out4, err4), 2);
    std::filesystem::remove(file);
}
