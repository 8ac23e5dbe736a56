// A GPU's compute as measured (`shardlab calibrate --compute`, or bench/calibrate_compute.py with
// PyTorch, on that GPU): cuBLAS GEMMs by shape, causal FlashAttention by sequence and heads, and
// copy bandwidth. Shipped for the GPUs this project measured in resources/compute/<gpu>.json; a
// user's own file is used with `shardlab plan --compute FILE`. The compute model then scales its
// shape model to the nearest measured point (compute_model.h, docs/planner.md "Compute calibration").
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/topology.h"

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
// A measured file (`shardlab plan --compute FILE`): BadInput naming the file and what is wrong.
Result<ComputeCalibration> loadComputeCalibration(const std::string& path);
// resources/compute/<name>.json for an accelerator spec's name ("H200" -> h200.json); nullopt where
// this project measured none.
std::optional<ComputeCalibration> shippedComputeCalibration(const std::string& acceleratorName);

// The calibration a plan on `gpu` is priced with. Without `measured`: the shipped one for its
// accelerator, if any. With it: BadInput when it was measured on another accelerator (the file's
// device matched against acceleratorOf(), compute_model.h, naming both); a measured file without
// attention rows (`calibrate --compute` times GEMMs and copies only) takes the shipped file's, and
// its source says so.
Result<std::optional<ComputeCalibration>> planComputeCalibration(const Gpu& gpu,
                                                                 std::optional<ComputeCalibration> measured);

// What `shardlab calibrate --compute` writes: the format computeCalibrationFromJson() reads (and
// bench/calibrate_compute.py writes), with the measuring tool named.
struct CopyPoint {
    double bytes = 0, gbps = 0; // bytes read and written
};
struct ComputeMeasurementFile {
    std::string device; // as the GPU names itself
    int sms = 0;
    std::string date; // YYYY-MM-DD
    std::string tool; // "shardlab calibrate --compute, cuBLAS 13.1.0"
    std::vector<GemmPoint> gemmBf16;
    std::vector<CopyPoint> copies;
};
std::string computeMeasurementJson(const ComputeMeasurementFile& file);

// The GEMM shapes measured (m of 512 to 16384 tokens; n and k of 1024 to 53248, the sides of
// transformer layers from 1B to 405B parameters), without those over 1.2e9 elements or 1e13 FLOP:
// the grid of bench/calibrate_compute.py, tflops 0.
std::vector<GemmPoint> calibrationGemmGrid();

} // namespace shardlab
