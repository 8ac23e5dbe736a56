// Timing cuBLAS GEMMs and device copies on one of this machine's GPUs: what
// `shardlab calibrate --compute` measures to calibrate the planner's compute model
// (plan/compute_calibration.h, docs/planner.md "Compute calibration"). The live library opens cuBLAS
// (libcublas.so.13) at the first call, as it opens NVML, so live mode never needs it.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/gemm_shape.h"

#include <functional>
#include <string>
#include <vector>

namespace shardlab {

// The median of the timed launches of one shape, in microseconds (CUDA events around each launch).
struct GemmTiming {
    GemmShape shape;
    double us = 0;
    double tflops() const { return us > 0 ? shape.flops() / us / 1e6 : 0; }
};
// A device-to-device copy: `bytes` counts what it reads and what it writes (twice the buffer).
struct CopyTiming {
    double bytes = 0;
    double us = 0;
    double gbps() const { return us > 0 ? bytes / us / 1e3 : 0; }
};

struct GemmMeasureOptions {
    int device = 0;
    int warmup = 5;   // untimed launches before the timed ones
    int repeats = 20; // timed launches; the median is kept
    // Called after each shape (done of total, the shape just measured); may be empty.
    std::function<void(int done, int total, const GemmShape& shape)> progress;
};

struct GemmMeasurement {
    std::string device;      // as the GPU names itself ("NVIDIA H200")
    int multiprocessors = 0; // SMs
    std::string library;     // "cuBLAS 13.1.0"
    std::vector<GemmTiming> bf16;
    std::vector<GemmShape> tooLarge; // shapes whose matrices do not fit half of the free memory: not run
    std::vector<CopyTiming> copies;  // 64, 256 and 1024 MiB buffers (those that fit)
};

// BadInput naming the first shape with a side below 1 or above kMaxGemmSide, or an empty list.
Status checkGemmShapes(const std::vector<GemmShape>& shapes);

// Times each shape on `options.device` (in order), then the copies. BadInput when there is no GPU,
// no cuBLAS (naming the library and what to do), or a shape out of range.
Result<GemmMeasurement> measureGemms(const std::vector<GemmShape>& shapes, const GemmMeasureOptions& options = {});

} // namespace shardlab
