// Simulation speed: a data-parallel step with 64 gradient buckets (backward interleaved with
// overlapped bucket all-reduces) on clusters of 8-GPU H200 nodes, from 8 to 4,096 ranks.
// Target (foundation issue): under 10 ms at 8 ranks and under 1 s at 4,096, on one core.
// Prints the median wall time and the time per rank x operation, so growth is visible.
#include "bench_common.h"
#include "bench_scenarios.h"

#include "shardlab/model/presets.h"
#include "shardlab/sim/simulator.h"

#include <cstdio>
#include <cstdlib>

using namespace shardlab;

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
    std::printf("bench_simulator: data-parallel step, 64 gradient buckets, 1 iteration, one thread\n");
    std::printf("machine: %s\n\n", bench::machineDescription().c_str());
    std::printf("%8s %12s %14s %18s %10s\n", "ranks", "rank x ops", "median (ms)", "per rank x op (us)", "spans");
    for (int ranks : {8, 64, 512, 4096}) {
        const Scenario s = bench::dataParallelStep(ranks);
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
