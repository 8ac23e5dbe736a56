// Host launchers of ShardLab's CUDA kernels. Plain C++ types only: `stream` is a cudaStream_t
// passed as void*, so that callers need no CUDA header. Each returns the cudaError_t of the
// launch as an int (0 = success). Every launcher uses the current device (cudaSetDevice first).
#pragma once

#include <cstddef>
#include <cstdint>

namespace shardlab::kernels {

// ---- Fill and verify (fill_verify.cu) ---------------------------------------------------------
//
// value(rank, j) = (rank + 1) + (j % 16) / 16: exactly representable in float, and any sum of such
// values over up to a few thousand ranks stays exact whatever the order of the additions (every
// partial sum is below 2^19 and carries at most 4 fraction bits). So every collective's result is
// known bit for bit:
//   sum over a group G at index j = sum_{g in G} (g + 1) + |G| * (j % 16) / 16
//   copy of rank r's data at index j = value(r, j)

// buffer[i] = value(rank, offset + i).
int fillPattern(float* buffer, std::size_t count, int rank, std::size_t offset, void* stream);
// buffer[i] = value (poison for outputs, so that an element nobody wrote counts as wrong).
int fillConstant(float* buffer, std::size_t count, float value, void* stream);
// Adds to *wrong (device memory) the number of i with buffer[i] != rankSum + members * ((offset + i) % 16) / 16,
// where rankSum = sum over the group of (rank + 1). NaN counts as wrong.
int countWrongSum(const float* buffer, std::size_t count, float rankSum, int members, std::size_t offset,
                  unsigned long long* wrong, void* stream);
// Adds to *wrong the number of i with buffer[i] != value(rank, offset + i).
int countWrongCopy(const float* buffer, std::size_t count, int rank, std::size_t offset, unsigned long long* wrong,
                   void* stream);

// ---- GEMM inputs (gemm_inputs.cu) ---------------------------------------------------------------
//
// buffer (count bf16 elements) = values in [-1, 1) from a hash of (seed, index).
int fillNoiseBf16(void* buffer, std::size_t count, std::uint32_t seed, void* stream);

// ---- Compute and delay (compute.cu) ------------------------------------------------------------
//
// The compute kernel does `items` element visits over `data` (count must be a power of two): each
// visit loads one float, runs `rounds` rounds of 8 independent fused multiply-adds on it and
// stores the result. FLOP per visit = 16 * rounds; bytes per visit = 8 (one load, one store), so
// the arithmetic intensity is 2 * rounds FLOP/byte. Blocks of 256 threads take
// kComputeVisitsPerThread visits per thread each, as many blocks as the visits need: the hardware
// balances them over the SMs, also while an overlapping NCCL kernel holds some of them.
// With `endStamp` (and `blocksDone`, a zeroed counter in device memory), the last block to finish
// writes %globaltimer to *endStamp: the kernel stamps its own end, so a timeline costs no launch.
int launchCompute(float* data, std::size_t countPow2, std::uint64_t items, int rounds, void* stream,
                  std::uint64_t* endStamp = nullptr, unsigned* blocksDone = nullptr);
constexpr double computeFlopPerItem(int rounds) { return 16.0 * rounds; }
constexpr unsigned kComputeThreads = 256;
constexpr unsigned kComputeVisitsPerThread = 16;

// A live compute phase: `blocks` blocks (one per SM leaves room for NCCL's kernels) do the same
// visits as launchCompute until `nanoseconds` have passed since the first block started; *start
// (device memory, zeroed before the launch) receives that start. The phase lasts what is asked even
// while an overlapping NCCL kernel holds SMs (issue 14). Same end stamp as launchCompute.
int launchTimedCompute(float* data, std::size_t countPow2, std::uint64_t nanoseconds, int rounds, unsigned blocks,
                       std::uint64_t* start, void* stream, std::uint64_t* endStamp = nullptr,
                       unsigned* blocksDone = nullptr);

// One thread that spins until %globaltimer has advanced by `nanoseconds` (an injected delay: it
// occupies the stream, not the SMs), then writes the timer to *endStamp if given.
int launchSpin(std::uint64_t nanoseconds, void* stream, std::uint64_t* endStamp = nullptr);

// ---- Clocks (clock.cu) -------------------------------------------------------------------------
//
// Writes %globaltimer (nanoseconds, the GPU's global timer) to *slot when the stream reaches it.
int launchStamp(std::uint64_t* slot, void* stream);
// Clock probe for aligning %globaltimer with the host clock. `flag` and `out` are host memory
// mapped into the device (cudaHostAllocMapped). For k = 1..rounds: the kernel waits until
// *flag == k, then writes out[k - 1] = %globaltimer and *ack = k. The host raises the flag, reads its
// clock before and after seeing the ack, and so brackets each GPU reading.
int launchClockProbe(volatile unsigned* flag, volatile unsigned* ack, std::uint64_t* out, int rounds, void* stream);
// n back-to-back reads of %globaltimer into out[0..n) (device memory): the smallest step between
// consecutive readings is the timer's tick.
int launchTimerSeries(std::uint64_t* out, int n, void* stream);

} // namespace shardlab::kernels
