// A profiled program's steps (docs/profiling.md, "From records to a run"): the repeating part of
// its sequence of collectives. A training loop calls the same collectives in the same order every
// step (8 bucketed all-reduces, say); the step is the shortest period P such that the sequence,
// after an optional prefix (set-up calls: a broadcast of the weights, a warm-up), repeats with
// period P to its very end, at least kMinSteps times. A last, incomplete repetition (a prefix of
// the step) is allowed only where the records end early.
//
// How (O(n)): the suffix s[L..n) has period P exactly when the reversed sequence's prefix of
// length n-L has period P; the prefix function (Knuth-Morris-Pratt) of the reversed sequence gives
// every prefix's shortest period m - pi(m-1) at once. The longest periodic suffix with enough
// repetitions wins (shortest prefix), with its shortest period. Without an incomplete last
// repetition the period must divide the suffix's length; by Fine and Wilf's theorem, when any
// period dividing m with two or more repetitions exists, the shortest period divides it too.
// Limits: a step that ends differently from how it starts cannot be told from a rotation of
// itself (the first step is taken to start where the repetition starts); a sequence that ends with
// something else (a final checkpoint's all-gather) has no step under this rule.
#pragma once

#include "shardlab/model/program.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace shardlab {

// What identifies a collective call of the program: same key, same call.
struct CollectiveKey {
    OpKind kind = OpKind::AllReduce;
    std::uint64_t bytes = 0;
    int root = -1;                 // reduce and broadcast; -1 otherwise
    std::uint64_t communicator = 0;
    bool operator==(const CollectiveKey&) const = default;
};

inline constexpr size_t kMinSteps = 3;

struct StepPattern {
    size_t prefix = 0; // calls before the first step
    size_t period = 0; // calls per step
    size_t steps = 0;  // complete steps
    size_t tail = 0;   // calls of an incomplete last step (0 unless allowed)
    bool operator==(const StepPattern&) const = default;
};

// nullopt: no step found (fewer than kMinSteps repetitions); the caller keeps one iteration.
std::optional<StepPattern> findSteps(const std::vector<CollectiveKey>& calls, bool recordsEndEarly);

} // namespace shardlab
