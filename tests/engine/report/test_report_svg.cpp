// Report figures: axis ticks, escaping, and what the SVG of a bar chart and a timeline holds.
#include "shardlab/report/report_html.h"
#include "shardlab/report/report_svg.h"
#include "shardlab/sim/simulator.h"
#include "../test_helpers.h"

#include <gtest/gtest.h>

#include <set>

using namespace shardlab;

namespace {
void expectTicks(const std::vector<double>& got, const std::vector<double>& want)
{
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-12) << "tick " << i;
}

size_t count(const std::string& s, const std::string& what)
{
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
        ++n;
    return n;
}
} // namespace

TEST(ReportSvg, NiceTicksCoverTheRangeInRoundSteps)
{
    // 132 / 5 = 26.4 -> step 50 (1, 2, 2.5 x 10 are below 26.4)
    expectTicks(niceTicks(132, 5), {0, 50, 100, 150});
    // 12 / 5 = 2.4 -> step 2.5
    expectTicks(niceTicks(12, 5), {0, 2.5, 5, 7.5, 10, 12.5});
    expectTicks(niceTicks(0.2, 4), {0, 0.05, 0.1, 0.15, 0.2});
    expectTicks(niceTicks(100, 5), {0, 20, 40, 60, 80, 100});
    expectTicks(niceTicks(0), {0, 1});
    expectTicks(niceTicks(-3), {0, 1});
}

TEST(ReportSvg, EscapesXml)
{
    EXPECT_EQ(xmlEscape("a<b & \"c\" > 'd'"), "a&lt;b &amp; &quot;c&quot; &gt; &#39;d&#39;");
}

TEST(ReportSvg, BarChartDrawsOneRectPerSegmentWithLabelsAndLegend)
{
    BarChartSpec spec;
    spec.id = "t";
    spec.title = "Title <x>";
    spec.categories = {"rank 0", "rank 1"};
    spec.series = {{"compute", kComputeColor, {120, 60}}, {"wait", kWaitColor, {0, 60}}};
    spec.axisLabel = "time (ms)";
    spec.valueUnit = "ms";
    const SvgFigure f = svgBarChart(spec);
    EXPECT_EQ(f.svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_NE(f.svg.find("</svg>"), std::string::npos);
    EXPECT_NE(f.svg.find("Title &lt;x&gt;"), std::string::npos);
    // background + 3 non-empty segments + 2 legend swatches
    EXPECT_EQ(count(f.svg, "<rect"), 1u + 3u + 2u);
    EXPECT_NE(f.svg.find(">120 ms<"), std::string::npos); // totals at the bar ends
    EXPECT_NE(f.svg.find(">rank 1<"), std::string::npos);
    EXPECT_NE(f.svg.find(">time (ms)<"), std::string::npos);
    EXPECT_NE(f.svg.find(">compute<"), std::string::npos);
    EXPECT_GT(f.height, 100);
    EXPECT_DOUBLE_EQ(f.width, 760);
}

TEST(ReportSvg, TimelineHasALanePerRankAndEverySpan)
{
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    TimelineSpec spec;
    spec.highlightRank = 0;
    const SvgFigure f = svgTimeline(s, *run, spec);
    for (int r = 0; r < 4; ++r)
        EXPECT_NE(f.svg.find(">rank " + std::to_string(r)), std::string::npos);
    EXPECT_NE(f.svg.find("rank 0 (straggler)"), std::string::npos);
    // every span is a rect with a tooltip
    EXPECT_EQ(count(f.svg, "<title>rank "), run->spans.size());
    EXPECT_NE(f.svg.find("waiting for rank 0"), std::string::npos);
    EXPECT_NE(f.svg.find(">iteration 3<"), std::string::npos);
    EXPECT_NE(f.svg.find(">time (ms)<"), std::string::npos);
}

// The report draws every kind of time in the palette's colour, as the app does
// (shardlab/model/palette.h; the app's views are checked by tests/gui/test_palette.cpp).
TEST(ReportSvg, TimelineAndChartsUseThePalette)
{
    static_assert(std::string_view(kComputeColor) == palette::hex(palette::Category::Compute));
    static_assert(std::string_view(kCommColor) == palette::hex(palette::Category::Communication));
    static_assert(std::string_view(kWaitColor) == palette::hex(palette::Category::Wait));
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    RunResult r = *run;
    bool paged = false, delayed = false;
    for (Span& sp : r.spans) {
        if (sp.kind != SpanKind::Compute || sp.stream != 0)
            continue;
        if (!paged && sp.rank == 1) {
            sp.detail = SpanDetail::Paging;
            paged = true;
        } else if (!delayed && sp.rank == 2) {
            sp.detail = SpanDetail::InjectedDelay;
            delayed = true;
        }
    }
    ASSERT_TRUE(paged && delayed);
    const SvgFigure f = svgTimeline(s, r, {});
    for (palette::Category c : {palette::Category::Compute, palette::Category::Communication, palette::Category::Wait,
                                palette::Category::Paging, palette::Category::InjectedDelay}) {
        size_t spans = 0;
        for (const Span& sp : r.spans)
            spans += palette::categoryOf(sp.kind, sp.detail) == c ? 1 : 0;
        ASSERT_GT(spans, 0u) << palette::name(c);
        // one rect per span and one legend swatch, in the palette's colour
        EXPECT_EQ(count(f.svg, std::string("fill=\"") + palette::hex(c) + "\""), spans + 1) << palette::name(c);
        EXPECT_NE(f.svg.find(std::string(">") + palette::name(c) + "<"), std::string::npos) << palette::name(c);
    }
    // the bar charts' segments too
    BarChartSpec spec;
    spec.title = "t";
    spec.categories = {"a", "b"};
    spec.series = {
        {"compute", kComputeColor, {1, 2}}, {"communication", kCommColor, {1, 1}}, {"wait", kWaitColor, {0, 1}}};
    const SvgFigure bars = svgBarChart(spec);
    EXPECT_GE(count(bars.svg, std::string("fill=\"") + palette::hex(palette::Category::Compute) + "\""), 2u);
    EXPECT_GE(count(bars.svg, std::string("fill=\"") + palette::hex(palette::Category::Wait) + "\""), 1u);
}

namespace {
// The fill of every bar or span of a figure: the rects that carry a tooltip (<title>); the
// background, lanes and legend swatches have none.
std::vector<std::string> paletteTestBarFills(const std::string& svg)
{
    std::vector<std::string> fills;
    for (size_t at = svg.find("<rect "); at != std::string::npos; at = svg.find("<rect ", at + 1)) {
        const size_t end = svg.find('>', at);
        if (end == std::string::npos || svg[end - 1] == '/' || svg.compare(end + 1, 7, "<title>") != 0)
            continue;
        const size_t fill = svg.find("fill=\"", at);
        if (fill < end)
            fills.push_back(svg.substr(fill + 6, 7));
    }
    return fills;
}
} // namespace

// Every bar of the report's charts is in its category's palette colour: the segments in compute,
// communication and wait, the comparison's collective times in communication, memory in the
// memory colour (never a kind of time's).
TEST(ReportSvg, ReportFiguresUseOnlyThePalettesColours)
{
    const Scenario s = test::loadExample("lab-two-gpu-all-reduce.shardlab.json");
    auto report = buildLabReport(s);
    ASSERT_TRUE(report.ok()) << report.error().message;
    const std::string compute = palette::hex(palette::Category::Compute);
    const std::string comm = palette::hex(palette::Category::Communication);
    const std::string wait = palette::hex(palette::Category::Wait);
    const std::string memory = palette::hex(palette::Category::Memory);
    const auto figures = labReportFigures(*report);
    ASSERT_EQ(figures.size(), 5u);
    for (const SvgFigure& f : figures) {
        SCOPED_TRACE(f.id);
        const std::vector<std::string> fills = paletteTestBarFills(f.svg);
        ASSERT_FALSE(fills.empty());
        std::set<std::string> allowed;
        if (f.id == "comparison-time")
            allowed = {comm};
        else if (f.id == "comparison-memory")
            allowed = {memory};
        else if (f.id == "timeline")
            for (palette::Category c : palette::kCategories)
                allowed.insert(palette::hex(c));
        else
            allowed = {compute, comm, wait};
        for (const std::string& fill : fills)
            EXPECT_TRUE(allowed.count(fill)) << fill;
    }
    // the memory chart's two series: the palette's memory colour, the result kept lighter
    const SvgFigure& memoryChart = figures.back();
    EXPECT_NE(memoryChart.svg.find("fill=\"" + memory + "\" fill-opacity=\"0.45\""), std::string::npos);
    EXPECT_EQ(memoryChart.svg.find("fill=\"" + compute + "\""), std::string::npos);
}
