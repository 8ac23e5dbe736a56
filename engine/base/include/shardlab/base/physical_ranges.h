// The physical range of every rate and size of a machine (docs/scenario-format.md, "Ranges").
#pragma once

#include "shardlab/base/units.h"

namespace shardlab {

// Scenario files, the app's editors and validateTopology() refuse a value outside it, naming the
// range, so that no time computed from them can round to 0 or overflow (a bandwidth of 1e-305
// GB/s once gave 0.000 ms, a denormal 47,619 GB/s).
inline constexpr double kMinBandwidthGBps = 1e-3; // 1 MB/s, links and GPU memory
inline constexpr double kMaxBandwidthGBps = 1e5;  // 100 TB/s
inline constexpr double kMinTflops = 1e-3;        // 1 GFLOP/s
inline constexpr double kMaxTflops = 1e5;         // 100 PFLOP/s
inline constexpr double kMaxLatencyUs = 1e6;      // a link's latency: 0 to 1 s
inline constexpr Bytes kMinGpuMemory = 1'000'000; // 1 MB, up to kMaxBytes (1 PB)

} // namespace shardlab
