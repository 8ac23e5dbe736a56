// Inputs of the GEMMs `shardlab calibrate --compute` times: bf16 values spread over [-1, 1), as
// PyTorch's torch.randn would give (not zeros or a constant, whose lower switching activity lets a
// GPU keep higher clocks and so flatters the measured rate).
#include "shardlab/kernels.h"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

namespace shardlab::kernels {
namespace {

// A 32-bit integer hash (lowbias32, Chris Wellons): each index's value independent of its neighbours'.
__device__ __forceinline__ std::uint32_t mix(std::uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

__global__ void fillNoiseBf16Kernel(__nv_bfloat16* buffer, std::size_t count, std::uint32_t seed)
{
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count; i += stride) {
        const std::uint32_t h = mix(static_cast<std::uint32_t>(i) ^ mix(seed + static_cast<std::uint32_t>(i >> 32)));
        buffer[i] = __float2bfloat16(static_cast<float>(h >> 8) * (2.0f / 16777216.0f) - 1.0f);
    }
}

} // namespace

int fillNoiseBf16(void* buffer, std::size_t count, std::uint32_t seed, void* stream)
{
    fillNoiseBf16Kernel<<<1024, 256, 0, static_cast<cudaStream_t>(stream)>>>(static_cast<__nv_bfloat16*>(buffer), count,
                                                                             seed);
    return static_cast<int>(cudaGetLastError());
}

} // namespace shardlab::kernels
