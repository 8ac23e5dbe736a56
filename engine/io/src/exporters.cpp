#include "shardlab/base/message_json.h"
#include "shardlab/io/exporters.h"

#include "shardlab/base/display_width.h"
#include "shardlab/io/run_result_json.h"
#include "shardlab/io/scenario_io.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <ostream>
#include <regex>
#include <sstream>
#include <string_view>

namespace shardlab {

namespace {

std::string spanLabel(const Scenario& s, const RunResult& run, const Span& sp)
{
    if (sp.detail == SpanDetail::InjectedDelay)
        return "injected delay";
    if (sp.detail == SpanDetail::Paging)
        return "unified-memory paging";
    const Op& op = s.program[static_cast<size_t>(sp.op)];
    std::string name = op.name.empty() ? opName(op.kind) : op.name;
    if (sp.collective >= 0 && sp.collective < static_cast<int>(run.collectives.size())) {
        const CollectiveRecord& rec = run.collectives[static_cast<size_t>(sp.collective)];
        if (rec.kind != op.kind)
            name += std::string(" (called as ") + opName(rec.kind) + ")";
    }
    if (op.buckets > 1)
        name += " [" + std::to_string(sp.bucket + 1) + "/" + std::to_string(op.buckets) + "]";
    if (sp.kind == SpanKind::Wait)
        return "wait" + (sp.waitedFor >= 0 ? " for rank " + std::to_string(sp.waitedFor) : std::string()) + " at "
               + name;
    return name;
}

} // namespace

namespace {

// `text` right-aligned (printf's %Ns) or left-aligned (%-Ns) in `width` terminal columns.
std::string tableRight(const std::string& text, size_t width)
{
    const size_t w = displayWidth(text);
    return w >= width ? text : std::string(width - w, ' ') + text;
}
std::string tableLeft(const std::string& text, size_t width)
{
    const size_t w = displayWidth(text);
    return w >= width ? text : text + std::string(width - w, ' ');
}

} // namespace

std::string formatSummaryTable(const Scenario& s, const Summary& given, Language language)
{
    // The summary's sentences in the table's language (a summary built by hand keeps its English).
    const Summary sum = language == Language::English ? given : wordedIn(given, language);
    const auto say = [language](const char* id) { return render(Message(id), language); };
    std::ostringstream out;
    char buf[512];
    out << render(
        Message("table.scenario")
            .with("name", s.name.empty() ? Message("table.unnamed") : verbatim(s.name))
            .with("topology", s.topology.name)
            .with("mode", Message(sum.mode == RunMode::Live ? "table.mode.live" : "table.mode.simulated"))
            .with("iterations",
                  Message(s.iterations == 1 ? "table.iterations.one" : "table.iterations").with("count", s.iterations)),
        language)
        << "\n\n";
    // "owned" is what the scenario places on the rank; "peak" adds the largest collective buffer
    // (measured use on a live run); "fits" is decided by the peak (RankMemory::fits()).
    out << tableRight("rank", 4) << "  " << fitToWidth(say("table.col.device"), 18) << " "
        << tableRight(say("table.col.compute"), 11) << " " << tableRight(say("table.col.comm"), 9) << " "
        << tableRight(say("table.col.wait"), 9) << " " << tableRight(say("table.col.owned"), 10) << " "
        << tableRight(say("table.col.peak"), 10) << " " << tableRight(say("table.col.capacity"), 10) << " "
        << tableRight(say("table.col.fits"), 5) << "\n";
    const std::string yes = say("table.yes"), no = say("table.no"), straggler = say("table.straggler_mark");
    for (const RankBreakdown& rb : sum.perRank) {
        // a profiled program's memory is not known: a dash, not "0 B" (Summary::memoryKnown)
        const std::string owned = sum.memoryKnown ? formatBytes(rb.owned) : "-";
        const std::string peak = sum.memoryKnown ? formatBytes(rb.peakMemory) : "-";
        // times through number(): at most a few dozen characters for any double
        std::snprintf(buf, sizeof buf, "%4d  %s %11s %9s %9s %10s %10s %10s ", rb.rank,
                      fitToWidth(rb.device, 18).c_str(), number("%.3f", rb.computeMs).c_str(),
                      number("%.3f", rb.commMs).c_str(), number("%.3f", rb.waitMs).c_str(), owned.c_str(), peak.c_str(),
                      formatBytes(rb.capacity).c_str());
        out << buf
            << tableRight(!sum.memoryKnown ? std::string("-")
                          : rb.fits        ? yes
                                           : no,
                          5)
            << (sum.straggler && *sum.straggler == rb.rank ? "  <- " + straggler : std::string()) << "\n";
    }
    if (!sum.collectives.empty()) {
        out << "\n";
        out << fitToWidth(say("table.col.collective"), 28) << " " << tableLeft(say("table.col.kind"), 14) << " "
            << tableRight(say("table.col.bytes"), 10) << " " << tableRight(say("table.col.time"), 10) << " "
            << tableRight("algbw GB/s", 11) << " " << tableRight("busbw GB/s", 11) << "\n";
        for (const CollectiveFigures& c : sum.collectives) {
            std::snprintf(buf, sizeof buf, "%s %-14.14s %10s %10s %11s %11s\n", fitToWidth(c.name, 28).c_str(),
                          opName(c.kind), formatBytes(c.bytes).c_str(), number("%.3f", c.timeMs).c_str(),
                          number("%.2f", c.algbwGBps).c_str(), number("%.2f", c.busbwGBps).c_str());
            out << buf;
        }
    }
    // No speed-up (a hang, no compute, one GPU): a dash, and the reason on the next line.
    Message line = Message(sum.hasSpeedup ? "table.figures" : "table.figures.no_speedup")
                       .with("step", number("%.3f", sum.stepTimeMs))
                       // a profiled program's time on one GPU is not known (Summary::oneGpuKnown)
                       .with("one", sum.oneGpuKnown ? number("%.3f", sum.oneGpuMs) : std::string("-"))
                       .with("straggler", sum.straggler ? Message("table.rank").with("rank", *sum.straggler)
                                                        : Message("common.none"))
                       .with("bottleneck", bottleneckMessage(sum.bottleneck));
    if (sum.hasSpeedup)
        line.arg("speedup", number("%.2fx", sum.speedup)).arg("efficiency", formatPercent(sum.efficiency));
    out << "\n" << render(line, language) << "\n";
    if (!sum.hasSpeedup)
        out << render(Message("table.no_speedup").with("why", sum.speedupNote), language) << "\n";
    out << sum.sentence << "\n";
    return out.str();
}

std::string summaryJson(const Summary& sum)
{
    using nlohmann::json;
    json doc = {{"mode", runModeName(sum.mode)},
                {"ranks", sum.ranks},
                {"step_time_ms", sum.stepTimeMs},
                {"speedup", sum.hasSpeedup ? json(sum.speedup) : json(nullptr)},
                {"efficiency", sum.hasSpeedup ? json(sum.efficiency) : json(nullptr)},
                {"speedup_note", sum.speedupNote.empty() ? json(nullptr) : json(sum.speedupNote)},
                {"hung", sum.hang.has_value()},
                {"straggler_rank", sum.straggler ? json(*sum.straggler) : json(nullptr)},
                {"bottleneck", bottleneckName(sum.bottleneck)},
                {"fits", sum.fits},
                {"one_gpu_ms", sum.oneGpuKnown ? json(sum.oneGpuMs) : json(nullptr)},
                {"compute_share", sum.computeShare},
                {"comm_share", sum.commShare},
                {"wait_share", sum.waitShare},
                {"sentence", sum.sentence}};
    doc["per_rank"] = json::array();
    for (const RankBreakdown& rb : sum.perRank)
        doc["per_rank"].push_back({{"rank", rb.rank},
                                   {"device", rb.device},
                                   {"compute_ms", rb.computeMs},
                                   {"comm_ms", rb.commMs},
                                   {"wait_ms", rb.waitMs},
                                   {"owned_bytes", rb.owned},
                                   {"peak_memory_bytes", rb.peakMemory},
                                   {"capacity_bytes", rb.capacity},
                                   {"fits", rb.fits}});
    doc["collectives"] = json::array();
    for (const CollectiveFigures& c : sum.collectives)
        doc["collectives"].push_back({{"name", c.name},
                                      {"kind", opName(c.kind)},
                                      {"bytes", c.bytes},
                                      {"ranks", c.ranks},
                                      {"time_ms", c.timeMs},
                                      {"algbw_gbps", c.algbwGBps},
                                      {"busbw_gbps", c.busbwGBps}});
    if (sum.hang) {
        json ranks = json::array();
        for (size_t r = 0; r < sum.hang->pending.size(); ++r)
            ranks.push_back({{"rank", r},
                             {"last_completed", r < sum.hang->lastCompleted.size() && sum.hang->lastCompleted[r] >= 0
                                                    ? json(sum.hang->lastCompleted[r])
                                                    : json(nullptr)},
                             {"pending", sum.hang->pending[r]}});
        doc["hang"] = {{"explanation", sum.hang->explanation},
                       {"first_mismatch_rank",
                        sum.hang->firstMismatchRank >= 0 ? json(sum.hang->firstMismatchRank) : json(nullptr)},
                       {"ranks", ranks}};
    }
    return doc.dump(2) + "\n";
}

namespace {

// An object written key by key in nlohmann's order (sorted keys, compact): `hole` writes the value
// of the keys it knows (streamed arrays) and returns true; the other values are dumped as they are.
void writeObject(std::ostream& out, const nlohmann::json& object,
                 const std::function<bool(const std::string&, std::ostream&)>& hole)
{
    out << '{';
    bool first = true;
    for (const auto& [key, value] : object.items()) {
        if (!first)
            out << ',';
        first = false;
        out << nlohmann::json(key).dump() << ':';
        if (!hole(key, out))
            out << value.dump();
    }
    out << '}';
}

// How many events each iteration puts in the trace: its spans, and a flow point per member of
// each of its collectives that has an arrow.
std::vector<std::size_t> eventsPerIteration(const RunResult& run)
{
    std::vector<std::size_t> n(run.iterations.size(), 0);
    auto at = [&](int iteration) -> std::size_t* {
        return iteration >= 0 && iteration < static_cast<int>(n.size()) ? &n[static_cast<size_t>(iteration)] : nullptr;
    };
    for (const Span& sp : run.spans)
        if (std::size_t* c = at(sp.iteration))
            ++*c;
    for (const CollectiveRecord& rec : run.collectives)
        if (std::size_t* c = at(rec.iteration); c && rec.group.size() >= 2 && rec.durationUs() > 0)
            *c += rec.group.size();
    return n;
}

} // namespace

int traceIterationsWithin(const RunResult& run, std::size_t maxEvents)
{
    const std::vector<std::size_t> perIteration = eventsPerIteration(run);
    std::size_t total = 0;
    for (size_t i = 0; i < perIteration.size(); ++i) {
        total += perIteration[i];
        if (total > maxEvents)
            return std::max(1, static_cast<int>(i));
    }
    return static_cast<int>(perIteration.size());
}

Status writeChromeTrace(std::ostream& out, const Scenario& s, const RunResult& run, const TraceOptions& options)
{
    using nlohmann::json;
    const int total = static_cast<int>(run.iterations.size());
    const int held = options.iterations > 0 && options.iterations < total ? options.iterations : total;
    const bool partial = held < total;
    const auto kept = [&](int iteration) { return !partial || iteration < held; };
    // A partial trace keeps the collectives of its iterations, renumbered in order: spans and flow
    // arrows name them by their new index.
    std::vector<int> newIndex;
    if (partial) {
        newIndex.assign(run.collectives.size(), -1);
        int next = 0;
        for (size_t c = 0; c < run.collectives.size(); ++c)
            if (kept(run.collectives[c].iteration))
                newIndex[c] = next++;
    }
    const auto indexOf = [&](int c) {
        if (!partial || c < 0)
            return c;
        return c < static_cast<int>(newIndex.size()) ? newIndex[static_cast<size_t>(c)] : -1;
    };

    out << "{\"displayTimeUnit\":\"ms\",\"otherData\":";
    // What Perfetto shows as metadata, then what ShardLab reads back (trace_import.h): the scenario
    // and the run's records other than its spans, which are the events below. The records' long
    // arrays (collectives, iteration times) are streamed into their place.
    std::vector<std::string> notes = english(run.notes);
    if (partial)
        notes.push_back("this trace holds iterations 1-" + std::to_string(held) + " of the run's "
                        + std::to_string(total) + " (shardlab --trace-iterations)");
    json other = {{"scenario", s.name},
                  {"topology", s.topology.name},
                  {"mode", runModeName(run.mode)},
                  {"clock", english(run.clockNote)},
                  {"generator", "ShardLab"}};
    other["shardlab"] = {{"trace_format", kTraceFormatVersion},
                         {"scenario", json::parse(serializeScenario(s))},
                         {"run", nullptr},
                         {"notes", notes}};
    if (partial)
        other["shardlab"]["trace_iterations"] = {{"held", held}, {"of", total}};
    // The run's records but its spans (the trace's events); collectives and iteration times are
    // streamed into place below. The notes travel here (with their messages), plus the partial
    // trace's own note.
    json records = detail::runMetaToJson(run);
    records["span_fields"] = detail::spanFieldsJson();
    records["collectives"] = json::array();
    records["iterations"] = json::array();
    if (partial) {
        records["notes"].push_back(notes.back());
        if (records.contains("note_messages"))
            records["note_messages"].push_back(messageToJson(verbatim(notes.back())));
    }
    writeObject(out, other, [&](const std::string& key, std::ostream& o) {
        if (key != "shardlab")
            return false;
        writeObject(o, other["shardlab"], [&](const std::string& k, std::ostream& o2) {
            if (k != "run")
                return false;
            writeObject(o2, records, [&](const std::string& field, std::ostream& o3) {
                if (field == "collectives") {
                    o3 << '[';
                    bool first = true;
                    for (const CollectiveRecord& rec : run.collectives) {
                        if (!kept(rec.iteration))
                            continue;
                        o3 << (first ? "" : ",") << detail::collectiveToJson(rec).dump();
                        first = false;
                    }
                    o3 << ']';
                    return true;
                }
                if (field == "iterations") {
                    o3 << '[';
                    for (int i = 0; i < held; ++i)
                        o3 << (i ? "," : "") << detail::iterationToJson(run.iterations[static_cast<size_t>(i)]).dump();
                    o3 << ']';
                    return true;
                }
                return false;
            });
            return true;
        });
        return true;
    });
    out << ",\"traceEvents\":[\n";
    bool first = true;
    auto emit = [&](const json& e) {
        if (!first)
            out << ",\n";
        first = false;
        out << e.dump();
    };
    for (int r = 0; r < run.ranks; ++r) {
        const std::string dev = r < static_cast<int>(run.devices.size()) ? run.devices[static_cast<size_t>(r)] : "";
        emit({{"name", "process_name"},
              {"ph", "M"},
              {"pid", r},
              {"args", {{"name", "rank " + std::to_string(r) + " (" + dev + ")"}}}});
        emit({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", r}, {"args", {{"sort_index", r}}}});
        emit({{"name", "thread_name"}, {"ph", "M"}, {"pid", r}, {"tid", 0}, {"args", {{"name", "compute stream"}}}});
        emit({{"name", "thread_name"},
              {"ph", "M"},
              {"pid", r},
              {"tid", 1},
              {"args", {{"name", "communication stream"}}}});
    }
    char buf[512];
    std::size_t written = 0;
    for (const Span& sp : run.spans) {
        if (!kept(sp.iteration))
            continue;
        if ((++written & 4095) == 0 && !out)
            return {}; // the stream failed (a full disk): the caller reports it
        const std::string label = json(spanLabel(s, run, sp)).dump(); // quoted and escaped
        std::snprintf(buf, sizeof buf,
                      ",\n{\"name\":%s,\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d,"
                      "\"args\":{\"iteration\":%d,\"step\":%d,\"bucket\":%d,\"collective\":%d,\"waited_for\":%d,"
                      "\"detail\":\"%s\"}}",
                      label.c_str(), spanKindName(sp.kind), sp.beginUs, sp.durationUs(), sp.rank, sp.stream,
                      sp.iteration, sp.op, sp.bucket, indexOf(sp.collective), sp.waitedFor, spanDetailName(sp.detail));
        out << (first ? buf + 2 : buf);
        first = false;
    }
    // Flow arrows: one chain per collective, through each member's communication span.
    for (size_t c = 0; c < run.collectives.size(); ++c) {
        const CollectiveRecord& rec = run.collectives[c];
        if (!kept(rec.iteration) || rec.group.size() < 2 || rec.durationUs() <= 0)
            continue;
        if ((++written & 4095) == 0 && !out)
            return {};
        const Op& op = s.program[static_cast<size_t>(rec.op)];
        const int tid = op.overlap ? 1 : 0;
        const std::string name = std::string(opName(rec.kind)) + " #" + std::to_string(rec.sequence);
        const auto id = static_cast<size_t>(indexOf(static_cast<int>(c)));
        for (size_t k = 0; k < rec.group.size(); ++k) {
            const char* ph = k == 0 ? "s" : k + 1 == rec.group.size() ? "f" : "t";
            std::snprintf(buf, sizeof buf,
                          ",\n{\"name\":\"%s\",\"cat\":\"collective\",\"ph\":\"%s\",\"id\":%zu,\"ts\":%.3f,\"pid\":%d,"
                          "\"tid\":%d%s}",
                          name.c_str(), ph, id, rec.startUs + 1e-3, rec.group[k], tid,
                          k + 1 == rec.group.size() ? ",\"bp\":\"e\"" : "");
            out << buf;
        }
    }
    out << "\n]}\n";
    return {};
}

std::string chromeTrace(const Scenario& s, const RunResult& run, const TraceOptions& options)
{
    std::ostringstream out;
    (void)writeChromeTrace(out, s, run, options);
    return out.str();
}

namespace {

// "-1.5", "+3e-2": a number a spreadsheet reads as a number, not a formula
bool plainNumber(const std::string& s)
{
    static const std::regex number(R"([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)");
    return std::regex_match(s, number);
}

} // namespace

std::string csvField(const std::string& s)
{
    // OWASP "CSV Injection": a leading =, +, -, @, tab or carriage return starts a formula
    const bool formula =
        !s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos && !plainNumber(s);
    if (!formula && s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string out = formula ? "\"'" : "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string perRankCsv(const Summary& sum)
{
    std::ostringstream out;
    out << "rank,device,compute_ms,comm_ms,wait_ms,peak_memory_bytes,capacity_bytes,fits,times_last,owned_bytes\n";
    for (const RankBreakdown& rb : sum.perRank)
        out << rb.rank << "," << csvField(rb.device) << "," << rb.computeMs << "," << rb.commMs << "," << rb.waitMs
            << "," << rb.peakMemory << "," << rb.capacity << "," << (rb.fits ? "true" : "false") << "," << rb.timesLast
            << "," << rb.owned << "\n";
    return out.str();
}

std::string collectivesCsv(const Summary& sum)
{
    std::ostringstream out;
    out << "name,kind,bytes,ranks,time_ms,algbw_gbps,busbw_gbps,count\n";
    for (const CollectiveFigures& c : sum.collectives)
        out << csvField(c.name) << "," << opName(c.kind) << "," << c.bytes << "," << c.ranks << "," << c.timeMs << ","
            << c.algbwGBps << "," << c.busbwGBps << "," << c.count << "\n";
    return out.str();
}

Status writeSpansCsv(std::ostream& out, const Scenario& s, const RunResult& run)
{
    out << "rank,stream,kind,begin_us,end_us,duration_us,iteration,step,bucket,label,waited_for\n";
    std::size_t written = 0;
    for (const Span& sp : run.spans) {
        if ((++written & 4095) == 0 && !out)
            return {}; // the stream failed (a full disk): the caller reports it
        out << sp.rank << "," << sp.stream << "," << spanKindName(sp.kind) << "," << sp.beginUs << "," << sp.endUs
            << "," << sp.durationUs() << "," << sp.iteration << "," << sp.op << "," << sp.bucket << ","
            << csvField(spanLabel(s, run, sp)) << "," << sp.waitedFor << "\n";
    }
    return {};
}

std::string spansCsv(const Scenario& s, const RunResult& run)
{
    std::ostringstream out;
    (void)writeSpansCsv(out, s, run);
    return out.str();
}

} // namespace shardlab
