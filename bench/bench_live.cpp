// Live engine overheads on this machine's GPUs (run by bench/live_device.sh on the device machine):
//   1. timeline capture: the same scenarios run with capture on and off, interleaved in one
//      process (on, off, on, off, ...); overhead = (median step with capture - median without) /
//      median without. Goal (issue 3): at most 2% of the step time.
//   2. clock alignment per GPU (bound and checked residual, goal <= 5 us) and the compute kernel's
//      FP32 rate at the default intensity.
// Usage: bench_live [GPUS] [REPEATS]   (defaults: every GPU, 5)
#include "bench_common.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/live/live.h"

#include <cstdio>
#include <cstdlib>

using namespace shardlab;

namespace {

// A data-parallel step on `n` ranks of 10 TFLOP/s GPUs: forward, backward in `buckets` slices with
// an overlapped all-reduce of the gradients per slice, then the optimizer step.
Scenario dataParallel(int n, int buckets, double backwardMs, Bytes gradBytes)
{
    Scenario s;
    s.name = "bench: data-parallel step, " + std::to_string(buckets) + " buckets";
    s.topology.name = "bench";
    s.topology.switches.push_back({"nvs", SwitchKind::NvSwitch, 0, 0});
    std::vector<int> all;
    for (int i = 0; i < n; ++i) {
        s.topology.gpus.push_back({"gpu" + std::to_string(i), "BenchGPU", 141'000'000'000ULL, 10.0, 4800, 0, 0});
        s.topology.links.push_back({"gpu" + std::to_string(i), "nvs", LinkKind::NvLink, 18, 450, 0.2});
        all.push_back(i);
    }
    WorkloadItem batch{"batch", ItemKind::Data, static_cast<Bytes>(n) * 1'000'000ULL,
                       evenShards(static_cast<Bytes>(n) * 1'000'000ULL, n)};
    for (int i = 0; i < n; ++i)
        batch.shards[static_cast<size_t>(i)].owners = {i};
    WorkloadItem grads{"gradients", ItemKind::Gradients, gradBytes, {Shard{0, gradBytes, all}}};
    s.workload.items = {batch, grads};
    const double flopPerMs = 10e12 * 1e-3 * n; // per-rank share of 1/n at 10 TFLOP/s
    Op fwd;
    fwd.kind = OpKind::Compute;
    fwd.name = "forward";
    fwd.item = "batch";
    fwd.flops = backwardMs / 2 * flopPerMs;
    Op bwd = fwd;
    bwd.name = "backward";
    bwd.flops = backwardMs * flopPerMs;
    bwd.buckets = buckets;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "gradient all-reduce";
    ar.item = "gradients";
    ar.buckets = buckets;
    ar.overlap = true;
    Op opt = fwd;
    opt.name = "optimizer step";
    opt.flops = 1 * flopPerMs;
    s.program = {fwd, bwd, ar, opt};
    s.iterations = 10;
    return s;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    auto devices = liveDevices();
    if (!devices) {
        std::fprintf(stderr, "bench_live: %s\n", devices.error().message.c_str());
        return 2;
    }
    const int gpus = argc > 1 ? std::atoi(argv[1]) : static_cast<int>(devices->size());
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
    std::printf("# ShardLab live engine overheads\n# host: %s\n# live: %s\n", bench::machineDescription().c_str(),
                english(liveBuildInfo()).c_str());
    for (const LiveDevice& d : *devices)
        std::printf("# GPU%d: %s, sm_%d%d, %d SMs, %.1f GB\n", d.index, d.name.c_str(), d.computeMajor, d.computeMinor,
                    d.multiprocessors, static_cast<double>(d.memory) / 1e9);

    std::printf("\n## Clock alignment and compute kernel\n\n| GPU | bound (us) | residual (us) | drift (ppm) | timer "
                "tick (ns) | compute kernel, whole chip (TFLOP/s) |\n|---:|---:|---:|---:|---:|---:|\n");
    for (int d = 0; d < gpus; ++d) {
        auto c = checkClockAlignment(d, 400);
        auto t = measureComputeTflops(d);
        if (!c || !t) {
            std::fprintf(stderr, "bench_live: %s\n", (!c ? c.error() : t.error()).message.c_str());
            return 3;
        }
        std::printf("| %d | %.2f | %.2f | %.2f | %.0f | %.1f |\n", d, c->errorBoundUs, c->residualUs, c->driftPpm,
                    c->resolutionNs, *t);
    }

    struct Case {
        const char* what;
        Scenario s;
    };
    const std::vector<Case> cases = {
        {"8 buckets, 40 ms backward, 1 GB gradients", dataParallel(gpus, 8, 40, 1'000'000'000ULL)},
        {"64 buckets, 40 ms backward, 1 GB gradients", dataParallel(gpus, 64, 40, 1'000'000'000ULL)},
        {"64 buckets, 4 ms backward, 64 MB gradients", dataParallel(gpus, 64, 4, 64'000'000ULL)},
    };
    std::printf("\n## Timeline capture overhead (%d GPUs, %d runs each way, interleaved, 10 iterations per run)\n\n"
                "| scenario | phases per rank and step | step, capture off (ms) | step, capture on (ms) | overhead |\n"
                "|---|---:|---:|---:|---:|\n",
                gpus, repeats);
    for (const Case& c : cases) {
        std::vector<double> on, off;
        size_t phases = 0;
        for (int i = 0; i < 2 * repeats; ++i) {
            LiveOptions o;
            o.captureTimeline = i % 2 == 0;
            o.verify = false;
            auto run = runLive(c.s, o);
            if (!run) {
                std::fprintf(stderr, "bench_live: %s\n", run.error().message.c_str());
                return 3;
            }
            const Summary sum = summarize(c.s, *run);
            (o.captureTimeline ? on : off).push_back(sum.stepTimeMs);
            if (o.captureTimeline)
                phases = run->spans.size() / static_cast<size_t>(gpus) / run->iterations.size();
        }
        const double a = median(off), b = median(on);
        std::printf("| %s | %zu | %.3f | %.3f | %+.2f%% |\n", c.what, phases, a, b, (b - a) / a * 100);
    }
    return 0;
}
