// Timestamps on the GPU's global timer, and the probe that aligns that timer with the host clock.
//
// timerSeriesKernel reads the timer back to back, to find its tick.
//
// stampKernel (one thread) writes %globaltimer, in nanoseconds, into a slot of device memory when
// its stream reaches it: placed between two pieces of work on a stream, it marks the moment the
// first ended and the second could begin. The live engine puts one stamp at every phase boundary.
//
// clockProbeKernel (one thread) plays ping-pong with the host through mapped host memory: for
// round k it waits for the host to raise *flag to k, reads %globaltimer, writes it to out[k - 1] and
// acknowledges with *ack = k. The host brackets each reading between its clock before raising the
// flag and after seeing the ack; the reading happened inside that bracket, so half the bracket is
// an upper bound on the alignment error of that round. Assumes compute capability 7.0 or later
// and host memory mapped into the device (unified virtual addressing, every 64-bit platform).
#include "global_timer.cuh"
#include "shardlab/kernels.h"

#include <cuda_runtime.h>

namespace shardlab::kernels {
namespace {

__global__ void stampKernel(std::uint64_t* slot) { *slot = globalTimer(); }

__global__ void clockProbeKernel(volatile unsigned* flag, volatile unsigned* ack, std::uint64_t* out, int rounds)
{
    for (int k = 1; k <= rounds; ++k) {
        while (*flag < static_cast<unsigned>(k)) {
        }
        const std::uint64_t t = globalTimer();
        *reinterpret_cast<volatile std::uint64_t*>(out + (k - 1)) = t;
        __threadfence_system();
        *ack = static_cast<unsigned>(k);
        __threadfence_system();
    }
}

__global__ void timerSeriesKernel(std::uint64_t* out, int n)
{
    for (int i = 0; i < n; ++i)
        out[i] = globalTimer();
}

} // namespace

int launchTimerSeries(std::uint64_t* out, int n, void* stream)
{
    timerSeriesKernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(out, n);
    return static_cast<int>(cudaGetLastError());
}

int launchStamp(std::uint64_t* slot, void* stream)
{
    stampKernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(slot);
    return static_cast<int>(cudaGetLastError());
}

int launchClockProbe(volatile unsigned* flag, volatile unsigned* ack, std::uint64_t* out, int rounds, void* stream)
{
    clockProbeKernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(flag, ack, out, rounds);
    return static_cast<int>(cudaGetLastError());
}

} // namespace shardlab::kernels
