// A calibration from measurements: what it measures (the plan), where the measurements come from
// (the hooks; liveCalibrationHooks() in shardlab/live/live_measure.h uses this machine's GPUs) and
// the fit of what they returned.
#pragma once

#include "shardlab/analysis/calibration.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace shardlab {

// What a live calibration measures.
struct CalibrationPlan {
    int gpus = 0;                // 0: every GPU of the machine
    std::vector<int> rankCounts; // empty: 2 and all GPUs
    std::vector<OpKind> kinds = {OpKind::AllReduce, OpKind::AllGather, OpKind::ReduceScatter, OpKind::Broadcast,
                                 OpKind::Reduce};
    std::vector<Bytes> sizes; // empty: defaultCalibrationSizes()
};
// 8 B (the latency), then 16 KiB to 1 GiB in steps of 4.
std::vector<Bytes> defaultCalibrationSizes();

// Where a calibration gets its measurements; liveCalibrationHooks() (shardlab/live/live_measure.h)
// uses this machine's GPUs.
struct CalibrationHooks {
    std::function<Result<Topology>()> topology;
    SweepMeasure measure;
    std::function<Result<double>(int device)> computeTflops;
    std::function<std::string()> host;
    // (steps done, total, what is being measured); false cancels
    std::function<bool(int, int, const std::string&)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// Measures the plan, fits, and returns the result (the caller saves result.profile).
Result<CalibrationResult> runCalibration(const CalibrationPlan& plan, const CalibrationOptions& options,
                                         const CalibrationHooks& hooks);

} // namespace shardlab
