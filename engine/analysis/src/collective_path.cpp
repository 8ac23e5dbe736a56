#include "shardlab/analysis/collective_path.h"

#include <cstdio>
#include <map>

namespace shardlab {

namespace {
const char* linkKindId(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink: return "nvlink";
    case LinkKind::Pcie: return "pcie";
    case LinkKind::CrossSocket: return "cross_socket";
    case LinkKind::Network: return "network";
    }
    return "network";
}
} // namespace

Message linkKindMessage(LinkKind kind) { return Message(std::string("link.words.") + linkKindId(kind)); }

Message linkShortMessage(LinkKind kind) { return Message(std::string("link.short.") + linkKindId(kind)); }

const char* linkKindWords(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink: return "NVLink";
    case LinkKind::Pcie: return "PCIe";
    case LinkKind::CrossSocket: return "the CPU-socket interconnect";
    case LinkKind::Network: return "the network";
    }
    return "?";
}

Message linkDescription(const Topology& t, int link)
{
    if (link < 0 || link >= static_cast<int>(t.links.size()))
        return {};
    const Link& l = t.links[static_cast<size_t>(link)];
    const std::string bandwidth = number("%.4g", l.bandwidthGBps);
    if (l.kind == LinkKind::NvLink && l.count > 1)
        return Message("link.description.nvlinks")
            .with("a", l.a)
            .with("b", l.b)
            .with("count", l.count)
            .with("bandwidth", bandwidth);
    return Message("link.description")
        .with("a", l.a)
        .with("b", l.b)
        .with("kind", Message(std::string("link.short.") + linkKindId(l.kind)))
        .with("bandwidth", bandwidth);
}

std::string describeLink(const Topology& t, int link) { return english(linkDescription(t, link)); }

std::optional<CollectivePath> dominantCollective(const Scenario& s, const RunResult& run, CostModel& model)
{
    struct Total {
        double us = 0;
        int calls = 0;
        const CollectiveRecord* first = nullptr;
    };
    std::map<int, Total> byOp;
    for (const CollectiveRecord& rec : run.collectives) {
        Total& t = byOp[rec.op];
        t.us += rec.durationUs();
        ++t.calls;
        if (!t.first)
            t.first = &rec;
    }
    const int iterations = std::max<int>(1, static_cast<int>(run.iterations.size()));
    const Total* best = nullptr;
    for (const auto& [op, t] : byOp)
        if (t.us > 0 && (!best || t.us > best->us))
            best = &t;
    if (!best)
        return std::nullopt;
    const CollectiveRecord& rec = *best->first;
    CollectivePath p;
    p.op = rec.op;
    const Op& op = s.program[static_cast<size_t>(rec.op)];
    p.name = op.name.empty() ? opName(rec.kind) : op.name;
    p.kind = rec.kind;
    p.bytes = rec.bytes;
    p.ranks = static_cast<int>(rec.group.size());
    p.msPerStep = best->us / iterations / 1e3;
    const double meanUs = best->us / best->calls;
    // busbw = bytes / time x busBandwidthFactor (nccl-tests doc/PERFORMANCE.md)
    p.busbwGBps =
        meanUs > 0 ? static_cast<double>(rec.bytes) / (meanUs * 1e3) * busBandwidthFactor(rec.kind, p.ranks) : 0;
    p.cost = model.collective(rec.kind, rec.bytes, rec.group, op.algorithm, op.root);
    if (p.cost.bottleneckLink >= 0 && p.cost.bottleneckLink < static_cast<int>(model.topology().links.size())) {
        p.linkKind = model.topology().links[static_cast<size_t>(p.cost.bottleneckLink)].kind;
        p.linkMessage = linkDescription(model.topology(), p.cost.bottleneckLink);
        p.linkText = english(p.linkMessage);
    }
    return p;
}

} // namespace shardlab
