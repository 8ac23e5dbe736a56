#include "shardlab/analysis/run_difference.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace shardlab {

namespace {

double meanComm(const Summary& s)
{
    if (s.perRank.empty())
        return 0;
    double sum = 0;
    for (const RankBreakdown& r : s.perRank)
        sum += r.commMs;
    return sum / static_cast<double>(s.perRank.size());
}

std::optional<Bytes> largestPeak(const Summary& s)
{
    if (!s.memoryKnown || s.perRank.empty())
        return std::nullopt;
    Bytes peak = 0;
    for (const RankBreakdown& r : s.perRank)
        peak = std::max(peak, r.peakMemory);
    return peak;
}

std::string ms(double v)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// "+490.17" / "-3.10" (a change, its sign always shown)
std::string signedMs(double v) { return (v >= 0 ? "+" : "-") + ms(v >= 0 ? v : -v); }

// "+46%" / "-0.5%": the change of b against a, formatPercent's digits
std::string signedPercent(double a, double b)
{
    if (a <= 0)
        return "n/a";
    const double change = (b - a) / a;
    return (change >= 0 ? "+" : "-") + formatPercent(change >= 0 ? change : -change);
}

std::string signedBytes(Bytes a, Bytes b) { return b >= a ? "+" + formatBytes(b - a) : "-" + formatBytes(a - b); }

} // namespace

std::vector<std::pair<OpKind, int>> collectiveCounts(const Scenario& scenario)
{
    std::map<OpKind, int> counts;
    for (const Op& op : scenario.program)
        if (isCollective(op.kind))
            ++counts[op.kind];
    std::vector<std::pair<OpKind, int>> out;
    for (const OpInfo& info : kOpInfos)
        if (auto it = counts.find(info.kind); it != counts.end())
            out.emplace_back(info.kind, it->second);
    return out;
}

RunDifference runDifference(const Scenario& a, const Summary& sa, const Scenario& b, const Summary& sb,
                            std::string nameA, std::string nameB)
{
    RunDifference d;
    d.nameA = std::move(nameA);
    d.nameB = std::move(nameB);
    d.stepMsA = sa.stepTimeMs;
    d.stepMsB = sb.stepTimeMs;
    d.commMsA = meanComm(sa);
    d.commMsB = meanComm(sb);
    d.peakA = largestPeak(sa);
    d.peakB = largestPeak(sb);
    std::map<OpKind, int> change;
    for (const auto& [kind, n] : collectiveCounts(b))
        change[kind] += n;
    for (const auto& [kind, n] : collectiveCounts(a))
        change[kind] -= n;
    for (const OpInfo& info : kOpInfos)
        if (auto it = change.find(info.kind); it != change.end() && it->second != 0)
            d.collectives.emplace_back(info.kind, it->second);

    // the collectives' clause: "+2 All-Gather, -1 All-Reduce" (the collectives' names are the
    // same in every language the course uses)
    std::string list;
    for (const auto& [kind, n] : d.collectives)
        list += (list.empty() ? "" : ", ") + std::string(n > 0 ? "+" : "-") + std::to_string(n > 0 ? n : -n) + " "
                + opDisplayName(kind);
    Message collectives = list.empty() ? Message("diff.clause.same_collectives")
                                       : std::move(Message("diff.clause.collectives").with("list", list));
    Message memory("diff.clause.memory_unknown");
    if (d.peakA && d.peakB)
        memory = std::move(Message("diff.clause.memory")
                               .with("peak_b", formatBytes(*d.peakB))
                               .with("peak_a", formatBytes(*d.peakA))
                               .with("change", signedBytes(*d.peakA, *d.peakB)));
    d.message = std::move(Message("diff.sentence")
                              .with("b", d.nameB)
                              .with("a", d.nameA)
                              .with("step_b", ms(d.stepMsB))
                              .with("step_a", ms(d.stepMsA))
                              .with("step_change", signedPercent(d.stepMsA, d.stepMsB))
                              .with("comm_change", signedMs(d.commMsB - d.commMsA))
                              .with("collectives", std::move(collectives))
                              .with("memory", std::move(memory)));
    return d;
}

} // namespace shardlab
