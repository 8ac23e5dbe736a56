// Checking what a collective left in each rank's buffer, the way the course's practical asks
// ("verify the reduced result on every rank"). Buffers hold the pattern the live engine's fill
// kernel writes; the expected value of every element after each collective is a closed form, so
// a result computed by applyCollective() (simulation) or by NCCL (live) is checked against an
// independent answer, not against itself.
#pragma once

#include "shardlab/model/collectives.h"
#include "shardlab/model/semantics.h"

#include <cstdint>
#include <string>
#include <vector>

namespace shardlab {

// Rank r fills element j with (r + 1) + (j mod 16) / 16. Every value is a multiple of 1/16, so
// sums of them are exact in floating point and the check needs no tolerance.
double fillValue(int rank, std::uint64_t element);

// The expected value of element j after an all-reduce (sum) over `ranks` ranks 0..n-1:
//   sum_r [(r + 1) + (j mod 16)/16] = n(n + 1)/2 + n (j mod 16)/16
double allReduceExpected(int ranks, std::uint64_t element);

// What one collective does to the filled buffers of its group, checked element by element.
struct VerifiedRank {
    int rank = 0;
    std::vector<double> input;    // the rank's buffer before the collective
    std::vector<double> result;   // what applyCollective() leaves in it
    std::vector<double> expected; // the closed form for each element of `result`
    std::uint64_t wrong = 0;      // elements of `result` that differ from `expected`
};

// `group` lists the ranks in call order; `root` and `peer` are ranks (not positions), as in Op.
// Each rank contributes `elements` values (for reduce-scatter the count is rounded up to a
// multiple of the group size). Errors: a rank that is not in the group, or a kind that is not a
// collective.
Result<std::vector<VerifiedRank>> verifyCollective(OpKind kind, const std::vector<int>& group, std::uint64_t elements,
                                                   int root = 0, int peer = 1);

// "1.0000, 1.0625, 1.1250, 1.1875, ... (256 values)": the first `shown` values of a buffer.
std::string formatValues(const std::vector<double>& values, size_t shown = 4);

} // namespace shardlab
