// `measureGemms` (live_gemm.h) inside the live library: cuBLAS bf16 GEMMs and device copies timed
// with CUDA events.
#pragma once

#include "shardlab/live/live_gemm.h"

namespace shardlab::live {

Result<GemmMeasurement> gemmMeasurement(const std::vector<GemmShape>& shapes, const GemmMeasureOptions& options);

} // namespace shardlab::live
