// Scaling-curve speed (issue 6): a full simulated strong-scaling curve from 1 to 1,024 GPUs
// (defaultGpuCounts: 1..16, then four points per doubling, 40 points) must appear in under 1 s.
// Scenarios: the course's 8-to-16 data-parallel step (2x8-h100-ib, scaled out over InfiniBand)
// and the fifth-GPU job (teaching-8x16gb-2socket), strong and weak.
#include "bench_common.h"

#include "shardlab/analysis/scaling.h"
#include "shardlab/io/scenario_io.h"

#include <cstdio>
#include <cstdlib>

using namespace shardlab;

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
    const std::string dir = argc > 2 ? argv[2] : SHARDLAB_SCENARIO_DIR;
    std::printf("bench_scaling: simulated scaling curves from 1 to 1,024 GPUs, one thread\n");
    std::printf("machine: %s\n\n", bench::machineDescription().c_str());
    std::printf("%-34s %6s %7s %12s\n", "scenario", "mode", "points", "median (ms)");
    for (const char* file : {"scaling-8-to-16.shardlab.json", "fifth-gpu-4.shardlab.json"}) {
        auto s = loadScenario(dir + "/" + file);
        if (!s) {
            std::fprintf(stderr, "%s\n", s.error().message.c_str());
            return 1;
        }
        for (ScalingMode mode : {ScalingMode::Strong, ScalingMode::Weak}) {
            ScalingOptions o;
            o.mode = mode;
            o.maxGpus = 1024;
            size_t points = 0;
            const double sec = bench::medianSeconds(runs, [&] {
                auto curve = scalingCurve(*s, o);
                if (!curve) {
                    std::fprintf(stderr, "%s\n", curve.error().message.c_str());
                    std::exit(1);
                }
                points = curve->points.size();
            });
            std::printf("%-34s %6s %7zu %12.1f\n", file, scalingModeName(mode), points, sec * 1e3);
        }
    }
    return 0;
}
