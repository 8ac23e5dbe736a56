// Host launchers of ShardLab's CUDA kernels. Plain C++ types only: `stream` is a cudaStream_t
// passed as void*, so that callers need no CUDA header. Each returns the cudaError_t of the
// launch as an int (0 = success).
#pragma once

#include <cstddef>

namespace shardlab::kernels {

// buffer[i] = value(rank, offset + i): a value whose sum over ranks is exact in float.
// value(rank, j) = (rank + 1) + (j % 16) / 16: exactly representable, and a sum over up to 4096
// ranks of such values stays exact in float (at most 2^24 in magnitude with 4 fraction bits).
int fillRankPattern(float* buffer, std::size_t count, int rank, std::size_t offset, void* stream);

// Counts elements of `buffer` that differ from expected(offset + i), where expected is the value
// every rank should hold after the collective (see kernels.cu). The count is atomically added
// to *wrong (device memory).
int countWrongSum(const float* buffer, std::size_t count, int ranks, std::size_t offset, unsigned long long* wrong,
                  void* stream);

} // namespace shardlab::kernels
