#include "shardlab/model/collectives.h"
#include "shardlab/model/program.h"

namespace shardlab {

const char* opName(OpKind kind)
{
    for (const OpInfo& i : kOpInfos)
        if (i.kind == kind)
            return i.name;
    return "?";
}

const char* opDisplayName(OpKind kind)
{
    for (const OpInfo& i : kOpInfos)
        if (i.kind == kind)
            return i.display;
    return "?";
}

std::optional<OpKind> opFromName(std::string_view name)
{
    for (const OpInfo& i : kOpInfos)
        if (name == i.name)
            return i.kind;
    // nccl-tests' names, so that `--collective all_reduce_perf`-style habits work too
    if (name == "allreduce")
        return OpKind::AllReduce;
    if (name == "allgather")
        return OpKind::AllGather;
    if (name == "reducescatter")
        return OpKind::ReduceScatter;
    if (name == "sendrecv")
        return OpKind::SendRecv;
    return std::nullopt;
}

bool isCollective(OpKind kind) { return kind != OpKind::Compute; }

double busBandwidthFactor(OpKind kind, int n)
{
    if (n <= 1)
        return kind == OpKind::SendRecv || kind == OpKind::Broadcast || kind == OpKind::Reduce ? 1.0 : 0.0;
    const double dn = n;
    switch (kind) {
    case OpKind::AllReduce:
    case OpKind::ReduceScatterAllGather: return 2.0 * (dn - 1) / dn;
    case OpKind::AllGather:
    case OpKind::AllGatherV:
    case OpKind::ReduceScatter: return (dn - 1) / dn;
    case OpKind::Broadcast:
    case OpKind::Reduce:
    case OpKind::SendRecv: return 1.0;
    case OpKind::Compute: return 0.0;
    }
    return 0.0;
}

Bytes resultBytesPerRank(OpKind kind, Bytes bytes, int n, bool isRoot)
{
    switch (kind) {
    case OpKind::AllReduce:
    case OpKind::ReduceScatterAllGather:
    case OpKind::AllGather:
    case OpKind::AllGatherV:
    case OpKind::Broadcast: return bytes; // every rank ends with the whole buffer
    case OpKind::ReduceScatter: return n > 0 ? bytes / static_cast<Bytes>(n) : bytes; // its slice of the sum
    case OpKind::Reduce: return isRoot ? bytes : 0;
    case OpKind::SendRecv: return isRoot ? 0 : bytes; // the receiver holds the data
    case OpKind::Compute: return 0;
    }
    return 0;
}

OpKind collectiveFor(Need need, bool unequalPieces)
{
    switch (need) {
    case Need::SumOnOneRank: return OpKind::Reduce;
    case Need::SumOnEveryRank: return OpKind::AllReduce;
    case Need::SliceOfSumOnEveryRank: return OpKind::ReduceScatter;
    case Need::ConcatenationOnEveryRank: return unequalPieces ? OpKind::AllGatherV : OpKind::AllGather;
    case Need::CopyOfOneRanksData: return OpKind::Broadcast;
    }
    return OpKind::AllReduce;
}

std::vector<ProgramStep> expandSteps(const std::vector<Op>& program)
{
    std::vector<ProgramStep> steps;
    for (size_t i = 0; i < program.size(); ++i) {
        const Op& op = program[i];
        const bool interleave = op.kind == OpKind::Compute && i + 1 < program.size()
                                && isCollective(program[i + 1].kind) && program[i + 1].overlap
                                && program[i + 1].buckets == op.buckets && op.buckets > 1;
        if (interleave) {
            for (int b = 0; b < op.buckets; ++b) {
                steps.push_back({static_cast<int>(i), b});
                steps.push_back({static_cast<int>(i + 1), b});
            }
            ++i;
            continue;
        }
        for (int b = 0; b < op.buckets; ++b)
            steps.push_back({static_cast<int>(i), b});
    }
    return steps;
}

} // namespace shardlab
