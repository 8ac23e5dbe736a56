#include "shardlab/report/report_svg.h"

#include "shardlab/text/message.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace shardlab {

namespace {

constexpr const char* kFont = "DejaVu Sans, Noto Sans CJK SC, Noto Sans, Arial, sans-serif";
constexpr const char* kInk = "#222222";
constexpr const char* kGrid = "#d9d9d9";
constexpr const char* kMuted = "#666666";

// Renderers measure text; SVG writers cannot. 0.6 em per character is a safe upper estimate for
// DejaVu Sans digits and lower-case letters; CJK characters (three-byte UTF-8 and up) are a full em.
double textWidth(std::string_view s, double fontPx)
{
    double ems = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) // the first byte of a UTF-8 code point
            ems += c >= 0xE0 ? 1.0 : 0.6;
    return ems * fontPx;
}

std::string num(double v, const char* f = "%.1f")
{
    char b[48];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string text(double x, double y, std::string_view s, double size, const char* anchor = "start",
                 const char* fill = kInk, bool bold = false)
{
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-family=\"" + kFont + "\" font-size=\""
           + num(size, "%.0f") + "\" fill=\"" + fill + "\" text-anchor=\"" + anchor + "\""
           + (bold ? " font-weight=\"bold\"" : "") + ">" + xmlEscape(s) + "</text>\n";
}

std::string rect(double x, double y, double w, double h, const std::string& fill, const std::string& extra = {},
                 const std::string& tooltip = {})
{
    std::string r = "<rect x=\"" + num(x, "%.2f") + "\" y=\"" + num(y, "%.2f") + "\" width=\""
                    + num(std::max(w, 0.6), "%.2f") + "\" height=\"" + num(h, "%.2f") + "\" fill=\"" + fill + "\""
                    + extra;
    if (tooltip.empty())
        return r + "/>\n";
    return r + "><title>" + xmlEscape(tooltip) + "</title></rect>\n";
}

std::string line(double x1, double y1, double x2, double y2, const char* stroke, double width = 1,
                 const char* dash = nullptr)
{
    return "<line x1=\"" + num(x1, "%.2f") + "\" y1=\"" + num(y1, "%.2f") + "\" x2=\"" + num(x2, "%.2f") + "\" y2=\""
           + num(y2, "%.2f") + "\" stroke=\"" + stroke + "\" stroke-width=\"" + num(width, "%.2f") + "\""
           + (dash ? std::string(" stroke-dasharray=\"") + dash + "\"" : std::string()) + "/>\n";
}

std::string openSvg(double w, double h, const std::string& title)
{
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.2\" baseProfile=\"tiny\" width=\"" + num(w, "%.0f")
           + "\" height=\"" + num(h, "%.0f") + "\" viewBox=\"0 0 " + num(w, "%.0f") + " " + num(h, "%.0f")
           + "\">\n<title>" + xmlEscape(title) + "</title>\n" + rect(0, 0, w, h, "#ffffff");
}

// Tick labels with as many decimals as the step needs.
std::string tickLabel(double v, double step)
{
    // As many decimals as the step needs to be exact: 2.5 needs one, 0.25 two, 50 none.
    int decimals = 0;
    while (decimals < 6
           && std::fabs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", std::min(decimals, 6), v);
    return b;
}

std::string valueLabel(double v, const std::string& unit)
{
    const char* f = v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3g";
    return num(v, f) + (unit.empty() ? "" : " " + unit);
}

struct LegendEntry {
    std::string name;
    std::string color;
    std::string extra; // e.g. fill-opacity
};

std::string opacityAttribute(double opacity)
{
    return opacity < 1 ? " fill-opacity=\"" + num(opacity, "%.2f") + "\"" : std::string();
}

// A legend that wraps; returns its height.
double legend(std::string& out, const std::vector<LegendEntry>& entries, double x0, double y, double maxX)
{
    double x = x0;
    double rowY = y;
    for (const LegendEntry& e : entries) {
        const double w = 18 + textWidth(e.name, 13) + 22;
        if (x + w > maxX && x > x0) {
            x = x0;
            rowY += 20;
        }
        out += rect(x, rowY - 11, 13, 13, e.color, e.extra);
        out += text(x + 18, rowY, e.name, 13);
        x += w;
    }
    return rowY - y + 20;
}

// The x axis under a plot: grid lines up to `top`, tick labels and the axis label.
void axis(std::string& out, const std::vector<double>& ticks, double x0, double plotW, double top, double y,
          const std::string& label)
{
    const double maxTick = ticks.back() > 0 ? ticks.back() : 1;
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
    for (double t : ticks) {
        const double x = x0 + t / maxTick * plotW;
        out += line(x, top, x, y, kGrid, t == 0 ? 1.2 : 0.8);
        out += text(x, y + 16, tickLabel(t, step), 12, "middle", kMuted);
    }
    out += line(x0, y, x0 + plotW, y, kInk, 1);
    out += text(x0 + plotW / 2, y + 36, label, 13, "middle");
}

} // namespace

std::string categoryName(palette::Category category, Language language)
{
    switch (category) {
    case palette::Category::Compute: return render(Message("report.category.compute"), language);
    case palette::Category::Communication: return render(Message("report.category.communication"), language);
    case palette::Category::Wait: return render(Message("report.category.wait"), language);
    case palette::Category::Paging: return render(Message("report.category.paging"), language);
    case palette::Category::InjectedDelay: return render(Message("report.category.injected_delay"), language);
    case palette::Category::Idle: return render(Message("report.category.idle"), language);
    case palette::Category::Memory: return render(Message("report.category.memory"), language);
    }
    return std::string();
}

std::vector<double> niceTicks(double maxValue, int target)
{
    if (!(maxValue > 0) || !std::isfinite(maxValue))
        return {0, 1};
    target = std::max(1, target);
    const double raw = maxValue / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    std::vector<double> ticks;
    for (int i = 0;; ++i) {
        const double t = i * step;
        ticks.push_back(t);
        if (t >= maxValue * (1 - 1e-12))
            break;
    }
    return ticks;
}

std::string xmlEscape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

SvgFigure svgBarChart(const BarChartSpec& spec)
{
    SvgFigure fig;
    fig.id = spec.id;
    fig.title = spec.title;
    fig.width = spec.width;
    const size_t cats = spec.categories.size();
    const bool notes = !spec.categoryNotes.empty();

    double labelW = 60;
    for (size_t c = 0; c < cats; ++c) {
        labelW = std::max(labelW, textWidth(spec.categories[c], 13) + 18);
        if (notes && c < spec.categoryNotes.size())
            labelW = std::max(labelW, textWidth(spec.categoryNotes[c], 11) + 18);
    }
    labelW = std::min(labelW, spec.width * 0.4);
    double maxValue = 0;
    for (size_t c = 0; c < cats; ++c) {
        double total = 0;
        for (const BarSeries& s : spec.series) {
            const double v = c < s.values.size() ? std::max(0.0, s.values[c]) : 0;
            total += v;
            maxValue = std::max(maxValue, v);
        }
        if (spec.stacked)
            maxValue = std::max(maxValue, total);
    }
    const std::vector<double> ticks = niceTicks(maxValue, 5);
    const double maxTick = ticks.back();
    const double x0 = labelW;
    // Room right of the longest bar for its value label.
    const double plotW = spec.width - x0 - std::max(24.0, textWidth(valueLabel(maxValue, spec.valueUnit), 12) + 14);
    const double titleH = 34;
    const double barH = spec.stacked ? 22 : 16;
    const double groupH = spec.stacked ? barH : barH * static_cast<double>(spec.series.size());
    const double rowH = groupH + (notes ? 22 : 14);

    std::string body;
    double y = titleH + 8;
    const double top = y - 4;
    std::string bars;
    for (size_t c = 0; c < cats; ++c) {
        const double barsTop = y + (rowH - groupH) / 2 - (notes ? 2 : 0);
        const double labelY = barsTop + groupH / 2 + (notes ? -1 : 5);
        bars += text(x0 - 10, labelY, spec.categories[c], 13, "end");
        if (notes && c < spec.categoryNotes.size())
            bars += text(x0 - 10, labelY + 15, spec.categoryNotes[c], 11, "end", kMuted);
        double x = x0;
        double total = 0;
        for (size_t s = 0; s < spec.series.size(); ++s) {
            const BarSeries& ser = spec.series[s];
            const double v = c < ser.values.size() ? std::max(0.0, ser.values[c]) : 0;
            const double w = v / maxTick * plotW;
            const std::string tip = spec.categories[c] + ": " + ser.name + " " + valueLabel(v, spec.valueUnit);
            const std::string shade = opacityAttribute(ser.opacity);
            if (spec.stacked) {
                if (v > 0)
                    bars += rect(x, barsTop, w, barH, ser.color, shade, tip);
                x += w;
                total += v;
            } else {
                const double by = barsTop + static_cast<double>(s) * barH;
                bars += rect(x0, by + 1, w, barH - 2, ser.color, shade, tip);
                bars += text(x0 + w + 6, by + barH - 4, valueLabel(v, spec.valueUnit), 12, "start", kInk);
            }
        }
        if (spec.stacked)
            bars += text(x + 6, barsTop + barH - 6, valueLabel(total, spec.valueUnit), 12, "start", kInk);
        y += rowH;
    }
    const double axisY = y + 4;
    std::string grid;
    axis(grid, ticks, x0, plotW, top, axisY, spec.axisLabel);
    std::vector<LegendEntry> entries;
    for (const BarSeries& s : spec.series)
        entries.push_back({s.name, s.color, opacityAttribute(s.opacity)});
    std::string leg;
    const double legendH = spec.series.size() > 1 ? legend(leg, entries, x0, axisY + 62, spec.width - 10) : 0;
    fig.height = axisY + 48 + legendH + 8;
    fig.svg = openSvg(fig.width, fig.height, spec.title) + text(12, 22, spec.title, 16, "start", kInk, true) + grid
              + bars + leg + "</svg>\n";
    return fig;
}

SvgFigure svgTimeline(const Scenario& scenario, const RunResult& run, const TimelineSpec& spec)
{
    SvgFigure fig;
    fig.id = "timeline";
    fig.title = spec.title;
    fig.width = spec.width;
    const int n = run.ranks;
    std::vector<bool> hasComm(static_cast<size_t>(std::max(0, n)), false);
    double endUs = 0;
    bool paging = false, delay = false;
    for (const Span& sp : run.spans) {
        endUs = std::max(endUs, sp.endUs);
        if (sp.rank >= 0 && sp.rank < n && sp.stream == 1)
            hasComm[static_cast<size_t>(sp.rank)] = true;
        paging = paging || sp.detail == SpanDetail::Paging;
        delay = delay || sp.detail == SpanDetail::InjectedDelay;
    }
    const std::vector<double> ticks = niceTicks(endUs / 1e3, 8);
    const double maxMs = ticks.back();
    const double x0 = 160;
    const double plotW = spec.width - x0 - 24;
    const double laneH = 24, subH = 10, gap = 10;
    const double top = 56;
    const auto xOf = [&](double us) { return x0 + us / 1e3 / maxMs * plotW; };
    const Language lang = spec.language;

    std::string lanes;
    double y = top;
    for (int r = 0; r < n; ++r) {
        const bool hi = r == spec.highlightRank;
        const std::string device = r < static_cast<int>(run.devices.size()) ? run.devices[static_cast<size_t>(r)]
                                   : r < scenario.ranks() ? scenario.topology.gpus[static_cast<size_t>(r)].name
                                                          : std::string();
        lanes += text(x0 - 10, y + 11,
                      render(Message(hi ? "report.timeline.rank_straggler" : "report.rank").with("rank", r), lang), 13,
                      "end", hi ? "#c62828" : kInk, hi);
        if (!device.empty())
            lanes += text(x0 - 10, y + 25, device, 10, "end", kMuted);
        lanes += rect(x0, y, plotW, laneH, "#f4f4f4");
        const double laneTotal = laneH + (hasComm[static_cast<size_t>(r)] ? subH + 2 : 0);
        for (const Span& sp : run.spans) {
            if (sp.rank != r)
                continue;
            const bool sub = sp.stream == 1;
            const double sy = sub ? y + laneH + 2 : y;
            const double sh = sub ? subH : laneH;
            const std::string color = palette::hex(palette::categoryOf(sp.kind, sp.detail));
            std::string extra;
            Message what(sp.kind == SpanKind::Comm   ? "report.span.comm"
                         : sp.kind == SpanKind::Wait ? "report.span.wait"
                                                     : "report.span.compute");
            if (sp.op >= 0 && sp.op < static_cast<int>(scenario.program.size())) {
                const Op& op = scenario.program[static_cast<size_t>(sp.op)];
                what = Message("report.span.of_op")
                           .with("span", std::move(what))
                           .with("op", op.name.empty() ? std::string(opName(op.kind)) : op.name);
            }
            if (sp.kind == SpanKind::Wait && sp.waitedFor >= 0)
                what = Message("report.span.waiting_for").with("span", std::move(what)).with("rank", sp.waitedFor);
            lanes += rect(xOf(sp.beginUs), sy, xOf(sp.endUs) - xOf(sp.beginUs), sh, color, extra,
                          render(Message("report.timeline.tooltip")
                                     .with("rank", r)
                                     .with("iteration", sp.iteration + 1)
                                     .with("span", std::move(what))
                                     .with("duration", formatMicros(sp.durationUs())),
                                 lang));
        }
        y += laneTotal + gap;
    }
    const double bottom = y - gap + 6;
    std::string marks;
    for (size_t i = 0; i < run.iterations.size(); ++i) {
        const double x = xOf(run.iterations[i].beginUs);
        if (i > 0)
            marks += line(x, top - 14, x, bottom, kMuted, 1, "4,3");
        marks += text(x + 4, top - 6,
                      render(Message("report.timeline.iteration").with("iteration", static_cast<int>(i + 1)), lang), 11,
                      "start", kMuted);
    }
    if (run.hang)
        marks += text(x0 + plotW, top - 6, render(Message("report.hung"), lang), 12, "end", "#c62828", true);
    std::string grid;
    axis(grid, ticks, x0, plotW, top - 2, bottom, render(Message("report.axis.time_ms"), lang));
    using palette::Category;
    std::vector<LegendEntry> entries;
    for (Category c : {Category::Compute, Category::Communication, Category::Wait})
        entries.push_back({categoryName(c, lang), palette::hex(c), {}});
    if (paging)
        entries.push_back({categoryName(Category::Paging, lang), palette::hex(Category::Paging), {}});
    if (delay)
        entries.push_back({categoryName(Category::InjectedDelay, lang), palette::hex(Category::InjectedDelay), {}});
    std::string leg;
    const double legendH = legend(leg, entries, x0, bottom + 62, spec.width - 10);
    fig.height = bottom + 48 + legendH + 8;
    fig.svg = openSvg(fig.width, fig.height, spec.title) + text(12, 22, spec.title, 16, "start", kInk, true) + grid
              + lanes + marks + leg + "</svg>\n";
    return fig;
}

} // namespace shardlab
