// The operations of a step program and the facts about them that every part of ShardLab shares:
// names, what each rank holds afterwards, and nccl-tests' bus-bandwidth factors.
#pragma once

#include "shardlab/base/units.h"

#include <optional>
#include <string_view>
#include <vector>

namespace shardlab {

enum class OpKind {
    Compute,
    AllReduce,
    Reduce,
    Broadcast,
    AllGather,  // equal contributions
    AllGatherV, // unequal contributions (NCCL has none: built from grouped broadcasts)
    ReduceScatter,
    ReduceScatterAllGather, // reduce-scatter then all-gather: an all-reduce in two halves
    SendRecv,
};

// One row per operation: its name in files and on the command line, and its display name. A
// constexpr table, so that names can be read at compile time (CorrectionKey's literals).
struct OpInfo {
    OpKind kind;
    const char* name;
    const char* display;
};
inline constexpr OpInfo kOpInfos[] = {
    {OpKind::Compute, "compute", "Compute"},
    {OpKind::AllReduce, "all_reduce", "All-Reduce"},
    {OpKind::Reduce, "reduce", "Reduce"},
    {OpKind::Broadcast, "broadcast", "Broadcast"},
    {OpKind::AllGather, "all_gather", "All-Gather"},
    {OpKind::AllGatherV, "all_gather_v", "All-Gather (unequal sizes)"},
    {OpKind::ReduceScatter, "reduce_scatter", "Reduce-Scatter"},
    {OpKind::ReduceScatterAllGather, "reduce_scatter_all_gather", "Reduce-Scatter + All-Gather"},
    {OpKind::SendRecv, "send_recv", "Send/Recv"},
};

const char* opName(OpKind kind); // "compute", "all_reduce", ..., "send_recv"
std::optional<OpKind> opFromName(std::string_view name);
bool isCollective(OpKind kind);         // everything but Compute
const char* opDisplayName(OpKind kind); // "All-Reduce", "Reduce-Scatter + All-Gather", ...

// nccl-tests doc/PERFORMANCE.md: busbw = algbw * factor, where algbw = size / time and size is
// the full buffer (the gathered output for all-gather, the input for reduce-scatter).
//   all-reduce 2(n-1)/n; all-gather, reduce-scatter (n-1)/n; broadcast, reduce, send/recv 1.
// Reduce-scatter + all-gather moves what an all-reduce moves, so it takes the all-reduce factor.
double busBandwidthFactor(OpKind kind, int ranks);

// Bytes that each rank holds as the operation's result, for an operation on `bytes` (the
// nccl-tests size). For all-gather-v, `bytes` is the gathered total. Used for peak memory.
Bytes resultBytesPerRank(OpKind kind, Bytes bytes, int ranks, bool isRoot);

// What the next step needs, and the collective that delivers exactly that (the course's rule:
// choose the collective from its consumer).
enum class Need { SumOnOneRank, SumOnEveryRank, SliceOfSumOnEveryRank, ConcatenationOnEveryRank, CopyOfOneRanksData };
OpKind collectiveFor(Need need, bool unequalPieces = false);

} // namespace shardlab
