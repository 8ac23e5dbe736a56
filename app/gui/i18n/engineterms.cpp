#include "i18n/engineterms.h"

#include <QCoreApplication>

namespace shardlab::gui {

QString EngineTerms::op(OpKind kind)
{
    switch (kind) {
    case OpKind::Compute: return tr("Compute");
    case OpKind::AllReduce: return tr("All-Reduce");
    case OpKind::Reduce: return tr("Reduce");
    case OpKind::Broadcast: return tr("Broadcast");
    case OpKind::AllGather: return tr("All-Gather");
    case OpKind::AllGatherV: return tr("All-Gather (unequal sizes)");
    case OpKind::ReduceScatter: return tr("Reduce-Scatter");
    case OpKind::ReduceScatterAllGather: return tr("Reduce-Scatter + All-Gather");
    case OpKind::SendRecv: return tr("Send/Recv");
    }
    return {};
}

QString EngineTerms::need(Need need)
{
    switch (need) {
    case Need::SumOnOneRank: return tr("the sum on one rank");
    case Need::SumOnEveryRank: return tr("the sum on every rank");
    case Need::SliceOfSumOnEveryRank: return tr("each rank's slice of the sum");
    case Need::ConcatenationOnEveryRank: return tr("the concatenation of every rank's piece on every rank");
    case Need::CopyOfOneRanksData: return tr("a copy of one rank's data on every rank");
    }
    return {};
}

QString EngineTerms::bottleneck(Bottleneck b)
{
    switch (b) {
    case Bottleneck::Compute: return tr("compute");
    case Bottleneck::Communication: return tr("communication");
    case Bottleneck::Wait: return tr("wait");
    case Bottleneck::Capacity: return tr("capacity");
    case Bottleneck::Hang: return tr("hang");
    }
    return {};
}

namespace {
// The one table of link classes as the GUI shows them: linkKindName() and linkKindWords() of the
// engine, and the editor's label (Labels::linkKind, translated in the "Labels" context).
struct LinkTerms {
    LinkKind kind;
    const char* name;  // a table cell: "cross-socket"
    const char* words; // in a sentence: "crosses the CPU-socket interconnect"
    const char* label; // the editor's choice: "Cross-socket (SYS)"
};
constexpr LinkTerms kLinkTerms[] = {
    {LinkKind::NvLink, QT_TRANSLATE_NOOP("EngineTerms", "NVLink"), QT_TRANSLATE_NOOP("EngineTerms", "NVLink"),
     QT_TRANSLATE_NOOP("Labels", "NVLink")},
    {LinkKind::Pcie, QT_TRANSLATE_NOOP("EngineTerms", "PCIe"), QT_TRANSLATE_NOOP("EngineTerms", "PCIe"),
     QT_TRANSLATE_NOOP("Labels", "PCIe")},
    {LinkKind::CrossSocket, QT_TRANSLATE_NOOP("EngineTerms", "cross-socket"),
     QT_TRANSLATE_NOOP("EngineTerms", "the CPU-socket interconnect"),
     QT_TRANSLATE_NOOP("Labels", "Cross-socket (SYS)")},
    {LinkKind::Network, QT_TRANSLATE_NOOP("EngineTerms", "network"), QT_TRANSLATE_NOOP("EngineTerms", "the network"),
     QT_TRANSLATE_NOOP("Labels", "Network")},
};
const LinkTerms* linkTerms(LinkKind kind)
{
    for (const LinkTerms& t : kLinkTerms)
        if (t.kind == kind)
            return &t;
    return nullptr;
}
} // namespace

QString EngineTerms::linkKind(LinkKind kind)
{
    const LinkTerms* t = linkTerms(kind);
    return t ? tr(t->name) : QString();
}

QString EngineTerms::linkLabel(LinkKind kind)
{
    const LinkTerms* t = linkTerms(kind);
    return t ? QCoreApplication::translate("Labels", t->label) : QString();
}

QString EngineTerms::linkKindWords(LinkKind kind)
{
    const LinkTerms* t = linkTerms(kind);
    return t ? tr(t->words) : QString();
}

} // namespace shardlab::gui
