// Level of detail: what one lane of the timeline looks like at a pixel scale. Spans at least one
// column wide are drawn as themselves; where the next span is narrower than a column, that
// column [a, b) becomes one block in the kind that covers the most of it (wait before
// communication before compute on a tie), its length summed from each kind's prefix sums
// (TimelineTrack::covered) with two binary searches. So a redraw costs about one block per pixel
// column per lane, whatever the number of spans, and zooming in past the spans' widths gives the
// exact spans back. No Qt: unit-tested against hand-computed blocks (test_timelinelod).
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
    int span = -1;           // the span drawn (TimelineTrack::span), or -1 for an aggregated block
    bool paging = false;     // compute mostly spent paging unified memory (drawn in its colour)
    bool aggregated() const { return span < 0; }
};

// The blocks of `lane` visible on `scale`, left to right, in columns `columnPx` pixels wide (1 on
// screen; 0.5 for an image exported at twice the size, so that it aggregates to its own pixels).
// Neighbouring aggregated columns of the same kind are merged into one block.
void aggregateLane(const TimelineLane& lane, const TimeScale& scale, double columnPx, std::vector<LaneBlock>& out);

// How many spans of each kind (by SpanKind) on `lane` overlap [fromUs, toUs).
std::array<int, 3> spansIn(const TimelineLane& lane, double fromUs, double toUs);

// The blocks of every lane for one redraw: the span layers of a view share them, so a redraw
// aggregates each lane once however many layers draw it. Recomputed when the data grows, the
// view moves or the column width changes (an export).
class LaneBlockCache {
public:
    const std::vector<LaneBlock>& blocks(const TimelineData& data, size_t laneIndex, const TimeScale& scale, double columnPx);

private:
    std::uint64_t m_data = 0; // TimelineData::id()
    size_t m_spans = 0;
    TimeScale m_scale;
    double m_columnPx = 0;
    std::vector<std::vector<LaneBlock>> m_lanes;
    std::vector<char> m_valid;
};

} // namespace shardlab::gui
