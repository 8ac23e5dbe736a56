// A matrix multiplication by its shape: what `shardlab calibrate --compute` times, and what a live
// compute step of a plan's scenario runs on each of its ranks (Op::gemms).
#pragma once

namespace shardlab {

// A GEMM [m, k] x [k, n] -> [m, n] of row-major bf16 matrices (as PyTorch's a @ b), fp32
// accumulation: 2 * m * n * k FLOP.
struct GemmShape {
    long long m = 0, n = 0, k = 0;
    double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
    // inputs and output, in bytes (2 bytes an element)
    double bytes() const
    {
        return 2.0 * (static_cast<double>(m) * k + static_cast<double>(k) * n + static_cast<double>(m) * n);
    }
    bool operator==(const GemmShape&) const = default;
};

// Largest m, n or k a shape may have (2^20); a shape beyond it, or with a side below 1, is refused.
inline constexpr long long kMaxGemmSide = 1LL << 20;

// One shape run `count` times in a row.
struct OpGemm {
    GemmShape shape;
    int count = 1;
    bool operator==(const OpGemm&) const = default;
};
inline constexpr int kMaxGemmCount = 100000;

} // namespace shardlab
