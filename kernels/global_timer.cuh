// %globaltimer: the GPU's global nanosecond timer, as the live engine's kernels read it.
#pragma once

#include <cstdint>

namespace shardlab::kernels {

__device__ __forceinline__ std::uint64_t globalTimer()
{
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

} // namespace shardlab::kernels
