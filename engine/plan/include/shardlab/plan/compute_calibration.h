// A GPU's compute as measured (bench/calibrate_compute.py on that GPU): cuBLAS GEMMs by shape,
// causal FlashAttention by sequence and heads, and copy bandwidth. Shipped for the GPUs this
// project measured in resources/compute/<gpu>.json; the compute model then scales its shape model
// to the nearest measured point (compute_model.h, docs/planner.md "Compute calibration").
#pragma once

#include "shardlab/base/result.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct GemmPoint {
    double m = 0, n = 0, k = 0, tflops = 0;
};
struct AttentionPoint {
    double seq = 0, heads = 0, headDim = 0, forwardTflops = 0, backwardTflops = 0;
};

struct ComputeCalibration {
    std::string device; // as the GPU names itself ("NVIDIA H200")
    std::string source; // the file and the date it was measured
    std::vector<GemmPoint> gemmBf16, gemmFp8;
    std::vector<AttentionPoint> attention;
    double copyGBps = 0; // the best device-to-device copy bandwidth measured (read + write)
};

Result<ComputeCalibration> computeCalibrationFromJson(const std::string& text, const std::string& origin);
// resources/compute/<name>.json for an accelerator spec's name ("H200" -> h200.json); nullopt where
// this project measured none.
std::optional<ComputeCalibration> shippedComputeCalibration(const std::string& acceleratorName);

} // namespace shardlab
