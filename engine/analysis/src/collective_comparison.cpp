#include "shardlab/analysis/collective_comparison.h"

#include "shardlab/analysis/collective_choice.h"

#include <cstdio>

namespace shardlab {

CollectiveComparison compareAllReduceWithRsAg(CostModel& model, const std::vector<int>& group, Bytes bytes)
{
    CollectiveComparison c;
    const int n = static_cast<int>(group.size());
    c.bytes = bytes;
    c.ranks = n;
    const double dn = n;
    const Bytes slice = n > 0 ? bytes / static_cast<Bytes>(n) : bytes;
    const RankValues in = exampleRankValues(n, 2 * n);

    ComparisonSide& ar = c.allReduce;
    ar.kind = OpKind::AllReduce;
    ar.exampleInputs = in;
    ar.exampleResult = applyCollective(OpKind::AllReduce, in).value();
    ar.heldAfterPerRank = bytes;
    ar.peakPerRank = 2 * bytes;
    ar.sentPerRank = static_cast<Bytes>(2 * (dn - 1) / dn * static_cast<double>(bytes));
    ar.steps = {model.collective(OpKind::AllReduce, bytes, group)};
    ar.timeUs = ar.steps[0].timeUs;

    ComparisonSide& rs = c.reduceScatterOnly;
    rs.kind = OpKind::ReduceScatter;
    rs.exampleInputs = in;
    rs.exampleResult = applyCollective(OpKind::ReduceScatter, in).value();
    rs.heldAfterPerRank = slice;
    rs.peakPerRank = bytes + slice;
    rs.sentPerRank = static_cast<Bytes>((dn - 1) / dn * static_cast<double>(bytes));
    rs.steps = {model.collective(OpKind::ReduceScatter, bytes, group)};
    rs.timeUs = rs.steps[0].timeUs;

    ComparisonSide& pair = c.reduceScatterAllGather;
    pair.kind = OpKind::ReduceScatterAllGather;
    pair.exampleInputs = in;
    pair.exampleResult = applyCollective(OpKind::AllGather, rs.exampleResult).value();
    pair.heldAfterPerRank = bytes;
    pair.peakPerRank = bytes + slice;
    pair.sentPerRank = 2 * rs.sentPerRank;
    pair.steps = {rs.steps[0], model.collective(OpKind::AllGather, bytes, group)};
    pair.timeUs = pair.steps[0].timeUs + pair.steps[1].timeUs;

    c.sentence = describeComparison(c);
    return c;
}

Message comparisonMessage(const CollectiveComparison& c)
{
    const ComparisonSide& ar = c.allReduce;
    const ComparisonSide& rs = c.reduceScatterOnly;
    const ComparisonSide& pair = c.reduceScatterAllGather;
    return Message("comparison.sentence")
        .with("bytes", formatBytes(c.bytes))
        .with("ranks", c.ranks)
        .with("all_reduce_time", formatMicros(ar.timeUs))
        .with("slice", formatBytes(rs.heldAfterPerRank))
        .with("reduce_scatter_time", formatMicros(rs.timeUs))
        .with("pair_time", formatMicros(pair.timeUs))
        .with("sent", formatBytes(ar.sentPerRank))
        .with("all_reduce_peak", formatBytes(ar.peakPerRank))
        .with("pair_peak", formatBytes(pair.peakPerRank));
}

std::string describeComparison(const CollectiveComparison& c) { return english(comparisonMessage(c)); }

Status fillMeasuredTimes(CollectiveComparison& c, const SweepMeasure& measure)
{
    auto once = [&](OpKind kind) -> Result<double> {
        auto rows = measure(kind, c.ranks, {c.bytes});
        if (!rows)
            return rows.error();
        if (rows->empty() || !(rows->front().timeUs > 0))
            return runFailed(
                Message("calibration.error.no_time").with("op", opName(kind)).with("size", formatBytes(c.bytes)));
        return rows->front().timeUs;
    };
    auto ar = once(OpKind::AllReduce);
    if (!ar)
        return ar.error();
    auto rs = once(OpKind::ReduceScatter);
    if (!rs)
        return rs.error();
    auto ag = once(OpKind::AllGather);
    if (!ag)
        return ag.error();
    c.allReduce.measuredUs = *ar;
    c.reduceScatterOnly.measuredUs = *rs;
    c.reduceScatterAllGather.measuredUs = *rs + *ag;
    return {};
}

} // namespace shardlab
