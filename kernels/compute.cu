// The compute kernel of live runs and the injected-delay kernel.
//
// computeKernel stands in for a rank's work on its shard. It makes `items` element visits over a
// scratch buffer whose length is a power of two: each visit loads one float, runs `rounds` rounds
// of 8 independent fused multiply-adds on it (8 chains, so that few warps keep the FMA pipes busy)
// and stores the mean back. The visits come in small chunks, one block each, many blocks per SM in
// waves: the hardware hands the next block to whichever SM has room. A grid of one block per SM
// with a fixed share each (what this was before) ran 4x too long whenever an overlapping NCCL
// kernel held SMs at its launch: the displaced blocks doubled up on other SMs and kept their whole
// share there (issue 14: 7.7 ms for a 1.87 ms bucket). The fixed-work kernel measures the GPU's
// rate (calibration); live compute phases use timedComputeKernel, below, which lasts what it is
// asked whatever else runs. Its duration is
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

#include <algorithm>

namespace shardlab::kernels {
namespace {

// One visit of element i: a load, `rounds` rounds of 8 independent fused multiply-adds, the mean
// stored back (16 * rounds FLOP for 8 bytes). Both compute kernels do their work in these.
__device__ __forceinline__ void visit(float* data, std::size_t i, int rounds)
{
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

// With `endStamp`, the last block to finish writes %globaltimer there: the kernel stamps its own
// end (`blocksDone` is a zeroed counter). Called by every thread at the kernel's end.
__device__ __forceinline__ void stampIfLastBlock(std::uint64_t* endStamp, unsigned* blocksDone)
{
    if (!endStamp)
        return;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(blocksDone, 1u) == gridDim.x - 1)
            *endStamp = globalTimer();
    }
}

__global__ void __launch_bounds__(kComputeThreads)
    computeKernel(float* data, std::size_t mask, std::uint64_t items, std::uint64_t chunks, int rounds,
                  std::uint64_t* endStamp, unsigned* blocksDone)
{
    // Chunk c is kComputeVisitsPerThread x blockDim.x consecutive visits; a block takes chunks
    // blockIdx.x, blockIdx.x + gridDim.x, ... (one each unless the grid had to be capped).
    for (std::uint64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
        const std::uint64_t first = c * kComputeVisitsPerThread * blockDim.x + threadIdx.x;
        for (unsigned k = 0; k < kComputeVisitsPerThread; ++k) {
            const std::uint64_t w = first + static_cast<std::uint64_t>(k) * blockDim.x;
            if (w >= items)
                break;
            const std::size_t i = static_cast<std::size_t>(w) & mask;
            visit(data, i, rounds);
        }
    }
    stampIfLastBlock(endStamp, blocksDone);
}

// One block per SM (leaving room for NCCL's kernels), each thread visiting elements with `rounds`
// FMA rounds, until %globaltimer passes the deadline: the first block to start writes its start
// to *start (zeroed before the launch), and every block stops at that start + `nanoseconds`. A
// block that the hardware could not place at once (an overlapping NCCL kernel held its SM) joins
// late and stops at the same deadline, so the phase lasts what was asked however the blocks land.
__global__ void __launch_bounds__(kComputeThreads)
    timedComputeKernel(float* data, std::size_t mask, std::uint64_t nanoseconds, int rounds, unsigned long long* start,
                       std::uint64_t* endStamp, unsigned* blocksDone)
{
    __shared__ std::uint64_t deadline;
    if (threadIdx.x == 0) {
        const std::uint64_t now = globalTimer();
        const unsigned long long first = atomicCAS(start, 0ULL, static_cast<unsigned long long>(now));
        deadline = (first == 0 ? now : first) + nanoseconds;
    }
    __syncthreads();
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t w = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; globalTimer() < deadline;
         w += stride) {
        const std::size_t i = static_cast<std::size_t>(w) & mask;
        visit(data, i, rounds);
    }
    stampIfLastBlock(endStamp, blocksDone);
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

int launchCompute(float* data, std::size_t countPow2, std::uint64_t items, int rounds, void* stream,
                  std::uint64_t* endStamp, unsigned* blocksDone)
{
    if (items == 0 || countPow2 == 0 || (countPow2 & (countPow2 - 1)) != 0 || rounds < 1 || (endStamp && !blocksDone))
        return static_cast<int>(cudaErrorInvalidValue);
    const std::uint64_t perChunk = static_cast<std::uint64_t>(kComputeThreads) * kComputeVisitsPerThread;
    const std::uint64_t chunks = (items + perChunk - 1) / perChunk;
    const auto grid = static_cast<unsigned>(std::min<std::uint64_t>(chunks, 0x7fffffffULL));
    computeKernel<<<grid, kComputeThreads, 0, static_cast<cudaStream_t>(stream)>>>(data, countPow2 - 1, items, chunks,
                                                                                   rounds, endStamp, blocksDone);
    return static_cast<int>(cudaGetLastError());
}

int launchTimedCompute(float* data, std::size_t countPow2, std::uint64_t nanoseconds, int rounds, unsigned blocks,
                       std::uint64_t* start, void* stream, std::uint64_t* endStamp, unsigned* blocksDone)
{
    if (countPow2 == 0 || (countPow2 & (countPow2 - 1)) != 0 || rounds < 1 || blocks == 0 || !start
        || (endStamp && !blocksDone))
        return static_cast<int>(cudaErrorInvalidValue);
    static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
    timedComputeKernel<<<blocks, kComputeThreads, 0, static_cast<cudaStream_t>(stream)>>>(
        data, countPow2 - 1, nanoseconds, rounds, reinterpret_cast<unsigned long long*>(start), endStamp, blocksDone);
    return static_cast<int>(cudaGetLastError());
}

int launchSpin(std::uint64_t nanoseconds, void* stream, std::uint64_t* endStamp)
{
    spinKernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(nanoseconds, endStamp);
    return static_cast<int>(cudaGetLastError());
}

} // namespace shardlab::kernels
