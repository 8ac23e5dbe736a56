// Routing and ring search at scale (issue 14): one switch with 1,000 to 65,536 GPUs, and nodes of
// eight H200 on NVSwitch joined by InfiniBand (h200-nvswitch-8 scaled out) up to 65,536 GPUs.
// Two figures per machine, each the median of `runs` on one thread:
//   cost model: a fresh CostModel prices a 1 GB all-reduce over every rank (routes, the ring
//               search, link sharing and the tuner's choice);
//   sim step:   simulate() of one iteration, a compute step then that all-reduce (validation, the
//               model again, the event loop);
// then the simulated step time, and the process's peak memory so far (getrusage).
// Before the near-linear routing, one switch with 1,000 GPUs took 49 s (10,000 did not finish).
// Usage: bench_routing [runs] [largest GPU count]
#include "bench_common.h"
#include "bench_scenarios.h"

#include "shardlab/model/presets.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/simulator.h"

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <numeric>

using namespace shardlab;

namespace {

// One training step: every rank computes its share, then the gradients are all-reduced.
Scenario allReduceStep(const Topology& t)
{
    Scenario s;
    s.name = "bench: compute, then a 1 GB all-reduce";
    s.topology = t;
    std::vector<int> all(static_cast<size_t>(t.rankCount()));
    std::iota(all.begin(), all.end(), 0);
    s.workload.items = {
        WorkloadItem{"gradients", ItemKind::Gradients, 1'000'000'000ULL, {Shard{0, 1'000'000'000ULL, all}}}};
    Op compute;
    compute.kind = OpKind::Compute;
    compute.name = "backward";
    compute.flops = 1e12; // no item: every rank does all of it, 1 TFLOP
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "gradient all-reduce";
    ar.item = "gradients";
    s.program = {compute, ar};
    return s;
}

double maxRssMB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

} // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
    const int largest = argc > 2 ? std::atoi(argv[2]) : kMaxTopologyGpus;
    std::printf("bench_routing: routes, ring search and one simulated all-reduce step, one thread, median of %d\n",
                runs);
    std::printf("machine: %s\n\n", bench::machineDescription().c_str());
    std::printf("%-28s %7s %6s %16s %14s %12s %14s\n", "topology", "GPUs", "nodes", "cost model (ms)", "sim step (ms)",
                "step (ms)", "max RSS (MB)");
    struct Case {
        const char* name;
        int gpus;
    };
    const Case cases[] = {{"one switch", 1000},
                          {"one switch", 10000},
                          {"one switch", 65536},
                          {"8x H200 NVSwitch nodes, IB", 1024},
                          {"8x H200 NVSwitch nodes, IB", 8192},
                          {"8x H200 NVSwitch nodes, IB", 65536}};
    for (const Case& c : cases) {
        if (c.gpus > largest)
            continue;
        const Topology t = c.name[0] == 'o' ? bench::oneSwitch(c.gpus) : scaleOut(*preset("h200-nvswitch-8"), c.gpus);
        const Scenario s = allReduceStep(t);
        std::vector<int> all(static_cast<size_t>(t.rankCount()));
        std::iota(all.begin(), all.end(), 0);
        const double model = bench::medianSeconds(runs, [&] {
            CostModel m(t);
            if (!m.collective(OpKind::AllReduce, 1'000'000'000ULL, all).connected) {
                std::fprintf(stderr, "%s: not connected\n", c.name);
                std::exit(1);
            }
        });
        double stepUs = 0;
        const double sim = bench::medianSeconds(runs, [&] {
            auto r = simulate(s);
            if (!r) {
                std::fprintf(stderr, "simulation failed: %s\n", r.error().message.c_str());
                std::exit(1);
            }
            stepUs = r->endUs();
        });
        std::printf("%-28s %7d %6d %16.1f %14.1f %12.3f %14.0f\n", c.name, t.rankCount(), t.nodeCount(), model * 1e3,
                    sim * 1e3, stepUs / 1e3, maxRssMB());
        std::fflush(stdout);
    }
    return 0;
}
