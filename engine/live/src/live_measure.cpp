#include "shardlab/live/live_measure.h"

#include "shardlab/live/live.h"

#include <unistd.h>

namespace shardlab {

SweepMeasure liveSweepMeasure()
{
    return [](OpKind kind, int gpus, const std::vector<Bytes>& sizes) { return benchLive(kind, gpus, sizes); };
}

CalibrationHooks liveCalibrationHooks()
{
    CalibrationHooks h;
    h.topology = [] { return discoverTopology(); };
    h.measure = liveSweepMeasure();
    h.computeTflops = [](int device) { return measureComputeTflops(device); };
    h.host = [] {
        char name[256] = {};
        return gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("this machine");
    };
    return h;
}

} // namespace shardlab
