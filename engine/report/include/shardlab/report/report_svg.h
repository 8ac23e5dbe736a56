// Figures for reports, drawn as standalone SVG by our own code (no plotting library): a per-rank
// timeline of a run and horizontal bar charts. Only elements that every SVG renderer draws
// (Qt SVG's Tiny 1.2 profile included) are used: rect, line, text, g, title.
#pragma once

#include "shardlab/model/palette.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/text/language.h"

#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

struct SvgFigure {
    std::string id; // "timeline", "timing", ...: stable, used as a file or resource name
    std::string title;
    std::string caption; // one sentence under the figure
    std::string svg;     // a complete <svg> document
    double width = 0;    // in CSS pixels
    double height = 0;
};

// Axis ticks 0, step, 2 step, ... up to the first tick >= maxValue, where step is 1, 2, 2.5 or
// 5 times a power of ten chosen so that there are about `target` intervals. {0, 1} when
// maxValue <= 0.
std::vector<double> niceTicks(double maxValue, int target = 5);

// Escapes &, <, >, " and ' for XML text and attributes.
std::string xmlEscape(std::string_view text);

struct BarSeries {
    std::string name;
    std::string color;          // "#4e79a7"
    std::vector<double> values; // one per category
    double opacity = 1;         // < 1: a lighter shade of `color` (a second series of the same category)
};

struct BarChartSpec {
    std::string id;
    std::string title;
    std::vector<std::string> categories;    // one bar (stacked) or one group of bars per category
    std::vector<std::string> categoryNotes; // optional second line under each category label
    std::vector<BarSeries> series;
    std::string axisLabel; // "time per iteration (ms)"
    std::string valueUnit; // appended to the value printed at the end of each bar: "ms"
    bool stacked = true;   // false: one bar per series within each category
    double width = 760;
};

SvgFigure svgBarChart(const BarChartSpec& spec);

struct TimelineSpec {
    std::string title = "Per-rank timeline";
    double width = 960;
    int highlightRank = -1;                // drawn in bold with "(straggler)"
    Language language = Language::English; // of its labels, legend and tooltips (the title is the caller's)
};

// One lane per rank (and a thin second lane where a rank has overlapped communication), spans
// coloured by kind (compute, communication, wait; injected delay and unified-memory paging in
// their own colours), iteration boundaries dashed, a millisecond axis and a legend.
SvgFigure svgTimeline(const Scenario& scenario, const RunResult& run, const TimelineSpec& spec = {});

// A category's name in the report's legends, in `language` (English: palette::name()).
std::string categoryName(palette::Category category, Language language);

// The colours every figure uses for the three segments: the palette's, as in the app.
inline constexpr const char* kComputeColor = palette::hex(palette::Category::Compute);
inline constexpr const char* kCommColor = palette::hex(palette::Category::Communication);
inline constexpr const char* kWaitColor = palette::hex(palette::Category::Wait);
// Bars that are not a kind of time: memory per rank (the comparison's memory chart).
inline constexpr const char* kMemoryColor = palette::hex(palette::Category::Memory);

} // namespace shardlab
