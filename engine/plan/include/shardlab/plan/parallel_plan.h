// A composed parallel plan over a device mesh: tensor (with sequence) parallel, context parallel,
// pipeline parallel with its schedule, data parallel with its ZeRO/FSDP stage, and expert parallel
// for a mixture of experts, mapped onto the machine's ranks. docs/planner.md, "The plan".
#pragma once

#include "shardlab/model/enum_names.h"
#include "shardlab/model/mesh_order.h"
#include "shardlab/model/topology.h"
#include "shardlab/plan/training.h"
#include "shardlab/plan/transformer.h"
#include "shardlab/text/message.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

// What data parallelism shards over its replicas (Rajbhandari et al. 2020): nothing (every replica
// holds the whole optimizer state, gradients and weights), the optimizer state (1), also the
// gradients (2), also the weights (3). FSDP (PyTorch FULL_SHARD) shards as stage 3 does.
enum class ZeroStage { None, Optimizer, Gradients, Weights, Fsdp };
inline constexpr EnumName<ZeroStage> kZeroStageNames[] = {{ZeroStage::None, "0"},
                                                          {ZeroStage::Optimizer, "1"},
                                                          {ZeroStage::Gradients, "2"},
                                                          {ZeroStage::Weights, "3"},
                                                          {ZeroStage::Fsdp, "fsdp"}};
static_assert(listsEveryValueInOrder(kZeroStageNames, ZeroStage::Fsdp));
constexpr bool shardsWeights(ZeroStage zero) { return zero == ZeroStage::Weights || zero == ZeroStage::Fsdp; }

// GPipe runs every micro-batch's forward pass, then every backward pass; 1F1B alternates them once
// the pipeline is full (Narayanan et al. 2021, "PipeDream-Flush"); interleaved 1F1B gives each rank
// V chunks of layers (virtual stages), dividing the bubble by V at V times the point-to-point sends.
enum class ScheduleKind { GPipe, OneFOneB, Interleaved };
inline constexpr EnumName<ScheduleKind> kScheduleNames[] = {
    {ScheduleKind::GPipe, "gpipe"}, {ScheduleKind::OneFOneB, "1f1b"}, {ScheduleKind::Interleaved, "interleaved"}};
static_assert(listsEveryValueInOrder(kScheduleNames, ScheduleKind::Interleaved));

struct PipelineSchedule {
    ScheduleKind kind = ScheduleKind::OneFOneB;
    int virtualStages = 1; // V, for Interleaved
    bool operator==(const PipelineSchedule&) const = default;
};
// "gpipe", "1f1b", "interleaved:V" (V >= 2).
std::optional<PipelineSchedule> scheduleFromText(std::string_view text);
std::string scheduleText(const PipelineSchedule& schedule);

// The mesh axes and their order: shardlab/model/mesh_order.h.

struct ParallelPlan {
    int tp = 1, cp = 1, pp = 1, dp = 1, ep = 1;
    // How ranks are laid out: by default TP on consecutive ranks (inside a node), then CP, PP, DP
    // outward; another order moves the groups onto other GPUs (`--order dp,tp,pp,cp` spreads each
    // TP group over nodes, to show why it should not be).
    MeshOrder order = kDefaultMeshOrder;
    ZeroStage zero = ZeroStage::None;
    bool sequenceParallel = true; // with tp > 1: norms and dropout split along the sequence (Korthikanti 2022)
    PipelineSchedule schedule;
    // Data-parallel gradient reduction (and ZeRO's gathers) overlapped with the backward pass in
    // buckets, as Megatron-LM's --overlap-grad-reduce and PyTorch DDP/FSDP do; off: after it.
    bool overlapDataParallel = true;
    bool operator==(const ParallelPlan&) const = default;

    int gpus() const { return tp * cp * pp * dp; }
};
// "TP 8 x PP 4 x DP 2, ZeRO-1, 1F1B": the plan in one line (the same in every language).
std::string planText(const ParallelPlan& plan);

// Where each rank sits on the mesh, and the groups of each axis.
struct MeshCoordinate {
    int tp = 0, cp = 0, pp = 0, dp = 0;
};
MeshCoordinate meshCoordinate(const ParallelPlan& plan, int rank);
int rankAt(const ParallelPlan& plan, const MeshCoordinate& at);
// The ranks of `axis`'s group that `rank` belongs to, in the axis's order.
std::vector<int> meshGroup(const ParallelPlan& plan, MeshAxis axis, int rank);

// Layers on each pipeline stage: as even as can be; where the stages do not divide the layers, the
// first and last stages (which also hold the embedding and the output layer) get one fewer, as
// Llama 3 405B's 126 layers on 16 stages did (Dubey et al. 2024, section 3.3.2).
std::vector<int> layersPerStage(const TransformerModel& model, int pp);

// The global batch the settings give for the plan (TrainingSettings::globalBatch, or one sequence
// per GPU rounded up to whole micro-batches of every replica) and the micro-batches per step.
int globalBatchOf(const TrainingSettings& settings, const ParallelPlan& plan);
int microBatchesPerStep(const TrainingSettings& settings, const ParallelPlan& plan);
// The vocabulary as Megatron-LM pads it: up to a multiple of 128 * TP, so the output layer splits
// evenly over the tensor-parallel ranks.
int paddedVocab(const TransformerModel& model, const ParallelPlan& plan);

// What makes a plan impossible for the model, the settings and the machine (its GPU count, fp8), each a sentence naming
// the numbers (plan.inc's plan.refuse.*); empty: the plan can run. Memory is not checked here
// (plan_memory.h marks a plan that does not fit).
std::vector<Message> planProblems(const TransformerModel& model, const TrainingSettings& settings,
                                  const ParallelPlan& plan, const Topology& machine);
// Facts worth saying about a plan that can run (uneven stages, padded vocabulary, ZeRO without
// data parallelism...), plan.inc's plan.note.*.
std::vector<Message> planNotes(const TransformerModel& model, const TrainingSettings& settings,
                               const ParallelPlan& plan);

} // namespace shardlab
