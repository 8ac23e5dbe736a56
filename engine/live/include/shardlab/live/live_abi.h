// The boundary between the engine and the live library (libshardlab_live.so).
//
// The simulation app has no CUDA dependency: the engine's live.h functions open the live library
// at first use (live_loader.cpp) and call it through this table. The library exports one C symbol,
// kLiveEntryPoint, returning the table. Both sides are built from the same sources by the same
// compiler, so the table carries C++ types; `layoutKey` guards against a library from another
// build (it differs when the ShardLab version or the size of any type crossing the boundary does).
#pragma once

#include "shardlab/base/version.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_gemm.h"
#include "shardlab/live/live_rank.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace shardlab::liveabi {

inline constexpr int kAbiVersion = 7; // 7: compute steps carry GEMMs (Op::gemms)
inline constexpr const char* kEntryPoint = "shardlab_live_api_v1";

constexpr std::uint64_t fnv(std::uint64_t h, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i) {
        h ^= (v >> (8 * i)) & 0xffu;
        h *= 1099511628211ULL;
    }
    return h;
}

constexpr std::uint64_t layoutKey()
{
    std::uint64_t h = 1469598103934665603ULL;
    for (char c : std::string_view(kVersion))
        h = fnv(h, static_cast<unsigned char>(c));
    for (std::size_t s : {sizeof(Scenario),
                          sizeof(Op),
                          sizeof(Topology),
                          sizeof(Workload),
                          sizeof(Perturbations),
                          sizeof(RunResult),
                          sizeof(Span),
                          sizeof(CollectiveRecord),
                          sizeof(HangReport),
                          sizeof(LiveOptions),
                          sizeof(LiveBenchOptions),
                          sizeof(SweepRow),
                          sizeof(LiveDevice),
                          sizeof(Error),
                          sizeof(std::string),
                          sizeof(RankTopologyReport),
                          sizeof(RankProgress),
                          sizeof(Environment),
                          sizeof(GemmMeasureOptions),
                          sizeof(GemmMeasurement)})
        h = fnv(h, s);
    return h;
}

struct Api {
    int abiVersion = kAbiVersion;
    std::uint64_t layoutKey = 0;
    const char* builtWith = ""; // "CUDA 13.0, NCCL 2.28.9"
    // What loads here: the versions the driver and NCCL report (CUDA 13.0: 13000; NCCL 2.28.9:
    // 22809), 0 where there is none. Does not touch the GPUs.
    RuntimeVersions (*runtimeVersions)() = nullptr;
    Result<RunResult> (*runLive)(const Scenario&, const LiveOptions&) = nullptr;
    Result<std::vector<SweepRow>> (*benchLive)(OpKind, int, const std::vector<Bytes>&,
                                               const LiveBenchOptions&) = nullptr;
    Result<std::vector<LiveDevice>> (*liveDevices)() = nullptr;
    Result<Topology> (*discoverTopology)() = nullptr;
    Result<double> (*measureComputeTflops)(int, double) = nullptr;
    Result<ClockCheck> (*checkClockAlignment)(int, double) = nullptr;
    // live_gemm.h: cuBLAS GEMMs timed for the planner's compute calibration
    Result<GemmMeasurement> (*measureGemms)(const std::vector<GemmShape>&, const GemmMeasureOptions&) = nullptr;
    // live_rank.h: one rank of a multi-process run
    Result<std::vector<std::uint8_t>> (*createNcclUniqueId)() = nullptr;
    int (*visibleCudaDevices)() = nullptr;
    RankTopologyReport (*probeRankTopology)(int, const Environment&) = nullptr;
    Result<RunResult> (*runLiveRankPart)(const Scenario&, int, int, const std::vector<std::uint8_t>&,
                                         const LiveOptions&, RankProgress&) = nullptr;
};

} // namespace shardlab::liveabi

extern "C" {
using ShardLabLiveEntry = const shardlab::liveabi::Api* (*)();
}
