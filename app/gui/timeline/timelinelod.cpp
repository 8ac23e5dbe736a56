#include "timeline/timelinelod.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shardlab::gui {

namespace {

struct LodCoverage {
    size_t first = 0; // spans [first, last) overlap the interval
    size_t last = 0;
    double us = 0; // how much of the interval they cover
};

// The spans of `t` overlapping [a, b), searching from `from` on (no span before it ends after a),
// and how much of [a, b) they cover: their summed durations less what sticks out on the left of
// the first and on the right of the last. Spans of one track do not overlap (a measured run that
// overlaps itself is clamped to the interval).
LodCoverage lodCoverage(const TimelineTrack& t, double a, double b, size_t from)
{
    LodCoverage c;
    c.first = t.firstEndingAfter(a, from);
    c.last = t.firstBeginningAt(b, c.first);
    if (c.last > c.first) {
        const double us = t.coveredBetween(c.first, c.last) - std::max(0.0, a - t.begin[c.first])
                          - std::max(0.0, t.end[c.last - 1] - b);
        c.us = std::clamp(us, 0.0, b - a);
    }
    return c;
}

constexpr std::array<SpanKind, 3> kLodKindsByPriority = {SpanKind::Wait, SpanKind::Comm, SpanKind::Compute};

// Adds an aggregated block, joining it to the one before when that is aggregated, of the same
// kind and colour and ends where it begins.
void pushAggregate(std::vector<LaneBlock>& out, const LaneBlock& block)
{
    LaneBlock* prev = out.empty() ? nullptr : &out.back();
    if (prev && prev->aggregated() && prev->kind == block.kind && prev->paging == block.paging
        && block.x0 - prev->x1 < 1e-6)
        prev->x1 = block.x1;
    else
        out.push_back(block);
}

} // namespace

int summaryLevel(const LaneSummary& summary, double columnUs)
{
    int level = -1;
    if (summary.empty())
        return level;
    for (int l = 0; l < summary.levels() && summary.binUs(l) * kBinsPerColumn <= columnUs; ++l)
        level = l;
    return level;
}

void aggregateFromSummary(const TimelineLane& lane, const TimeScale& sc, double columnPx, int level,
                          std::vector<LaneBlock>& out)
{
    out.clear();
    const LaneSummary& sum = lane.summary;
    const double colUs = sc.usPerPixel() * columnPx;
    if (!(colUs > 0) || level < 0 || level >= sum.levels())
        return;
    const double lastUs = std::min(sc.endUs, sum.originUs() + static_cast<double>(sum.level(0).size()) * sum.binUs(0));
    double t = sc.beginUs; // everything before t is drawn
    while (t < lastUs) {
        const double column = std::floor((t - sc.beginUs) / colUs);
        const double a = t;
        double b = sc.beginUs + (column + 1) * colUs;
        if (!(b > a))
            b = a + colUs;
        const LaneSummary::Bin cov = sum.coverage(level, a, b);
        SpanKind dominant = SpanKind::Compute;
        float best = 0;
        for (SpanKind k : kLodKindsByPriority)
            if (cov[static_cast<size_t>(k)] > best) {
                best = cov[static_cast<size_t>(k)];
                dominant = k;
            }
        if (best <= 0) {
            t = b;
            continue;
        }
        const bool paging = dominant == SpanKind::Compute && cov[LaneSummary::kPaging] * 2 >= best;
        if (best >= 0.99 * (b - a)) {
            // one kind fills the column: perhaps one span at least a column wide, drawn as itself
            const TimelineTrack& tr = lane.track(dominant);
            const int i = tr.at((a + b) / 2);
            if (i >= 0 && tr.end[static_cast<size_t>(i)] - a >= colUs) {
                const size_t k = static_cast<size_t>(i);
                const double from = std::max(tr.begin[k], a);
                out.push_back({sc.toPixel(from), sc.toPixel(tr.end[k]), dominant, tr.span[k], paging});
                t = tr.end[k];
                continue;
            }
        }
        pushAggregate(out, {sc.toPixel(a), sc.toPixel(b), dominant, -1, paging});
        t = b;
    }
}

void aggregateLane(const TimelineLane& lane, const TimeScale& sc, double columnPx, std::vector<LaneBlock>& out)
{
    out.clear();
    const double colUs = sc.usPerPixel() * columnPx;
    if (!(colUs > 0) || !(sc.endUs > sc.beginUs))
        return;
    if (const int level = summaryLevel(lane.summary, colUs); level >= 0) {
        aggregateFromSummary(lane, sc, columnPx, level, out);
        return;
    }
    aggregateFromSpans(lane, sc, columnPx, out);
}

void aggregateFromSpans(const TimelineLane& lane, const TimeScale& sc, double columnPx, std::vector<LaneBlock>& out)
{
    out.clear();
    const double colUs = sc.usPerPixel() * columnPx;
    if (!(colUs > 0) || !(sc.endUs > sc.beginUs))
        return;
    std::array<size_t, 3> next{}; // per kind: the first span ending after t
    for (size_t k = 0; k < 3; ++k)
        next[k] = lane.kinds[k].firstEndingAfter(sc.beginUs);
    size_t nextPaging = lane.paging.firstEndingAfter(sc.beginUs);
    double t = sc.beginUs; // everything before t is drawn
    auto mostlyPaging = [&](SpanKind kind, double a, double b, double kindUs) {
        if (kind != SpanKind::Compute || lane.paging.size() == 0)
            return false;
        const LodCoverage p = lodCoverage(lane.paging, a, b, nextPaging);
        return p.us * 2 >= kindUs && p.us > 0;
    };
    auto advance = [&] {
        for (size_t k = 0; k < 3; ++k)
            next[k] = lane.kinds[k].firstEndingAfter(t, next[k]);
        nextPaging = lane.paging.firstEndingAfter(t, nextPaging);
    };
    // After a column [a, b): the first span ending after b is the last one overlapping the column
    // if it sticks out, else the one after it (no search, where spans do not overlap).
    auto advancePast = [&](const TimelineTrack& tr, const LodCoverage& c, double b, size_t& n) {
        if (!tr.reach.empty())
            n = tr.firstEndingAfter(b, n);
        else if (c.last > c.first)
            n = tr.end[c.last - 1] > b ? c.last - 1 : c.last;
        else
            n = c.last;
    };
    for (;;) {
        // the next span to draw: the earliest beginning among the kinds' next spans
        int kind = -1;
        double begin = std::numeric_limits<double>::infinity();
        for (size_t k = 0; k < 3; ++k) {
            const TimelineTrack& tr = lane.kinds[k];
            if (next[k] < tr.size() && tr.begin[next[k]] < begin) {
                begin = tr.begin[next[k]];
                kind = static_cast<int>(k);
            }
        }
        if (kind < 0 || begin >= sc.endUs)
            break;
        const TimelineTrack& tr = lane.kinds[static_cast<size_t>(kind)];
        const size_t i = next[static_cast<size_t>(kind)];
        const double from = std::max(begin, t);
        if (tr.end[i] - from >= colUs) {
            // a column wide or more: the span itself (from where the last block ended)
            const SpanKind k = static_cast<SpanKind>(kind);
            out.push_back({sc.toPixel(from), sc.toPixel(tr.end[i]), k, tr.span[i],
                           mostlyPaging(k, from, tr.end[i], tr.end[i] - from)});
            t = tr.end[i];
            advance();
            continue;
        }
        // narrower than a column: the column it begins in, from where the last block ended
        const double column = std::floor((from - sc.beginUs) / colUs);
        const double a = std::max(t, sc.beginUs + column * colUs);
        double b = sc.beginUs + (column + 1) * colUs;
        if (!(b > from))
            b = from + colUs; // rounding at the column's edge
        SpanKind dominant = SpanKind::Compute;
        double best = -1;
        std::array<LodCoverage, 3> cover;
        for (SpanKind k : kLodKindsByPriority) {
            const size_t ki = static_cast<size_t>(k);
            cover[ki] = lodCoverage(lane.kinds[ki], a, b, next[ki]);
            if (cover[ki].last > cover[ki].first && cover[ki].us > best) {
                best = cover[ki].us;
                dominant = k;
            }
        }
        pushAggregate(out, {sc.toPixel(a), sc.toPixel(b), dominant, -1, mostlyPaging(dominant, a, b, best)});
        t = b;
        for (size_t k = 0; k < 3; ++k)
            advancePast(lane.kinds[k], cover[k], b, next[k]);
        nextPaging = lane.paging.firstEndingAfter(t, nextPaging);
    }
}

std::array<int, 3> spansIn(const TimelineLane& lane, double fromUs, double toUs)
{
    std::array<int, 3> n{};
    for (size_t k = 0; k < 3; ++k) {
        const LodCoverage c = lodCoverage(lane.kinds[k], fromUs, toUs, 0);
        n[k] = static_cast<int>(c.last - c.first);
    }
    return n;
}

const std::vector<LaneBlock>& LaneBlockCache::blocks(const TimelineData& data, size_t laneIndex, const TimeScale& scale,
                                                     double columnPx)
{
    const size_t spans = data.spanCount();
    if (data.id() != m_data || spans != m_spans || columnPx != m_columnPx || scale.beginUs != m_scale.beginUs
        || scale.endUs != m_scale.endUs || scale.leftPx != m_scale.leftPx || scale.widthPx != m_scale.widthPx
        || m_lanes.size() != data.lanes().size()) {
        m_data = data.id();
        m_spans = spans;
        m_scale = scale;
        m_columnPx = columnPx;
        m_lanes.resize(data.lanes().size());
        m_valid.assign(data.lanes().size(), 0);
    }
    if (!m_valid[laneIndex]) {
        aggregateLane(data.lanes()[laneIndex], scale, columnPx, m_lanes[laneIndex]);
        m_valid[laneIndex] = 1;
    }
    return m_lanes[laneIndex];
}

} // namespace shardlab::gui
