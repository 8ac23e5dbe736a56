// Scale (issue 16): how long `shardlab scale --gpus N` takes on a data-parallel step.
//   * the course's step (resources/scenarios/scaling-8-to-16: 2x8-h100-ib, nodes of eight H100
//     with eight 400 Gb/s NICs, scaled out on one InfiniBand fabric) at 4,096 / 16,384 / 65,536 GPUs;
//   * a data-parallel step with 64 overlapped gradient buckets on one switch of 1,024 H200.
// Per row, each the median of `runs` on one thread: the scaling point as the CLI computes it (the
// 1-GPU point and N GPUs: rescaling, validation, cost model, simulation, summary), then simulate()
// alone with nodes that are copies priced once (CostModel::setNodeSymmetry, the default) and with
// every transfer priced, and whether both gave the same step time. Target: under 2 s at 65,536.
// Usage: bench_scale [runs] [scenario dir]
#include "bench_common.h"
#include "bench_scenarios.h"

#include "shardlab/analysis/scaling.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace shardlab;

namespace {

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "%s\n", what.c_str());
    std::exit(1);
}

// Seconds of simulate() with a fresh cost model, copies priced once or not, and the step time.
double simulateSeconds(const Scenario& s, bool copies, int runs, double* stepMs)
{
    return bench::medianSeconds(runs, [&] {
        auto profile = profileFor(s);
        if (!profile)
            fail(profile.error().message);
        CostModel model(s.topology, *profile);
        model.setNodeSymmetry(copies);
        auto run = simulate(s, model);
        if (!run)
            fail(run.error().message);
        *stepMs = summarize(s, *run).stepTimeMs;
    });
}

void row(const char* name, const Scenario& base, int gpus, int runs)
{
    ScalingOptions o;
    o.gpuCounts = {gpus};
    double stepMs = 0;
    const double point = bench::medianSeconds(runs, [&] {
        auto curve = scalingCurve(base, o);
        if (!curve)
            fail(curve.error().message);
        stepMs = curve->find(gpus)->stepTimeMs;
    });
    auto s = rescaleScenario(base, scalingTemplate(base.topology), gpus, ScalingMode::Strong);
    if (!s)
        fail(s.error().message);
    double fastMs = 0, exactMs = 0;
    const double fast = simulateSeconds(*s, true, runs, &fastMs);
    const double exact = simulateSeconds(*s, false, gpus >= 65536 ? 1 : runs, &exactMs);
    std::printf("%-34s %7d %6d %15.3f %15.3f %23.3f %10.3f %5s\n", name, gpus, s->topology.nodeCount(), point, fast,
                exact, stepMs, fastMs == exactMs ? "yes" : "NO");
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 3;
    const std::string dir = argc > 2 ? argv[2] : SHARDLAB_SCENARIO_DIR;
    std::printf("bench_scale: shardlab scale --gpus N on a data-parallel step, one thread, median of %d\n", runs);
    std::printf("machine: %s\n\n", bench::machineDescription().c_str());
    std::printf("%-34s %7s %6s %15s %15s %23s %10s %5s\n", "scenario", "GPUs", "nodes", "scale point (s)",
                "sim, copies (s)", "sim, every transfer (s)", "step (ms)", "same");
    auto course = loadScenario(dir + "/scaling-8-to-16.shardlab.json");
    if (!course)
        fail(course.error().message);
    for (int gpus : {4096, 16384, 65536})
        row("scaling-8-to-16 (2x8-h100-ib)", *course, gpus, runs);
    Scenario oneSwitch = bench::dataParallelStep(1024);
    oneSwitch.topology = bench::oneSwitch(1024);
    row("64 buckets, one switch of H200", oneSwitch, 1024, runs);
    return 0;
}
