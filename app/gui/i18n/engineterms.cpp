#include "engineterms.h"

namespace shardlab::gui {

QString EngineTerms::op(OpKind kind)
{
    switch (kind) {
    case OpKind::Compute:
        return tr("Compute");
    case OpKind::AllReduce:
        return tr("All-Reduce");
    case OpKind::Reduce:
        return tr("Reduce");
    case OpKind::Broadcast:
        return tr("Broadcast");
    case OpKind::AllGather:
        return tr("All-Gather");
    case OpKind::AllGatherV:
        return tr("All-Gather (unequal sizes)");
    case OpKind::ReduceScatter:
        return tr("Reduce-Scatter");
    case OpKind::ReduceScatterAllGather:
        return tr("Reduce-Scatter + All-Gather");
    case OpKind::SendRecv:
        return tr("Send/Recv");
    }
    return {};
}

QString EngineTerms::need(Need need)
{
    switch (need) {
    case Need::SumOnOneRank:
        return tr("the sum on one rank");
    case Need::SumOnEveryRank:
        return tr("the sum on every rank");
    case Need::SliceOfSumOnEveryRank:
        return tr("each rank's slice of the sum");
    case Need::ConcatenationOnEveryRank:
        return tr("the concatenation of every rank's piece on every rank");
    case Need::CopyOfOneRanksData:
        return tr("a copy of one rank's data on every rank");
    }
    return {};
}

QString EngineTerms::bottleneck(Bottleneck b)
{
    switch (b) {
    case Bottleneck::Compute:
        return tr("compute");
    case Bottleneck::Communication:
        return tr("communication");
    case Bottleneck::Wait:
        return tr("wait");
    case Bottleneck::Capacity:
        return tr("capacity");
    }
    return {};
}

QString EngineTerms::linkKind(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink:
        return tr("NVLink");
    case LinkKind::Pcie:
        return tr("PCIe");
    case LinkKind::CrossSocket:
        return tr("cross-socket");
    case LinkKind::Network:
        return tr("network");
    }
    return {};
}

QString EngineTerms::linkKindWords(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink:
        return tr("NVLink");
    case LinkKind::Pcie:
        return tr("PCIe");
    case LinkKind::CrossSocket:
        return tr("the CPU-socket interconnect");
    case LinkKind::Network:
        return tr("the network");
    }
    return {};
}

} // namespace shardlab::gui
