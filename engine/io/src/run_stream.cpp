#include "shardlab/io/run_stream.h"

#include "shardlab/base/json_reader.h"
#include "shardlab/base/message_json.h"
#include "shardlab/base/version.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_result_json.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/text/foreign_text.h"

#include <algorithm>
#include <limits>
#include <ostream>

namespace shardlab {

using nlohmann::json;

namespace {

const char* errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::BadInput: return "bad_input";
    case ErrorKind::RunFailed: return "run_failed";
    case ErrorKind::Cancelled: return "cancelled";
    }
    return "run_failed";
}

// ASCII only (every other character as \uXXXX): the line passes any terminal filter, pipe or
// SSH channel unchanged, and a reader never sees a control character.
std::string dumpLine(const json& v) { return v.dump(-1, ' ', true, json::error_handler_t::replace) + "\n"; }

// The machine in the scenario format's topology form (as result files hold it).
json topologyJson(const Topology& topology)
{
    Scenario holder;
    holder.topology = topology;
    return json::parse(serializeScenario(holder)).at("topology");
}

// The beginning of a line, for messages about it.
std::string excerpt(const std::string& line)
{
    std::string s;
    for (char c : line.substr(0, 60))
        s += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    return line.size() > 60 ? s + "..." : s;
}

// "ORIGIN: line N" (error.stream.origin_line), where a line's messages begin.
Message lineOf(const std::string& origin, size_t line)
{
    return Message("error.stream.origin_line").with("origin", origin).with("line", std::to_string(line));
}

// "KEY VALUE is not a rank" (error.run.key_not_a_rank).
Message notARank(const char* key, int value)
{
    return Message("error.run.key_not_a_rank").with("key", key).with("value", std::to_string(value));
}

// A sorted vector's [from, to) holds one iteration per value of `iteration`.
template <class T>
size_t endOfIteration(const std::vector<T>& v, size_t from, int iteration)
{
    while (from < v.size() && v[from].iteration <= iteration)
        ++from;
    return from;
}

template <class T>
bool inIterationOrder(const std::vector<T>& v, size_t from)
{
    for (size_t i = from + 1; i < v.size(); ++i)
        if (v[i].iteration < v[i - 1].iteration)
            return false;
    return true;
}

// The spans, collectives and iteration marks of a chunk (or of a version 2 result's timeline)
// appended to `into`, each checked against the run so far: ranks, steps below `ops`, collectives
// that have arrived.
void readEntries(const json& doc, const std::string& at, int ops, RunResult& into)
{
    using namespace detail;
    const json& colls = arrayAt(member(doc, at, "collectives"), at + ".collectives");
    for (size_t i = 0; i < colls.size(); ++i) {
        const std::string p = at + ".collectives[" + std::to_string(i) + "]";
        CollectiveRecord c = collectiveFromJson(colls[i], p);
        if (c.op < 0 || c.op >= ops)
            failAt(p + ".op", Message("error.stream.not_a_step").with("step", std::to_string(c.op)));
        if (c.group.empty() || c.arrivalUs.size() != c.group.size())
            failAt(p, Message("error.run.arrivals"));
        for (int g : c.group)
            if (g < 0 || g >= into.ranks)
                failAt(p + ".group", Message("error.run.not_a_rank").with("value", std::to_string(g)));
        if (c.lastArrival < -1 || c.lastArrival >= into.ranks)
            failAt(p + ".last_arrival", Message("error.run.not_a_rank").with("value", std::to_string(c.lastArrival)));
        into.collectives.push_back(std::move(c));
    }
    const json& spans = arrayAt(member(doc, at, "spans"), at + ".spans");
    for (size_t i = 0; i < spans.size(); ++i) {
        const std::string p = at + ".spans[" + std::to_string(i) + "]";
        const Span s = spanFromJson(spans[i], p);
        if (s.rank < 0 || s.rank >= into.ranks)
            failAt(p, Message("error.run.rank_not_in_run").with("rank", std::to_string(s.rank)));
        if (s.op < 0 || s.op >= ops)
            failAt(p, Message("error.run.step_not_in_program").with("step", std::to_string(s.op)));
        if (s.collective < -1 || s.collective >= static_cast<int>(into.collectives.size()))
            failAt(p, Message("error.stream.collective_not_arrived").with("number", std::to_string(s.collective)));
        if (s.waitedFor < -1 || s.waitedFor >= into.ranks)
            failAt(p, notARank("waited_for", s.waitedFor));
        if (!(s.endUs >= s.beginUs))
            failAt(p, Message("error.run.ends_before_begins"));
        into.spans.push_back(s);
    }
    const json& iters = arrayAt(member(doc, at, "iterations"), at + ".iterations");
    for (size_t i = 0; i < iters.size(); ++i)
        into.iterations.push_back(iterationFromJson(iters[i], at + ".iterations[" + std::to_string(i) + "]"));
}

} // namespace

// ---- writer ----------------------------------------------------------------------------------

bool RunStreamWriter::ok() const { return m_out.good(); }

bool RunStreamWriter::line(const std::string& text)
{
    if (!m_out.good())
        return false;
    m_out << text << std::flush;
    return m_out.good();
}

bool RunStreamWriter::header(const StreamHeader& h)
{
    m_open = h.openProgram;
    json doc = {{"shardlab_stream", h.openProgram ? 2 : 1}, // 1 unless the stream needs version 2's open program
                {"type", "header"},
                {"shardlab_version", h.shardlabVersion.empty() ? std::string(kVersion) : h.shardlabVersion},
                {"mode", runModeName(h.mode)},
                {"launch", h.launch},
                {"scenario", json::parse(serializeScenario(h.scenario))},
                {"machine", h.machine && validateTopology(*h.machine) ? topologyJson(*h.machine) : json(nullptr)},
                {"span_fields", detail::spanFieldsJson()}};
    if (h.openProgram)
        doc["open_program"] = true;
    return line(dumpLine(doc));
}

bool RunStreamWriter::progress(int done, int total)
{
    return line(dumpLine({{"type", "progress"}, {"done", done}, {"total", total}}));
}

bool RunStreamWriter::sendChunk(const RunResult& run, size_t spanEnd, size_t collectiveEnd, size_t iterationEnd,
                                int done, int total)
{
    json spans = json::array(), colls = json::array(), iters = json::array();
    for (size_t i = m_spans; i < spanEnd; ++i)
        spans.push_back(detail::spanToJson(run.spans[i]));
    for (size_t i = m_collectives; i < collectiveEnd; ++i)
        colls.push_back(detail::collectiveToJson(run.collectives[i]));
    for (size_t i = m_iterations; i < iterationEnd; ++i)
        iters.push_back(detail::iterationToJson(run.iterations[i]));
    const json doc = {{"type", "chunk"},
                      {"done", done},
                      {"total", total},
                      {"first_span", m_spans},
                      {"first_collective", m_collectives},
                      {"first_iteration", m_iterations},
                      {"spans", std::move(spans)},
                      {"collectives", std::move(colls)},
                      {"iterations", std::move(iters)}};
    m_spans = spanEnd;
    m_collectives = collectiveEnd;
    m_iterations = iterationEnd;
    return line(dumpLine(doc));
}

bool RunStreamWriter::chunk(const RunResult& soFar, int done, int total)
{
    return sendChunk(soFar, soFar.spans.size(), soFar.collectives.size(), soFar.iterations.size(), done, total);
}

bool RunStreamWriter::result(const RunResult& run, const StreamEnding& ending)
{
    const int total = static_cast<int>(run.iterations.size());
    // A live run arrives whole: sent as one chunk per iteration when its entries are in
    // iteration order (they are: the executor assembles them so), else as one chunk.
    if (!ending.replaceTimeline
        && (m_spans < run.spans.size() || m_collectives < run.collectives.size()
            || m_iterations < run.iterations.size())) {
        if (inIterationOrder(run.spans, m_spans) && inIterationOrder(run.collectives, m_collectives)) {
            while (m_iterations < run.iterations.size()) {
                const int it = static_cast<int>(m_iterations);
                const size_t spanEnd = endOfIteration(run.spans, m_spans, it);
                size_t collEnd = endOfIteration(run.collectives, m_collectives, it);
                // a span never names a collective that a later chunk brings
                for (size_t i = m_spans; i < spanEnd; ++i)
                    if (run.spans[i].collective >= 0)
                        collEnd = std::max(collEnd, static_cast<size_t>(run.spans[i].collective) + 1);
                collEnd = std::min(collEnd, run.collectives.size());
                if (!sendChunk(run, spanEnd, collEnd, m_iterations + 1, it + 1, total))
                    return false;
            }
        }
        if ((m_spans < run.spans.size() || m_collectives < run.collectives.size())
            && !sendChunk(run, run.spans.size(), run.collectives.size(), run.iterations.size(), total, total))
            return false;
    }
    json doc = detail::runMetaToJson(run);
    doc["type"] = "result";
    doc["spans"] = run.spans.size();
    doc["collectives"] = run.collectives.size();
    doc["iterations"] = run.iterations.size();
    if (m_open && ending.scenario) // version 2: the open program as finally known
        doc["scenario"] = json::parse(serializeScenario(*ending.scenario));
    if (m_open && ending.replaceTimeline) { // version 2: the final timeline replaces the provisional chunks
        json spans = json::array(), colls = json::array(), iters = json::array();
        for (const Span& sp : run.spans)
            spans.push_back(detail::spanToJson(sp));
        for (const CollectiveRecord& c : run.collectives)
            colls.push_back(detail::collectiveToJson(c));
        for (const IterationMark& it : run.iterations)
            iters.push_back(detail::iterationToJson(it));
        doc["timeline"] = {
            {"spans", std::move(spans)}, {"collectives", std::move(colls)}, {"iterations", std::move(iters)}};
        m_spans = run.spans.size();
        m_collectives = run.collectives.size();
        m_iterations = run.iterations.size();
    }
    return line(dumpLine(doc));
}

bool RunStreamWriter::error(const Error& e)
{
    nlohmann::json doc = {{"type", "error"}, {"kind", errorKindName(e.kind)}, {"message", e.message}};
    if (!e.what.empty()) // the same as a Message, for a reader that words it in its user's language
        doc["what"] = messageToJson(e.what);
    return line(dumpLine(doc));
}

// ---- reader ----------------------------------------------------------------------------------

Status RunStreamReader::feed(std::string_view bytes, const std::function<void(Event)>& onEvent)
{
    if (m_problem)
        return *m_problem;
    size_t start = 0;
    while (start < bytes.size()) {
        const size_t nl = bytes.find('\n', start);
        const size_t end = nl == std::string_view::npos ? bytes.size() : nl;
        if (m_pending.size() + (end - start) > kMaxStreamLineBytes) {
            m_problem = badInput(Message("error.stream.line_too_long")
                                     .with("origin", m_origin)
                                     .with("line", std::to_string(m_lineNo + 1))
                                     .with("mib", std::to_string(kMaxStreamLineBytes >> 20)));
            return *m_problem;
        }
        m_pending.append(bytes.substr(start, end - start));
        if (nl == std::string_view::npos)
            break;
        start = nl + 1;
        ++m_lineNo;
        std::string text = std::move(m_pending);
        m_pending.clear();
        if (!text.empty() && text.back() == '\r')
            text.pop_back();
        if (text.empty())
            continue;
        Event event = Event::Progress;
        if (Status st = parseLine(text, &event); !st) {
            m_problem = st.error();
            return *m_problem;
        }
        if (onEvent)
            onEvent(event);
    }
    return {};
}

Status RunStreamReader::parseLine(const std::string& text, Event* event)
{
    const std::string where = m_origin + ": line " + std::to_string(m_lineNo); // an origin inside the line
    const Message at = lineOf(m_origin, m_lineNo);
    if (m_finished || m_reported)
        return badInput(Message("error.stream.after_end").with("where", at).with("excerpt", excerpt(text)));
    if (!detail::jsonShapeMessage(text).empty() || text.front() != '{') {
        if (!m_header)
            return badInput(
                Message("error.stream.not_a_stream").with("origin", m_origin).with("excerpt", excerpt(text)));
        return badInput(Message("error.stream.not_a_line").with("where", at).with("excerpt", excerpt(text)));
    }
    json doc;
    try {
        doc = detail::parseJsonStrict(text);
    } catch (const json::exception& e) {
        return badInput(
            Message("error.io.in")
                .with("origin", at)
                .with("what", Message("error.says.not_valid_json").with("parser", parserMessage(e.what()))));
    } catch (const detail::JsonPathError& e) {
        return detail::errorAt(at, e);
    }
    try {
        using namespace detail;
        if (!doc.is_object())
            failAt("$", Message("error.says.expected").with("expected", Message("error.expected.object")));
        // a writer that failed before its header (a scenario it could not read) sends only this
        if (const auto t = doc.find("type"); t != doc.end() && *t == "error") {
            readError(doc);
            *event = Event::Error;
            return {};
        }
        if (!m_header) {
            *event = Event::Header;
            return readHeader(doc, text, where);
        }
        const std::string type = stringAt(member(doc, "$", "type"), "$.type");
        if (type == "progress") {
            m_done = static_cast<int>(integerAt(member(doc, "$", "done"), "$.done", 0, 1 << 30));
            m_total = static_cast<int>(integerAt(member(doc, "$", "total"), "$.total", 0, 1 << 30));
            *event = Event::Progress;
            return {};
        }
        if (type == "chunk") {
            readChunk(doc);
            *event = Event::Chunk;
            return {};
        }
        if (type == "result") {
            *event = Event::Result;
            return readResult(doc, where);
        }
        failAt("$.type", Message("error.json.unknown_value")
                             .with("value", type)
                             .with("expected", expectedChoice({"progress", "chunk", "result", "error"})));
    } catch (const detail::JsonPathError& e) {
        return detail::errorAt(at, e);
    } catch (const json::exception& e) {
        return badInput(Message("error.io.in").with("origin", at).with("what", parserMessage(e.what())));
    }
    return {};
}

// {"type": "error"}: the writer's error, reported by finish().
void RunStreamReader::readError(const json& doc)
{
    using namespace detail;
    const std::string kind = stringAt(member(doc, "$", "kind"), "$.kind");
    Error e;
    e.kind = kind == "bad_input"   ? ErrorKind::BadInput
             : kind == "cancelled" ? ErrorKind::Cancelled
                                   : ErrorKind::RunFailed;
    e.message = stringAt(member(doc, "$", "message"), "$.message");
    // "what": the message as data (a newer writer); kept where it says what "message" says
    const auto what = doc.find("what");
    e.what = messageSaying(what != doc.end() ? &*what : nullptr, e.message);
    m_reported = std::move(e);
}

// The first line: the format version, the writer, the scenario and the machine.
Status RunStreamReader::readHeader(const json& doc, const std::string& text, const std::string& where)
{
    using namespace detail;
    const auto version = doc.find("shardlab_stream");
    if (version == doc.end())
        return badInput(Message("error.stream.no_format")
                            .with("origin", m_origin)
                            .with("key", "\"shardlab_stream\"")
                            .with("excerpt", excerpt(text)));
    const long long v = integerAt(*version, "$.shardlab_stream", 0, 1 << 20);
    const auto writer = doc.find("shardlab_version");
    const bool named = writer != doc.end() && writer->is_string();
    const std::string by = named ? writer->get<std::string>() : "unknown";
    if (v < kStreamFormatVersionOldest || v > kStreamFormatVersion)
        return badInput(Message("error.stream.format_version")
                            .with("origin", m_origin)
                            .with("version", std::to_string(v))
                            .with("by", named ? verbatim(by) : Message("error.stream.unknown_version"))
                            .with("mine", kVersion)
                            .with("oldest", std::to_string(kStreamFormatVersionOldest))
                            .with("newest", std::to_string(kStreamFormatVersion)));
    if (stringAt(member(doc, "$", "type"), "$.type") != "header")
        failAt("$.type", Message("error.stream.header_first").with("header", "\"header\""));
    StreamHeader h;
    h.format = static_cast<int>(v);
    h.shardlabVersion = by;
    h.mode = detail::modeAt(member(doc, "$", "mode"), "$.mode");
    h.launch = stringAt(member(doc, "$", "launch"), "$.launch");
    if (const auto open = doc.find("open_program"); open != doc.end()) {
        if (v < 2)
            failAt("$.open_program",
                   Message("error.stream.needs_version").with("needs", "2").with("version", std::to_string(v)));
        if (!open->is_boolean())
            failAt("$.open_program", foundInstead(*open, Message("error.expected.boolean")));
        h.openProgram = open->get<bool>();
    }
    if (member(doc, "$", "span_fields") != spanFieldsJson())
        failAt("$.span_fields", Message("error.stream.span_fields"));
    auto scenario = parseScenario(member(doc, "$", "scenario").dump(), where + " ($.scenario)");
    if (!scenario)
        return scenario.error();
    h.scenario = std::move(*scenario);
    if (const json& m = member(doc, "$", "machine"); !m.is_null()) {
        const json holder = {{"shardlab", kScenarioFormatVersion}, {"name", "machine"}, {"topology", m}};
        auto machine = parseScenario(holder.dump(), where + " ($.machine)");
        if (!machine)
            return machine.error();
        h.machine = machine->topology;
    }
    m_run.mode = h.mode;
    m_run.ranks = h.scenario.ranks();
    m_header = std::move(h);
    return {};
}

namespace {

// A count that a chunk or the result states under `key` ("first_span", "spans"), checked by the
// caller against what has arrived: a whole number.
long long statedCount(const json& doc, const char* key)
{
    return detail::integerAt(detail::member(doc, "$", key), std::string("$.") + key, 0, 1LL << 50);
}

} // namespace

// A chunk: the spans, collectives and iteration marks that follow those that arrived.
void RunStreamReader::readChunk(const json& doc)
{
    using namespace detail;
    const Scenario& scenario = m_header->scenario;
    auto expectAt = [&](const char* key, size_t have) {
        const long long first = statedCount(doc, key);
        if (static_cast<size_t>(first) != have)
            failAt(std::string("$.") + key, Message("error.stream.chunk_gap")
                                                .with("first", std::to_string(first))
                                                .with("have", std::to_string(have)));
    };
    expectAt("first_span", m_run.spans.size());
    expectAt("first_collective", m_run.collectives.size());
    expectAt("first_iteration", m_run.iterations.size());
    // an open program's steps are known only at the end (version 2)
    readEntries(doc, "$",
                m_header->openProgram ? std::numeric_limits<int>::max() : static_cast<int>(scenario.program.size()),
                m_run);
    m_done = static_cast<int>(integerAt(member(doc, "$", "done"), "$.done", 0, 1 << 30));
    m_total = static_cast<int>(integerAt(member(doc, "$", "total"), "$.total", 0, 1 << 30));
}

// The result: counts checked against what arrived, an open program's final scenario and timeline,
// and the run's metadata.
Status RunStreamReader::readResult(const json& doc, const std::string& where)
{
    using namespace detail;
    if (detail::modeAt(member(doc, "$", "mode"), "$.mode") != m_run.mode)
        failAt("$.mode",
               Message("error.stream.mode_differs").with("mode", stringAt(member(doc, "$", "mode"), "$.mode")));
    if (const auto sc = doc.find("scenario"); sc != doc.end()) {
        if (!m_header->openProgram)
            failAt("$.scenario", Message("error.stream.scenario_not_open"));
        auto final = parseScenario(sc->dump(), where + " ($.scenario)");
        if (!final)
            return final.error();
        if (final->ranks() != m_run.ranks)
            failAt("$.scenario", Message("error.stream.scenario_ranks")
                                     .with("ranks", std::to_string(final->ranks()))
                                     .with("header_ranks", std::to_string(m_run.ranks)));
        m_final = std::move(*final);
    }
    if (const auto tl = doc.find("timeline"); tl != doc.end()) {
        if (!m_header->openProgram)
            failAt("$.timeline", Message("error.stream.timeline_not_open"));
        if (!tl->is_object())
            failAt("$.timeline", foundInstead(*tl, Message("error.expected.object")));
        RunResult replaced;
        replaced.mode = m_run.mode;
        replaced.ranks = m_run.ranks;
        readEntries(*tl, "$.timeline", static_cast<int>(this->scenario()->program.size()), replaced);
        m_run.spans = std::move(replaced.spans);
        m_run.collectives = std::move(replaced.collectives);
        m_run.iterations = std::move(replaced.iterations);
    }
    const long long ranks = integerAt(member(doc, "$", "ranks"), "$.ranks", 0, 1 << 20);
    if (ranks != m_run.ranks)
        failAt("$.ranks", Message("error.stream.ranks_differ")
                              .with("ranks", std::to_string(ranks))
                              .with("scenario_ranks", std::to_string(m_run.ranks)));
    auto count = [&](const char* key, size_t have) {
        const long long n = statedCount(doc, key);
        if (static_cast<size_t>(n) != have)
            failAt(std::string("$.") + key, Message("error.stream.count_differs")
                                                .with("count", std::to_string(n))
                                                .with("have", std::to_string(have)));
    };
    count("spans", m_run.spans.size());
    count("collectives", m_run.collectives.size());
    count("iterations", m_run.iterations.size());
    detail::runMetaFromJson(doc, "$", m_run); // mode and ranks were checked against the header above
    if (m_run.hang
        && (m_run.hang->lastCompleted.size() > static_cast<size_t>(m_run.ranks)
            || m_run.hang->pending.size() != m_run.hang->lastCompleted.size()))
        failAt("$.hang", Message("error.run.hang_entries").with("last", "last_completed").with("pending", "pending"));
    m_done = m_total = static_cast<int>(m_run.iterations.size());
    m_finished = true;
    return {};
}

Result<RunResult> RunStreamReader::finish()
{
    if (m_problem)
        return *m_problem;
    if (!m_pending.empty()) { // a last line without its new line: complete it
        if (Status st = feed("\n"); !st)
            return st.error();
    }
    if (m_reported)
        return *m_reported;
    if (!m_header)
        return runFailed(Message("error.stream.ended_before_header").with("origin", m_origin));
    if (!m_finished && m_header->openProgram)
        return runFailed(Message("error.stream.ended_in_program")
                             .with("origin", m_origin)
                             .with("count", std::to_string(m_run.collectives.size())));
    if (!m_finished)
        return runFailed(Message("error.stream.ended_in_run")
                             .with("origin", m_origin)
                             .with("done", std::to_string(m_run.iterations.size()))
                             .with("total", std::to_string(m_total)));
    if (Status st = checkRunAgainstScenario(m_run, *scenario()); !st)
        return badInput(Message("error.io.in").with("origin", m_origin).with("what", messageOf(st.error())));
    return m_run;
}

RunResult RunStreamReader::partial() const
{
    RunResult run = m_run;
    if (m_header && run.devices.empty())
        for (const Gpu& g : m_header->scenario.topology.gpus)
            run.devices.push_back(g.name);
    if (!m_finished && m_header && m_header->openProgram)
        run.notes.push_back(
            Message("stream.note.stopped_in_program").with("count", std::to_string(run.collectives.size())));
    else if (!m_finished)
        run.notes.push_back(Message("stream.note.stopped")
                                .with("done", std::to_string(run.iterations.size()))
                                .with("total", std::to_string(m_total)));
    return run;
}

const Scenario* RunStreamReader::scenario() const
{
    if (m_final)
        return &*m_final;
    return m_header ? &m_header->scenario : nullptr;
}

Result<RunResult> readRunStream(std::string_view text, const std::string& origin, StreamHeader* header)
{
    RunStreamReader reader(origin);
    if (Status st = reader.feed(text); !st)
        return st.error();
    auto run = reader.finish();
    if (header && reader.header())
        *header = *reader.header();
    return run;
}

} // namespace shardlab
