// Simulation speed: a data-parallel step with 64 gradient buckets (backward interleaved with
// overlapped bucket all-reduces) on clusters of 8-GPU H200 nodes, from 8 to 4,096 ranks.
// Target (foundation issue): under 10 ms at 8 ranks and under 1 s at 4,096, on one core.
// Prints the median wall time and the time per rank x operation, so growth is visible.
#include "bench_common.h"

#include "shardlab/presets.h"
#include "shardlab/simulator.h"

#include <cstdio>
#include <cstdlib>

using namespace shardlab;

namespace {

Scenario dataParallelStep(int ranks)
{
    Scenario s;
    s.name = "bench: data-parallel step, 64 buckets";
    s.topology = scaleOut(*preset("h200-nvswitch-8"), ranks);
    std::vector<int> all(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
        all[static_cast<size_t>(r)] = r;
    WorkloadItem params{"parameters", ItemKind::Parameters, 2'000'000'000ULL, {Shard{0, 2'000'000'000ULL, all}}};
    WorkloadItem grads{"gradients", ItemKind::Gradients, 2'000'000'000ULL, {Shard{0, 2'000'000'000ULL, all}}};
    WorkloadItem batch{"batch", ItemKind::Data, static_cast<Bytes>(ranks) * 1'000'000ULL, evenShards(static_cast<Bytes>(ranks) * 1'000'000ULL, ranks)};
    for (int r = 0; r < ranks; ++r)
        batch.shards[static_cast<size_t>(r)].owners = {r};
    s.workload.items = {params, grads, batch};
    Op fwd;
    fwd.kind = OpKind::Compute;
    fwd.name = "forward";
    fwd.item = "batch";
    fwd.flops = 2e12 * ranks;
    Op bwd = fwd;
    bwd.name = "backward";
    bwd.flops = 4e12 * ranks;
    bwd.buckets = 64;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "gradient all-reduce";
    ar.item = "gradients";
    ar.buckets = 64;
    ar.overlap = true;
    s.program = {fwd, bwd, ar};
    s.perturbations.jitterPct = 2;
    return s;
}

} // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
    std::printf("bench_simulator: data-parallel step, 64 gradient buckets, 1 iteration, one thread\n");
    std::printf("machine: %s\n\n", bench::machineDescription().c_str());
    std::printf("%8s %12s %14s %18s %10s\n", "ranks", "rank x ops", "median (ms)", "per rank x op (us)", "spans");
    for (int ranks : {8, 64, 512, 4096}) {
        const Scenario s = dataParallelStep(ranks);
        size_t spans = 0;
        const double sec = bench::medianSeconds(ranks >= 4096 ? std::max(1, runs / 2) : runs, [&] {
            auto r = simulate(s); // cost model, routing and ring search included
            if (!r) {
                std::fprintf(stderr, "simulation failed: %s\n", r.error().message.c_str());
                std::exit(1);
            }
            spans = r->spans.size();
        });
        const double rankOps = static_cast<double>(ranks) * (1 + 64 + 64);
        std::printf("%8d %12.0f %14.2f %18.3f %10zu\n", ranks, rankOps, sec * 1e3, sec * 1e6 / rankOps, spans);
    }
    return 0;
}
