// Fill and verify kernels: inputs whose collective results are exactly predictable, and checks
// that count wrong elements (nccl-tests' #wrong).
//
// Each rank r fills element j with value(r, j) = (r + 1) + (j % 16) / 16. Every such value has at
// most four fraction bits and every partial sum of up to a few thousand of them stays below 2^19,
// so float additions are exact in any order: a reduction's expected result is
// sum_{g in group} (g + 1) + |group| * (j % 16) / 16, bit for bit, and a copy (broadcast,
// all-gather, send/recv) must reproduce the sender's value(r, j) exactly. The checks compare with
// != so that NaN (an element written with garbage) counts as wrong. Assumes any device of compute
// capability 7.5 or later; grid-stride loops, so any count works with the fixed grid below.
#include "shardlab/kernels.h"

#include <cuda_runtime.h>

namespace shardlab::kernels {
namespace {

__device__ __forceinline__ float fraction(std::size_t j) { return static_cast<float>(j & 15u) * 0.0625f; }

__device__ __forceinline__ float rankValue(int rank, std::size_t j)
{
    return static_cast<float>(rank + 1) + fraction(j);
}

__device__ __forceinline__ std::size_t firstIndex()
{
    return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
}
__device__ __forceinline__ std::size_t gridStride() { return static_cast<std::size_t>(gridDim.x) * blockDim.x; }

__global__ void fillPatternKernel(float* buffer, std::size_t count, int rank, std::size_t offset)
{
    for (std::size_t i = firstIndex(); i < count; i += gridStride())
        buffer[i] = rankValue(rank, offset + i);
}

__global__ void fillConstantKernel(float* buffer, std::size_t count, float value)
{
    for (std::size_t i = firstIndex(); i < count; i += gridStride())
        buffer[i] = value;
}

__device__ __forceinline__ void addWrong(unsigned long long local, unsigned long long* wrong)
{
    // one atomic per warp instead of one per thread
    for (int d = 16; d > 0; d /= 2)
        local += __shfl_down_sync(0xffffffffu, local, d);
    if ((threadIdx.x & 31u) == 0 && local)
        atomicAdd(wrong, local);
}

__global__ void countWrongSumKernel(const float* buffer, std::size_t count, float rankSum, int members,
                                    std::size_t offset, unsigned long long* wrong)
{
    unsigned long long local = 0;
    for (std::size_t i = firstIndex(); i < count; i += gridStride()) {
        const float expected = rankSum + static_cast<float>(members) * fraction(offset + i);
        local += !(buffer[i] == expected) ? 1u : 0u;
    }
    addWrong(local, wrong);
}

__global__ void countWrongCopyKernel(const float* buffer, std::size_t count, int rank, std::size_t offset,
                                     unsigned long long* wrong)
{
    unsigned long long local = 0;
    for (std::size_t i = firstIndex(); i < count; i += gridStride())
        local += !(buffer[i] == rankValue(rank, offset + i)) ? 1u : 0u;
    addWrong(local, wrong);
}

// Enough blocks to cover small buffers in one pass and to keep every SM of a large GPU busy on
// big ones (grid-stride beyond that). Block size is a multiple of the warp for addWrong.
unsigned gridFor(std::size_t count)
{
    const std::size_t blocks = (count + 255) / 256;
    return static_cast<unsigned>(blocks == 0 ? 1 : (blocks < 4096 ? blocks : 4096));
}

int launched() { return static_cast<int>(cudaGetLastError()); }

} // namespace

int fillPattern(float* buffer, std::size_t count, int rank, std::size_t offset, void* stream)
{
    if (count == 0)
        return 0;
    fillPatternKernel<<<gridFor(count), 256, 0, static_cast<cudaStream_t>(stream)>>>(buffer, count, rank, offset);
    return launched();
}

int fillConstant(float* buffer, std::size_t count, float value, void* stream)
{
    if (count == 0)
        return 0;
    fillConstantKernel<<<gridFor(count), 256, 0, static_cast<cudaStream_t>(stream)>>>(buffer, count, value);
    return launched();
}

int countWrongSum(const float* buffer, std::size_t count, float rankSum, int members, std::size_t offset,
                  unsigned long long* wrong, void* stream)
{
    if (count == 0)
        return 0;
    countWrongSumKernel<<<gridFor(count), 256, 0, static_cast<cudaStream_t>(stream)>>>(buffer, count, rankSum, members,
                                                                                       offset, wrong);
    return launched();
}

int countWrongCopy(const float* buffer, std::size_t count, int rank, std::size_t offset, unsigned long long* wrong,
                   void* stream)
{
    if (count == 0)
        return 0;
    countWrongCopyKernel<<<gridFor(count), 256, 0, static_cast<cudaStream_t>(stream)>>>(buffer, count, rank, offset,
                                                                                        wrong);
    return launched();
}

} // namespace shardlab::kernels
