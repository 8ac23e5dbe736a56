// The compute kernel of live runs and the injected-delay kernel.
//
// computeKernel stands in for a rank's work on its shard. It makes `items` element visits over a
// scratch buffer whose length is a power of two: each visit loads one float, runs `rounds` rounds
// of 8 independent fused multiply-adds on it (8 chains, so that one warp per scheduler keeps the
// FMA pipes busy without needing full occupancy) and stores the mean back. Its duration is
// therefore proportional to `items` at a fixed intensity (2 * rounds FLOP per byte moved), which is
// what the calibration in the live engine relies on: it measures the time per item on this GPU
// once and then asks for as many items as the requested milliseconds need. The values converge to
// 1 (x <- 0.999 x + 0.001), so nothing overflows however long it runs. Threads of different
// grid-stride passes may visit the same element; that race only changes which bounded value is
// stored, never the amount of work.
//
// spinKernel is one thread that waits on %globaltimer: an injected delay occupies its stream for
// the requested time without taking the SMs from anyone. Both kernels can stamp their own end
// (%globaltimer) for the live timeline, so that a timeline costs no extra launch for compute
// phases. Assumes compute capability 7.0 or later (__nanosleep).
#include "global_timer.cuh"
#include "shardlab/kernels.h"

#include <cuda_runtime.h>

namespace shardlab::kernels {
namespace {

__global__ void __launch_bounds__(kComputeThreads) computeKernel(float* data, std::size_t mask, std::uint64_t items,
                                                                 int rounds, std::uint64_t* endStamp, unsigned* blocksDone)
{
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t w = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; w < items; w += stride) {
        const std::size_t i = static_cast<std::size_t>(w) & mask;
        const float x = data[i];
        float a0 = x, a1 = x + 1.f, a2 = x + 2.f, a3 = x + 3.f, a4 = x + 4.f, a5 = x + 5.f, a6 = x + 6.f, a7 = x + 7.f;
#pragma unroll 4
        for (int r = 0; r < rounds; ++r) {
            a0 = fmaf(a0, 0.999f, 0.001f);
            a1 = fmaf(a1, 0.999f, 0.001f);
            a2 = fmaf(a2, 0.999f, 0.001f);
            a3 = fmaf(a3, 0.999f, 0.001f);
            a4 = fmaf(a4, 0.999f, 0.001f);
            a5 = fmaf(a5, 0.999f, 0.001f);
            a6 = fmaf(a6, 0.999f, 0.001f);
            a7 = fmaf(a7, 0.999f, 0.001f);
        }
        data[i] = (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7) * 0.125f;
    }
    if (endStamp) { // the last block to finish stamps the kernel's end
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            if (atomicAdd(blocksDone, 1u) == gridDim.x - 1)
                *endStamp = globalTimer();
        }
    }
}

__global__ void spinKernel(std::uint64_t nanoseconds, std::uint64_t* endStamp)
{
    const std::uint64_t start = globalTimer();
    std::uint64_t now = start;
    while (now - start < nanoseconds) {
        __nanosleep(256);
        now = globalTimer();
    }
    if (endStamp)
        *endStamp = now;
}

} // namespace

int launchCompute(float* data, std::size_t countPow2, std::uint64_t items, int rounds, unsigned blocks, void* stream,
                  std::uint64_t* endStamp, unsigned* blocksDone)
{
    if (items == 0 || countPow2 == 0 || (countPow2 & (countPow2 - 1)) != 0 || blocks == 0 || rounds < 1
        || (endStamp && !blocksDone))
        return static_cast<int>(cudaErrorInvalidValue);
    computeKernel<<<blocks, kComputeThreads, 0, static_cast<cudaStream_t>(stream)>>>(data, countPow2 - 1, items, rounds,
                                                                                   endStamp, blocksDone);
    return static_cast<int>(cudaGetLastError());
}

int launchSpin(std::uint64_t nanoseconds, void* stream, std::uint64_t* endStamp)
{
    spinKernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(nanoseconds, endStamp);
    return static_cast<int>(cudaGetLastError());
}

} // namespace shardlab::kernels
