#include "shardlab/report/report_html.h"

#include "shardlab/model/verification.h"
#include "shardlab/report/report_sentences.h"
#include "shardlab/text/catalogue.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace shardlab {

namespace {

std::string esc(std::string_view s) { return xmlEscape(s); }

using HtmlValues = std::initializer_list<std::pair<std::string_view, std::string>>;

// The catalogue's wording of `id` in `language` as HTML: the wording escaped, each {name} replaced
// by the HTML given for it (already escaped: values in <b>, <code>, <span>).
std::string words(Language language, std::string_view id, HtmlValues values = {})
{
    const std::string_view* w = wording(id, language);
    if (!w)
        return "[" + esc(id) + "]";
    std::string out;
    for (size_t i = 0; i < w->size();) {
        const size_t open = w->find('{', i);
        if (open == std::string_view::npos) {
            out += esc(w->substr(i));
            break;
        }
        out += esc(w->substr(i, open - i));
        const size_t close = w->find('}', open);
        const std::string_view name =
            close == std::string_view::npos ? std::string_view() : w->substr(open + 1, close - open - 1);
        const auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
        if (close == std::string_view::npos || it == values.end()) {
            out += esc(w->substr(open, close == std::string_view::npos ? std::string_view::npos : close - open + 1));
            i = close == std::string_view::npos ? w->size() : close + 1;
            continue;
        }
        out += it->second;
        i = close + 1;
    }
    return out;
}

// A Message of the report as HTML text.
std::string said(const Message& m, Language language) { return esc(render(m, language)); }

// A wording as plain text (SVG figures escape their own text).
std::string plain(Language language, const char* id, Message m = {})
{
    m.id = id;
    return render(m, language);
}

std::string fmt(const char* f, double v)
{
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string ms(double v) { return fmt(v >= 100 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v); }

// Screen sizes in px; for print (QTextDocument on a PDF page) in pt, which it scales to the page.
// Chinese puts the CJK font first, so that Chinese text (and the Latin inside it) is set in one
// face; the PDF's QTextDocument picks the first family it has.
std::string styleSheet(bool print, Language language)
{
    const char* family =
        language == Language::Chinese
            ? "\"Noto Sans CJK SC\", \"Source Han Sans SC\", \"WenQuanYi Micro Hei\", \"DejaVu Sans\", sans-serif"
            : "\"DejaVu Sans\", \"Noto Sans CJK SC\", \"Noto Sans\", Arial, sans-serif";
    const auto size = [print](double px) { return print ? fmt("%.1fpt", px * 0.66) : fmt("%.0fpx", px); };
    std::ostringstream css;
    css << "\nbody { font-family: " << family << "; color: #222222; "
        << (print ? "" : "max-width: 1000px; margin: 24px auto; padding: 0 16px; line-height: 1.45; ")
        << "font-size: " << size(15) << "; }\n";
    // QTextDocument applies line-height to the line that holds a figure too: set it on text only.
    if (print)
        css << "p { line-height: 135%; }\n";
    css << "h1 { font-size: " << size(26) << "; margin-bottom: 4px; }\n"
        << "h2 { font-size: " << size(20)
        << "; margin-top: 24px; border-bottom: 2px solid #4e79a7; padding-bottom: 2px; "
        << "color: #2b4a6f; }\n"
        << "p.sub { color: #555555; margin-top: 0; }\n"
        << "table { border-collapse: collapse; margin: 8px 0; }\n"
        << "th, td { border: 1px solid #bbbbbb; padding: 4px 8px; vertical-align: top; }\n"
        << "th { background-color: #eeeeee; text-align: left; font-size: " << size(print ? 13 : 14) << "; }\n"
        << "td { font-size: " << size(print ? 13 : 14) << "; }\n"
        << "td.num { text-align: right; white-space: nowrap; }\n"
        << "th.nw { white-space: nowrap; }\n"
        << ".ok { color: #1a7f37; font-weight: bold; }\n"
        << ".bad { color: #c62828; font-weight: bold; }\n"
        << ".verdict { font-size: " << size(16) << "; }\n"
        << "code { font-family: \"DejaVu Sans Mono\", monospace; font-size: " << size(13) << "; }\n"
        << "pre { font-family: \"DejaVu Sans Mono\", \"Noto Sans Mono CJK SC\", monospace; font-size: "
        << size(print ? 11.5 : 12)
        << (print ? "; white-space: pre-wrap; }\n"
                  : "; background-color: #f7f7f7; padding: 8px; border: 1px solid #dddddd; }\n")
        << "p.caption { color: #555555; font-size: " << size(13) << "; margin-top: 2px; }\n"
        << "td.banner-sim { background-color: #e8f0fa; border: 1px solid #4e79a7; }\n"
        << "td.banner-live { background-color: #e9f7ec; border: 1px solid #1a7f37; }\n";
    return css.str();
}

std::string figureHtml(const SvgFigure& f, const ReportHtmlOptions& o)
{
    std::string out = "<div class=\"figure\" id=\"figure-" + esc(f.id) + "\">\n";
    if (o.figures == FigureEmbedding::InlineSvg) {
        // The standalone document minus its XML prologue-free <svg> root is valid inline HTML.
        out += f.svg;
    } else {
        out += "<img src=\"figure:" + esc(f.id) + "\" width=\"" + fmt("%.0f", f.width) + "\" height=\""
               + fmt("%.0f", f.height) + "\" alt=\"" + esc(f.title) + "\">\n";
    }
    if (!f.caption.empty())
        out += "<p class=\"caption\">" + esc(f.caption) + "</p>\n";
    return out + "</div>\n";
}

const SvgFigure* findFigure(const std::vector<SvgFigure>& figs, const std::string& id)
{
    for (const SvgFigure& f : figs)
        if (f.id == id)
            return &f;
    return nullptr;
}

// The first three values; the header says how many there are.
std::string valuesCell(const std::vector<double>& v)
{
    if (v.empty())
        return "&mdash;";
    std::vector<double> head(v.begin(), v.begin() + static_cast<long>(std::min<size_t>(3, v.size())));
    return "<code>" + esc(formatValues(head, 3)) + (v.size() > 3 ? ", &hellip;" : "") + "</code>";
}

// "[10, 11, 12, ...]": at most three values of a small example.
std::string exampleValues(const std::vector<double>& values)
{
    std::string out = "[";
    for (size_t i = 0; i < values.size() && i < 3; ++i)
        out += (i ? ", " : "") + fmt("%g", values[i]);
    return out + (values.size() > 3 ? ", &hellip;]" : "]");
}

void summarySection(std::ostringstream& h, const LabReport& r)
{
    const Summary& s = r.summary;
    const Language l = r.language;
    const bool live = r.mode == RunMode::Live;
    h << "<h1 id=\"summary\">" << words(l, "report.title") << "</h1>\n";
    const std::string name =
        "<b>" + (r.scenario.name.empty() ? words(l, "report.unnamed") : esc(r.scenario.name)) + "</b>";
    h << "<p class=\"sub\">"
      << (r.scenarioFile.empty()
              ? words(l, "report.generated", {{"scenario", name}, {"generator", esc(r.generator)}})
              : words(l, "report.generated_from",
                      {{"scenario", name}, {"file", esc(r.scenarioFile)}, {"generator", esc(r.generator)}}))
      << "</p>\n";
    h << "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\"><tr><td class=\""
      << (live ? "banner-live" : "banner-sim") << "\"><b>"
      << words(l, live ? "report.banner.live" : "report.banner.simulated") << "</b> " << said(r.modeSentence, l)
      << "</td></tr></table>\n";
    if (!r.scenario.description.empty())
        h << "<p>" << esc(r.scenario.description) << "</p>\n";
    h << "<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n";
    const auto fact = [&h, l](const char* k, const std::string& v) {
        h << "<tr><th>" << words(l, k) << "</th><td>" << v << "</td></tr>\n";
    };
    fact("report.fact.ranks", words(l, "report.fact.ranks_on",
                                    {{"ranks", std::to_string(s.ranks)}, {"topology", esc(r.scenario.topology.name)}}));
    fact("report.fact.iterations", std::to_string(r.scenario.iterations));
    fact("report.fact.step_time", s.oneGpuKnown ? words(l, "report.fact.step_time_value",
                                                        {{"step", ms(s.stepTimeMs)}, {"one_gpu", ms(s.oneGpuMs)}})
                                                : words(l, "report.fact.step_time_only", {{"step", ms(s.stepTimeMs)}}));
    fact("report.fact.speedup", s.hasSpeedup
                                    ? fmt("%.2fx", s.speedup) + " / " + formatPercent(s.efficiency)
                                    : words(l, "report.fact.no_speedup", {{"note", said(reportSpeedupNote(s), l)}}));
    fact("report.fact.straggler",
         s.straggler
             ? "<span class=\"bad\">" + words(l, "report.rank", {{"rank", std::to_string(*s.straggler)}}) + "</span>"
             : words(l, "common.none"));
    fact("report.fact.limited_by", said(bottleneckMessage(r.summary.bottleneck), l));
    if (r.run.hang)
        fact("report.fact.hang", words(l, "report.fact.hang_value",
                                       {{"hung", "<span class=\"bad\">" + words(l, "report.hung") + "</span>"},
                                        {"explanation", said(reportHangExplanation(*r.run.hang), l)}}));
    h << "</table>\n";
}

void perRankSection(std::ostringstream& h, const LabReport& r)
{
    const Language l = r.language;
    h << "<h2 id=\"per-rank-output\">" << words(l, "report.section.per_rank") << "</h2>\n";
    if (r.hasCollective)
        h << "<p>"
          << words(l, "report.per_rank.intro",
                   {{"collective", "<b>" + said(collectiveWords(r), l) + "</b>"},
                    {"kind", said(operationWords(r.collectiveKind), l)},
                    {"size", esc(formatBytes(r.collectiveBytes))},
                    {"method", said(r.verificationMethod, l)}})
          << "</p>\n";
    std::uint64_t elements = 0;
    for (const RankOutput& o : r.ranks)
        elements = std::max<std::uint64_t>(elements, o.localInput.size());
    const std::string n = std::to_string(elements);
    h << "<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n<tr><th>" << words(l, "report.column.rank")
      << "</th><th>" << words(l, "report.column.device") << "</th><th>" << words(l, "report.column.owns") << "</th><th>"
      << (elements > 0 ? words(l, "report.column.input_values", {{"values", n}}) : words(l, "report.column.input"))
      << "</th><th>"
      << (elements > 0 ? words(l, "report.column.result_values", {{"values", n}}) : words(l, "report.column.result"))
      << "</th><th>" << words(l, "report.column.verification") << "</th></tr>\n";
    for (const RankOutput& o : r.ranks) {
        const bool checked =
            o.inGroup && r.hasCollective && !r.run.hang && o.checkedElements > 0; // 0: a recorded run, never checked
        h << "<tr><td class=\"num\">" << o.rank << "</td><td>" << esc(o.device) << "</td><td>" << said(o.owns, l)
          << "</td><td>" << valuesCell(o.localInput) << "</td><td>" << valuesCell(o.localResult) << "</td><td>";
        if (checked)
            h << "<span class=\"" << (o.verified ? "ok" : "bad") << "\">"
              << words(l, o.verified ? "report.pass" : "report.fail") << "</span> ";
        h << said(o.verification, l) << "</td></tr>\n";
    }
    h << "</table>\n";
}

void topologySection(std::ostringstream& h, const LabReport& r)
{
    const Language l = r.language;
    h << "<h2 id=\"topology\">" << words(l, "report.section.topology") << "</h2>\n";
    h << "<p><b>" << words(l, r.topology.fastDomain ? "report.topology.domain_yes" : "report.topology.domain_no")
      << "</b> " << said(r.topology.sentence, l) << "</p>\n";
    h << "<p>"
      << words(l, "report.topology.from",
               {{"origin", said(r.topology.origin, l)}, {"command", "<code>nvidia-smi topo -m</code>"}})
      << "</p>\n";
    h << "<pre>" << esc(topoMatrixText(r.topology.topology, l)) << "</pre>\n";
}

void timingSection(std::ostringstream& h, const LabReport& r, const std::vector<SvgFigure>& figs,
                   const ReportHtmlOptions& o)
{
    const Language l = r.language;
    h << "<h2 id=\"timing\">"
      << words(l, r.timing.size() == 1 ? "report.section.timing_one" : "report.section.timing",
               {{"sizes", std::to_string(r.timing.size())}})
      << "</h2>\n";
    if (!r.timingNote.empty())
        h << "<p>" << said(r.timingNote, l) << "</p>\n";
    const auto th = [l](const char* id, bool nowrap = false) {
        return std::string(nowrap ? "<th class=\"nw\">" : "<th>") + words(l, id) + "</th>";
    };
    h << "<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n<tr>" << th("report.column.size")
      << th("report.column.compute", true) << th("report.column.collective", true) << th("report.column.wait")
      << th("report.column.step") << th("report.column.speedup", true) << th("report.column.efficiency", true)
      << th("report.column.collective_alone", true) << "<th>busbw</th>" << th("report.column.limit")
      << "</tr>\n"
         "<tr><th></th><th>ms</th><th>ms</th><th>ms</th><th>ms</th><th></th><th></th><th>ms</th><th>GB/s</th><th></"
         "th></tr>\n";
    for (const TimingRow& t : r.timing) {
        h << "<tr><td class=\"num\">" << (r.hasCollective ? esc(formatBytes(t.bytes)) : std::string("&mdash;"))
          << "</td><td class=\"num\">" << ms(t.computeMs) << "</td><td class=\"num\">" << ms(t.collectiveMs)
          << "</td><td class=\"num\">" << ms(t.waitMs) << "</td><td class=\"num\">" << ms(t.stepMs)
          << "</td><td class=\"num\">" << fmt("%.2fx", t.speedup) << "</td><td class=\"num\">"
          << formatPercent(t.efficiency) << "</td><td class=\"num\">" << ms(t.collectiveTimeMs)
          << "</td><td class=\"num\">" << fmt("%.1f", t.busbwGBps) << "</td><td>"
          << said(bottleneckMessage(t.bottleneck), l) << "</td></tr>\n";
    }
    h << "</table>\n";
    if (const SvgFigure* f = findFigure(figs, "timing"))
        h << figureHtml(*f, o);
}

void limitingSection(std::ostringstream& h, const LabReport& r, const std::vector<SvgFigure>& figs,
                     const ReportHtmlOptions& o)
{
    const Language l = r.language;
    h << "<h2 id=\"limiting-segment\">" << words(l, "report.section.limiting") << "</h2>\n";
    h << "<p class=\"verdict\"><b>"
      << words(l, "report.limiting.segment", {{"segment", said(bottleneckMessage(r.summary.bottleneck), l)}}) << "</b> "
      << said(r.limitingSentence, l) << "</p>\n";
    for (const char* id : {"timeline", "per-rank"})
        if (const SvgFigure* f = findFigure(figs, id))
            h << figureHtml(*f, o);
}

void comparisonSection(std::ostringstream& h, const LabReport& r, const std::vector<SvgFigure>& figs,
                       const ReportHtmlOptions& o)
{
    const Language l = r.language;
    h << "<h2 id=\"comparison\">" << words(l, "report.section.comparison") << "</h2>\n";
    if (!r.comparison) {
        h << "<p>" << words(l, "report.comparison.none") << "</p>\n";
        return;
    }
    const CollectiveComparison& c = *r.comparison;
    h << "<p>"
      << words(l, "report.comparison.intro",
               {{"size", esc(formatBytes(c.bytes))},
                {"ranks", std::to_string(c.ranks)},
                {"collective", said(collectiveWords(r), l)},
                {"source", said(r.comparisonTimeSource, l)}})
      << "</p>\n";
    const std::vector<const ComparisonSide*> sides = {&c.allReduce, &c.reduceScatterAllGather, &c.reduceScatterOnly};
    // Semantics: what each rank holds, on the example (at most four ranks shown).
    const size_t shown = std::min<size_t>(4, c.allReduce.exampleInputs.size());
    h << "<p><b>" << words(l, "report.comparison.semantics") << "</b> " << words(l, "report.comparison.holds")
      << "</p>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n<tr><th></th>";
    for (size_t rank = 0; rank < shown; ++rank)
        h << "<th>" << words(l, "report.rank", {{"rank", std::to_string(rank)}}) << "</th>";
    if (c.allReduce.exampleInputs.size() > shown)
        h << "<th>&hellip;</th>";
    h << "</tr>\n";
    const auto row = [&](const std::string& label, const RankValues& values) {
        h << "<tr><th>" << label << "</th>";
        for (size_t rank = 0; rank < shown; ++rank)
            h << "<td><code>" << (rank < values.size() ? exampleValues(values[rank]) : std::string()) << "</code></td>";
        if (values.size() > shown)
            h << "<td></td>";
        h << "</tr>\n";
    };
    row(words(l, "report.comparison.input"), c.allReduce.exampleInputs);
    for (const ComparisonSide* side : sides)
        row(said(operationWords(side->kind), l), side->exampleResult);
    h << "</table>\n";
    h << "<p>"
      << words(
             l, "report.comparison.table",
             {{"what", "<b>" + words(l, "report.comparison.table_what") + "</b>"}, {"size", esc(formatBytes(c.bytes))}})
      << "</p>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n<tr><th>"
      << words(l, "report.column.operation") << "</th><th>" << words(l, "report.column.kept") << "</th><th>"
      << words(l, "report.column.peak") << "</th><th>" << words(l, "report.column.sent") << "</th><th>"
      << words(l, "report.column.time") << "</th></tr>\n";
    for (const ComparisonSide* side : sides)
        h << "<tr><td>" << said(operationWords(side->kind), l) << "</td><td class=\"num\">"
          << esc(formatBytes(side->heldAfterPerRank)) << "</td><td class=\"num\">"
          << esc(formatBytes(side->peakPerRank)) << "</td><td class=\"num\">" << esc(formatBytes(side->sentPerRank))
          << "</td><td class=\"num\">" << esc(formatMicros(side->timeUs)) << "</td></tr>\n";
    h << "</table>\n<p>" << said(reportComparisonSentence(c), l) << "</p>\n";
    for (const char* id : {"comparison-time", "comparison-memory"})
        if (const SvgFigure* f = findFigure(figs, id))
            h << figureHtml(*f, o);
}

struct ChartText {
    const char* id;
    std::string title;
    std::string axisLabel;
    std::string caption;
    double width; // 0: the default
};

// A stacked chart of the three segments (compute, communication, wait) in the palette's colours.
SvgFigure segmentChart(const ChartText& text, const std::vector<std::string>& categories,
                       const std::vector<std::string>& notes,
                       const std::vector<std::pair<std::string, std::vector<double>>>& segments)
{
    BarChartSpec spec;
    spec.id = text.id;
    spec.title = text.title;
    spec.axisLabel = text.axisLabel;
    spec.valueUnit = "ms";
    spec.categories = categories;
    spec.categoryNotes = notes;
    const char* colours[] = {kComputeColor, kCommColor, kWaitColor};
    for (size_t i = 0; i < segments.size() && i < 3; ++i)
        spec.series.push_back({segments[i].first, colours[i], segments[i].second});
    if (text.width > 0)
        spec.width = text.width;
    SvgFigure fig = svgBarChart(spec);
    fig.caption = text.caption;
    return fig;
}

} // namespace

std::vector<std::string> labReportSectionIds()
{
    return {"summary", "per-rank-output", "topology", "timing", "limiting-segment", "comparison"};
}

std::vector<SvgFigure> labReportFigures(const LabReport& r, double width)
{
    const Language l = r.language;
    std::vector<SvgFigure> figs;
    TimelineSpec ts;
    ts.title = plain(l, r.mode == RunMode::Live ? "report.figure.timeline_live" : "report.figure.timeline_simulated");
    ts.highlightRank = r.summary.straggler.value_or(-1);
    ts.language = l;
    if (width > 0)
        ts.width = width;
    SvgFigure timeline = svgTimeline(r.scenario, r.run, ts);
    timeline.caption = plain(l, "report.figure.timeline_caption");
    figs.push_back(timeline);

    std::vector<std::string> ranks;
    std::vector<double> compute, comm, wait;
    for (const RankBreakdown& rb : r.summary.perRank) {
        ranks.push_back(plain(l, "report.rank", Message().with("rank", rb.rank)));
        compute.push_back(rb.computeMs);
        comm.push_back(rb.commMs);
        wait.push_back(rb.waitMs);
    }
    const std::string computeName = plain(l, "report.series.compute");
    const std::string waitName = plain(l, "report.series.wait");
    figs.push_back(segmentChart(
        {"per-rank", plain(l, "report.figure.per_rank"), plain(l, "report.axis.per_iteration"),
         plain(l, "report.figure.per_rank_caption"), width},
        ranks, {}, {{computeName, compute}, {plain(l, "report.series.communication"), comm}, {waitName, wait}}));

    if (r.hasCollective) {
        std::vector<std::string> sizes, notes;
        std::vector<double> tc, tm, tw;
        for (const TimingRow& row : r.timing) {
            sizes.push_back(formatBytes(row.bytes));
            notes.push_back(
                plain(l, "report.figure.efficiency", Message().with("efficiency", formatPercent(row.efficiency))));
            tc.push_back(row.computeMs);
            tm.push_back(row.collectiveMs);
            tw.push_back(row.waitMs);
        }
        figs.push_back(segmentChart(
            {"timing", plain(l, "report.figure.timing"), plain(l, "report.axis.per_iteration_mean"),
             plain(l, "report.figure.timing_caption"), width},
            sizes, notes, {{computeName, tc}, {plain(l, "report.series.collective"), tm}, {waitName, tw}}));
    }
    if (r.comparison) {
        const CollectiveComparison& cmp = *r.comparison;
        const std::vector<const ComparisonSide*> sides = {&cmp.allReduce, &cmp.reduceScatterAllGather,
                                                          &cmp.reduceScatterOnly};
        BarChartSpec ct;
        ct.id = "comparison-time";
        ct.title = plain(l, "report.figure.comparison_time",
                         Message().with("size", formatBytes(cmp.bytes)).with("ranks", cmp.ranks));
        ct.axisLabel = plain(l, "report.axis.time_ms");
        ct.valueUnit = "ms";
        // Each bar is one collective's duration: communication time, in the palette's communication colour.
        BarSeries time{plain(l, "report.series.time"), kCommColor, {}};
        for (const ComparisonSide* s : sides) {
            ct.categories.push_back(render(operationWords(s->kind), l));
            time.values.push_back(s->timeUs / 1e3);
        }
        ct.series = {time};
        if (width > 0)
            ct.width = width;
        SvgFigure ctf = svgBarChart(ct);
        ctf.caption =
            plain(l, "report.figure.comparison_time_caption", Message().with("source", r.comparisonTimeSource));
        figs.push_back(ctf);

        BarChartSpec cm;
        cm.id = "comparison-memory";
        cm.title = plain(l, "report.figure.memory");
        // GB, or MB where the largest buffer is below one gigabyte.
        double largest = 0;
        for (const ComparisonSide* s : sides)
            largest = std::max(largest, static_cast<double>(s->peakPerRank));
        const bool mb = largest < kGB;
        const double unit = mb ? 1e6 : kGB;
        cm.axisLabel = plain(l, mb ? "report.axis.mb_per_rank" : "report.axis.gb_per_rank");
        cm.valueUnit = mb ? "MB" : "GB";
        cm.stacked = false;
        // Memory is not a kind of time: the palette's memory colour, the result kept in a lighter shade.
        BarSeries held{plain(l, "report.series.kept"), kMemoryColor, {}, 0.45};
        BarSeries peak{plain(l, "report.series.peak"), kMemoryColor, {}};
        for (const ComparisonSide* s : sides) {
            cm.categories.push_back(render(operationWords(s->kind), l));
            held.values.push_back(static_cast<double>(s->heldAfterPerRank) / unit);
            peak.values.push_back(static_cast<double>(s->peakPerRank) / unit);
        }
        cm.series = {held, peak};
        if (width > 0)
            cm.width = width;
        SvgFigure cmf = svgBarChart(cm);
        cmf.caption = plain(l, "report.figure.memory_caption");
        figs.push_back(cmf);
    }
    return figs;
}

std::string labReportHtml(const LabReport& r, const ReportHtmlOptions& o)
{
    const Language l = r.language;
    const std::vector<SvgFigure> figs = labReportFigures(r, o.figureWidth);
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"" << (l == Language::Chinese ? "zh-CN" : "en")
      << "\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
      << words(l, "report.html_title", {{"scenario", esc(r.scenario.name)}}) << "</title>\n<style>"
      << styleSheet(o.printStyle, l) << "</style>\n</head>\n<body>\n";
    summarySection(h, r);
    perRankSection(h, r);
    topologySection(h, r);
    timingSection(h, r, figs, o);
    limitingSection(h, r, figs, o);
    comparisonSection(h, r, figs, o);
    if (!r.notes.empty()) {
        h << "<h2 id=\"notes\">" << words(l, "report.section.notes") << "</h2>\n<ul>\n";
        for (const Message& n : r.notes)
            h << "<li>" << said(n, l) << "</li>\n";
        h << "</ul>\n";
    }
    h << "<p class=\"caption\">" << esc(r.generator) << " &middot; "
      << words(l, r.mode == RunMode::Live ? "report.footer.live" : "report.footer.simulated") << " &middot; "
      << said(reportClockNote(r.run), l) << "</p>\n</body>\n</html>\n";
    return h.str();
}

} // namespace shardlab
