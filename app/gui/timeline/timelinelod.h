// Level of detail: what one lane of the timeline looks like at a pixel scale. Spans at least one
// column wide are drawn as themselves; where the next span is narrower than a column, that
// column [a, b) becomes one block in the kind that covers the most of it (wait before
// communication before compute on a tie). Zoomed in, the coverage is summed from each kind's
// prefix sums (TimelineTrack::covered) with two galloping searches; zoomed out, from a few bins
// of the lane's multi-resolution summary (LaneSummary). So a redraw costs about one block per
// pixel column per lane, whatever the number of spans, and zooming in past the spans' widths
// gives the exact spans back. No Qt: unit-tested against hand-computed blocks (test_timelinelod).
#pragma once

#include "timeline/timelinedata.h"
#include "timeline/timescale.h"

#include <array>
#include <cstdint>
#include <vector>

namespace shardlab::gui {

struct LaneBlock {
    double x0 = 0; // pixels on the scale
    double x1 = 0;
    SpanKind kind = SpanKind::Compute;
    int span = -1;       // the span drawn (TimelineTrack::span), or -1 for an aggregated block
    bool paging = false; // compute mostly spent paging unified memory (drawn in its colour)
    bool aggregated() const { return span < 0; }
};

// The blocks of `lane` visible on `scale`, left to right, in columns `columnPx` pixels wide (1 on
// screen; 0.5 for an image exported at twice the size, so that it aggregates to its own pixels).
// Neighbouring aggregated columns of the same kind are merged into one block. From the lane's
// summary where a column holds kBinsPerColumn of its bins or more (summaryLevel), else from the
// spans.
void aggregateLane(const TimelineLane& lane, const TimeScale& scale, double columnPx, std::vector<LaneBlock>& out);

// From the spans: exact, each column's coverage from the tracks' prefix sums.
void aggregateFromSpans(const TimelineLane& lane, const TimeScale& scale, double columnPx, std::vector<LaneBlock>& out);

// From the summary's `level`: a column [a, b) gets the kind covering most of it by the bins
// (those cut by an edge counted by their share); a column one kind fills is looked up in that
// kind's track, and a span a column wide or more found there is drawn as itself. The same
// blocks as aggregateFromSpans where the columns' edges fall on bin boundaries and no span is
// wider than a column; elsewhere a column's edge may be off by up to a bin (half a column).
void aggregateFromSummary(const TimelineLane& lane, const TimeScale& scale, double columnPx, int level,
                          std::vector<LaneBlock>& out);

// The coarsest summary level with at least kBinsPerColumn bins in a column `columnUs` wide, or
// -1 (zoomed in that far, a column holds few spans: about 8 or fewer, a finest bin holding 4 or
// more on average, and they are searched). Two bins, not four: at 8 x 1,000,000 spans the
// searches of columns of 8-16 spans made the level-of-detail pass's p95 12.7 ms, the summary 5.3.
constexpr double kBinsPerColumn = 2;
int summaryLevel(const LaneSummary& summary, double columnUs);

// How many spans of each kind (by SpanKind) on `lane` overlap [fromUs, toUs).
std::array<int, 3> spansIn(const TimelineLane& lane, double fromUs, double toUs);

// The blocks of every lane for one redraw: the span layers of a view share them, so a redraw
// aggregates each lane once however many layers draw it. Recomputed when the data grows, the
// view moves or the column width changes (an export).
class LaneBlockCache {
public:
    const std::vector<LaneBlock>& blocks(const TimelineData& data, size_t laneIndex, const TimeScale& scale,
                                         double columnPx);

private:
    std::uint64_t m_data = 0; // TimelineData::id()
    size_t m_spans = 0;
    TimeScale m_scale;
    double m_columnPx = 0;
    std::vector<std::vector<LaneBlock>> m_lanes;
    std::vector<char> m_valid;
};

} // namespace shardlab::gui
