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
// A sequence that ends with something else (a final check's all-reduces, a checkpoint's
// all-gather: up to kMaxWrapUp calls) has a wrap-up: the search runs on each shorter prefix too
// (O(kMaxWrapUp n)), and the pattern that covers the most calls with its steps wins (the shortest
// wrap-up among equals). Limits: a step that ends differently from how it starts cannot be told
// from a rotation of itself (the first step is taken to start where the repetition starts).
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
    int root = -1; // reduce and broadcast; send/recv: the sender; -1 otherwise
    std::uint64_t communicator = 0;
    int peer = -1; // send/recv: the receiver
    bool operator==(const CollectiveKey&) const = default;
};

inline constexpr size_t kMinSteps = 3;
// The most calls after the last step that are not part of it (records that end normally only).
inline constexpr size_t kMaxWrapUp = 64;

struct StepPattern {
    size_t prefix = 0; // calls before the first step
    size_t period = 0; // calls per step
    size_t steps = 0;  // complete steps
    size_t tail = 0;   // calls of an incomplete last step (0 unless allowed)
    size_t wrapUp = 0; // calls after the last step (a final check, a checkpoint; at most kMaxWrapUp)
    bool operator==(const StepPattern&) const = default;
};

// nullopt: no step found (fewer than kMinSteps repetitions); the caller keeps one iteration.
std::optional<StepPattern> findSteps(const std::vector<CollectiveKey>& calls, bool recordsEndEarly);

// The steps of a job of several communicators (profile_match.h): each rank's own sequence of
// operations (collectives of every communicator it is in, its sends and receives) has its steps
// (findSteps); they must agree: every rank the same number of steps, every operation in the same
// step (or the set-up) on each of its members. The step's operations are then put in one order
// that keeps every rank's own (a topological order of the first step's operations, the earlier
// first where two are free): an operation's slot. The job's step is that order of `period` slots.
struct JobSteps {
    StepPattern pattern;        // prefix: set-up operations of all ranks; period: slots per step
    std::vector<int> iteration; // per MatchedProfile::ops entry: its step (-1: set-up; steps + 1: wrap-up)
    std::vector<int> slot;      // its place in the step (-1: set-up)
};
struct MatchedProfile;
std::optional<JobSteps> findJobSteps(const MatchedProfile& profile, bool recordsEndEarly);

} // namespace shardlab
