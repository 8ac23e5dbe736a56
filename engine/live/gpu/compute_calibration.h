// Calibrating the compute kernel: how many element visits last a requested time on this GPU.
#pragma once

#include "shardlab/base/result.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace shardlab::live {

struct ComputeCalibration {
    int device = 0;
    int rounds = 0;       // FMA rounds per visit (intensity = 2 * rounds FLOP/byte)
    double nsPerItem = 0; // slope of the kernel's time against its visits
    double fixedNs = 0;   // intercept: launch and ramp
    // Visits for a kernel of `us` microseconds (0 when `us` is below what one launch takes).
    std::uint64_t itemsFor(double us) const;
};

// Rounds for an intensity in FLOP/byte (16 FLOP and 8 bytes per visit per round... see kernels.h).
int roundsForIntensity(double flopPerByte);

// The calibration for the current device at `rounds`, measured once per process (cached) on
// `scratch` (a power-of-two number of floats) with `stream`: the kernel is timed with CUDA events
// at two sizes of about 3 and 12 ms (median of three each) and a straight line is fitted.
Result<ComputeCalibration> calibrateCompute(int device, int rounds, float* scratch, std::size_t countPow2,
                                            cudaStream_t stream);

// Median time in microseconds of `repeats` launches of `items` visits, timed with events.
Result<double> timeCompute(const ComputeCalibration& c, std::uint64_t items, float* scratch, std::size_t countPow2,
                           cudaStream_t stream, int repeats);

// Scratch size for the compute kernel: 2^26 floats (256 MiB, several times any GPU's L2 so that
// the intensity means something), halved until it is under 1/16 of the free memory.
std::size_t computeScratchCount(std::size_t freeBytes);

} // namespace shardlab::live
