#include "shardlab/live/live.h"

#include <string>

namespace shardlab {

namespace {
// 13000 -> "CUDA 13.0" (cudaDriverGetVersion: 1000 * major + 10 * minor)
std::string cudaText(int v) { return "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }
// 22809 -> "NCCL 2.28.9" (ncclGetVersion since 2.9: 10000 * major + 100 * minor + patch)
std::string ncclText(int v)
{
    return "NCCL " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}
} // namespace

Message runtimeVersionsMessage(const RuntimeVersions& versions)
{
    if (versions.cudaDriver > 0)
        return versions.nccl > 0 ? Message("error.piece.runtime_nccl")
                                       .with("cuda", cudaText(versions.cudaDriver))
                                       .with("nccl", ncclText(versions.nccl))
                                 : Message("error.piece.runtime").with("cuda", cudaText(versions.cudaDriver));
    return versions.nccl > 0 ? Message("error.piece.no_driver_nccl").with("nccl", ncclText(versions.nccl))
                             : Message("error.piece.no_driver");
}

} // namespace shardlab
