// How a model is trained: sequence length, batch, precision, activation recomputation. The
// optimizer is Adam with fp32 master weights and two fp32 moments (docs/planner.md, "Memory").
#pragma once

#include "shardlab/model/enum_names.h"

#include <optional>
#include <string_view>

namespace shardlab {

enum class Precision { Bf16, Fp8 };
// Korthikanti et al. 2022: none keeps every activation; selective recomputes the attention core
// (softmax, its dropout, the attention over V) in the backward pass; full keeps each layer's input
// only and runs the layer's forward pass again before its backward pass.
enum class Recompute { None, Selective, Full };

inline constexpr EnumName<Precision> kPrecisionNames[] = {{Precision::Bf16, "bf16"}, {Precision::Fp8, "fp8"}};
static_assert(listsEveryValueInOrder(kPrecisionNames, Precision::Fp8));
inline constexpr EnumName<Recompute> kRecomputeNames[] = {
    {Recompute::None, "none"}, {Recompute::Selective, "selective"}, {Recompute::Full, "full"}};
static_assert(listsEveryValueInOrder(kRecomputeNames, Recompute::Full));

struct TrainingSettings {
    int seq = 4096;      // tokens per sequence
    int microBatch = 1;  // sequences per micro-batch (per data-parallel replica)
    int globalBatch = 0; // sequences per step; 0: one per GPU, rounded up to whole micro-batches
    Precision precision = Precision::Bf16;
    Recompute recompute = Recompute::Selective;
    // Attention computed in tiles without storing the score matrix (FlashAttention): no s*s
    // activations, the scores recomputed in the backward pass. Off for runs made before it (2022).
    bool flashAttention = true;
    bool operator==(const TrainingSettings&) const = default;
};

} // namespace shardlab
