// Fill and verify kernels: inputs whose collective results are exactly predictable, and a
// check that counts wrong elements (nccl-tests' #wrong).
//
// Each rank r fills element j with (r + 1) + (j % 16) / 16. Every such value has at most four
// fraction bits, so sums over up to a few thousand ranks are exact in float: the expected
// all-reduce result is n(n+1)/2 + n * (j % 16) / 16, bit for bit.
#include "shardlab/kernels.h"

#include <cuda_runtime.h>

namespace shardlab::kernels {
namespace {

__device__ __forceinline__ float rankValue(int rank, std::size_t j)
{
    return static_cast<float>(rank + 1) + static_cast<float>(j & 15u) * 0.0625f;
}

__global__ void fillKernel(float* buffer, std::size_t count, int rank, std::size_t offset)
{
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        buffer[i] = rankValue(rank, offset + i);
}

__global__ void countWrongSumKernel(const float* buffer, std::size_t count, int ranks, std::size_t offset,
                                    unsigned long long* wrong)
{
    unsigned long long local = 0;
    const float base = static_cast<float>(ranks) * static_cast<float>(ranks + 1) * 0.5f;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const float expected = base + static_cast<float>(ranks) * static_cast<float>((offset + i) & 15u) * 0.0625f;
        local += buffer[i] != expected ? 1u : 0u;
    }
    if (local)
        atomicAdd(wrong, local);
}

unsigned gridFor(std::size_t count)
{
    const std::size_t blocks = (count + 255) / 256;
    return static_cast<unsigned>(blocks < 4096 ? (blocks == 0 ? 1 : blocks) : 4096);
}

} // namespace

int fillRankPattern(float* buffer, std::size_t count, int rank, std::size_t offset, void* stream)
{
    fillKernel<<<gridFor(count), 256, 0, static_cast<cudaStream_t>(stream)>>>(buffer, count, rank, offset);
    return static_cast<int>(cudaGetLastError());
}

int countWrongSum(const float* buffer, std::size_t count, int ranks, std::size_t offset, unsigned long long* wrong,
                  void* stream)
{
    countWrongSumKernel<<<gridFor(count), 256, 0, static_cast<cudaStream_t>(stream)>>>(buffer, count, ranks, offset, wrong);
    return static_cast<int>(cudaGetLastError());
}

} // namespace shardlab::kernels
