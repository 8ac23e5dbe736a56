// Sizes, bandwidths and times, and their text forms.
//
// Scenario files follow SI and IEC: "16 GB" = 16e9 bytes, "16 GiB" = 16 * 2^30 bytes.
// The bench command line follows nccl-tests: "1M" = "1MB" = 1,048,576 bytes (binary).
// Bandwidth is GB/s = 1e9 bytes per second, per direction. Times inside the engine are
// microseconds held in double.
#pragma once

#include "shardlab/base/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace shardlab {

using Bytes = std::uint64_t;

// Largest size any field accepts (1 PB): beyond it a value is almost certainly a typo.
inline constexpr Bytes kMaxBytes = 1'000'000'000'000'000ULL;

// Parses "16 GB", "16GiB", "512 MB", "1.5 TB", "4096" or "4096 B". SI prefixes (kB, KB, MB, GB,
// TB, PB) are powers of 1000, IEC ones (KiB, MiB, GiB, TiB, PiB) powers of 1024.
Result<Bytes> parseSize(std::string_view text);

// Parses a bench size as nccl-tests does: "8", "8B", "64K", "1M", "4G", "1GB" are binary.
Result<Bytes> parseBenchSize(std::string_view text);

// Parses "25 GB/s", "400 Gb/s" (bits), "25" (GB/s). Returns GB/s.
Result<double> parseBandwidth(std::string_view text);

// "24 GB", "1.5 GB", "512 MB", "8 B": SI, at most three significant digits.
std::string formatBytes(Bytes bytes);
// Bench sizes in nccl-tests' style (binary): "8 B", "64 KiB", "1 GiB".
std::string formatBinaryBytes(Bytes bytes);
// "1.25 ms", "850 us", "2.40 s" from microseconds.
std::string formatMicros(double us);

// Parses an amount of work: "4 TFLOP", "1.68 TFLOP", "500 GFLOP", "2e12" (FLOP). Prefixes k, M, G,
// T, P are powers of 1000. Accepts 0 to 1e24 FLOP.
Result<double> parseFlops(std::string_view text);
// "1.68 TFLOP", "500 GFLOP", "0 FLOP": SI, at most three significant digits.
std::string formatFlops(double flops);
// "450 GB/s", "15.8 GB/s", "0.5 GB/s" from GB/s: at most three significant digits.
std::string formatBandwidth(double gbps);

// A share (0.026) as a percentage, the one way every page, file and table writes it: one decimal
// below 10 % ("2.6%", "0.6%"), none from there ("92%"), "0%" for nothing; so a card, a sentence and
// a table never show 2.6 % and 3 % for one figure.
std::string formatPercent(double share);

inline constexpr double kGB = 1e9;

} // namespace shardlab
