#include "shardlab/io/run_result_io.h"

#include "shardlab/base/json_reader.h"
#include "shardlab/base/message_json.h"
#include "shardlab/io/run_result_json.h"
#include "shardlab/text/foreign_text.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shardlab {

namespace detail {

using nlohmann::json;

namespace {

const char* const kSpanFields[] = {"rank",      "stream", "kind",       "begin_us",   "end_us", "op",
                                   "iteration", "bucket", "collective", "waited_for", "detail"};

int intAt(const json& v, const std::string& path, long long lo = std::numeric_limits<int>::min(),
          long long hi = std::numeric_limits<int>::max())
{
    return static_cast<int>(integerAt(v, path, lo, hi));
}

// One of the enum's names (its table in model/), or an error listing them all.
template <class E, size_t N>
E enumAt(const json& v, const std::string& path, const EnumName<E> (&table)[N])
{
    const std::string s = stringAt(v, path);
    if (auto e = valueIn(table, s))
        return *e;
    std::vector<std::string> names;
    for (size_t i = 0; i < N; ++i)
        names.emplace_back(table[i].name);
    failAt(path, Message("error.json.unknown_value").with("value", s).with("expected", expectedChoice(names)));
}

OpKind opAt(const json& v, const std::string& path)
{
    const std::string s = stringAt(v, path);
    auto k = opFromName(s);
    if (!k || *k == OpKind::Compute)
        failAt(path, Message("error.json.unknown_value")
                         .with("value", s)
                         .with("expected", Message("error.expects.collective_such_as").with("example", "all_reduce")));
    return *k;
}

} // namespace

json collectiveToJson(const CollectiveRecord& c)
{
    json arrivals = json::array();
    for (double a : c.arrivalUs)
        arrivals.push_back(std::isnan(a) ? json(nullptr) : json(a)); // not seen by this process
    return {{"op", c.op},
            {"iteration", c.iteration},
            {"bucket", c.bucket},
            {"sequence", c.sequence},
            {"kind", opName(c.kind)},
            {"bytes", c.bytes},
            {"group", c.group},
            {"arrival_us", std::move(arrivals)},
            {"start_us", c.startUs},
            {"end_us", c.endUs},
            {"last_arrival", c.lastArrival},
            {"algorithm", algorithmName(c.algorithm)},
            {"protocol", protocolName(c.protocol)},
            {"wrong_elements", c.wrongElements}};
}

json iterationToJson(const IterationMark& m) { return {m.beginUs, m.endUs}; }

json spanToJson(const Span& s)
{
    return {s.rank,       s.stream,    spanKindName(s.kind),    s.beginUs, s.endUs, s.op, s.iteration, s.bucket,
            s.collective, s.waitedFor, spanDetailName(s.detail)};
}

json spanFieldsJson() { return kSpanFields; }

json hangToJson(const std::optional<HangReport>& hang)
{
    if (!hang)
        return nullptr;
    // The English as before, for readers of the file; the same sentences as messages
    // (text/message.h) beside it, so that a run read back is worded in the user's language.
    json doc = {{"last_completed", hang->lastCompleted},
                {"pending", hang->pending},
                {"first_mismatch_rank", hang->firstMismatchRank},
                {"explanation", hang->explanation}};
    if (!hang->explanationWording.empty())
        doc["explanation_message"] = messageToJson(hang->explanationWording);
    if (!hang->pendingMessages.empty()) {
        json messages = json::array();
        for (const Message& m : hang->pendingMessages)
            messages.push_back(messageToJson(m));
        doc["pending_messages"] = std::move(messages);
    }
    return doc;
}

// Everything of a run but its timeline (spans, collectives, iteration times): the one writer of a
// run's metadata, used by result files, the run stream's last line and the Chrome trace.
json runMetaToJson(const RunResult& run)
{
    // The clock sentence and the notes in English, as files have always carried them (for scripts
    // and older readers), and as Messages beside them (text/message.h) where they are catalogue
    // sentences, so that a run read back is worded in the user's language. Verbatim text has its
    // English only.
    json doc = {{"mode", runModeName(run.mode)},
                {"ranks", run.ranks},
                {"devices", run.devices},
                {"clock", english(run.clockNote)}};
    if (!run.clockNote.empty() && run.clockNote.id != "verbatim")
        doc["clock_message"] = messageToJson(run.clockNote);
    doc["notes"] = english(run.notes);
    if (std::any_of(run.notes.begin(), run.notes.end(), [](const Message& m) { return m.id != "verbatim"; })) {
        json messages = json::array();
        for (const Message& m : run.notes)
            messages.push_back(messageToJson(m));
        doc["note_messages"] = std::move(messages);
    }
    doc["peak_memory_bytes"] = run.peakMemory;
    doc["paging_us"] = run.pagingUs;
    doc["hang"] = hangToJson(run.hang);
    if (run.sharedGpu > 0)
        doc["shared_gpu_ranks"] = run.sharedGpu; // written only where ranks shared a GPU
    return doc;
}

json runResultToJson(const RunResult& run)
{
    json doc = runMetaToJson(run);
    doc["span_fields"] = kSpanFields;
    json spans = json::array();
    for (const Span& s : run.spans)
        spans.push_back(spanToJson(s));
    doc["spans"] = std::move(spans);
    json colls = json::array();
    for (const CollectiveRecord& c : run.collectives)
        colls.push_back(collectiveToJson(c));
    doc["collectives"] = std::move(colls);
    json iters = json::array();
    for (const IterationMark& m : run.iterations)
        iters.push_back(iterationToJson(m));
    doc["iterations"] = std::move(iters);
    return doc;
}

Span spanFromJson(const json& v, const std::string& p)
{
    const json& a = arrayAt(v, p);
    if (a.size() != std::size(kSpanFields))
        failAt(p, Message("error.says.fields")
                      .with("count", std::to_string(a.size()))
                      .with("fields", std::to_string(std::size(kSpanFields))));
    auto at = [&](size_t k) { return p + "[" + std::to_string(k) + "]"; };
    Span s;
    s.rank = intAt(a[0], at(0));
    s.stream = intAt(a[1], at(1), 0, 1);
    s.kind = enumAt(a[2], at(2), kSpanKindNames);
    s.beginUs = numberAt(a[3], at(3));
    s.endUs = numberAt(a[4], at(4));
    s.op = intAt(a[5], at(5));
    s.iteration = intAt(a[6], at(6));
    s.bucket = intAt(a[7], at(7));
    s.collective = intAt(a[8], at(8));
    s.waitedFor = intAt(a[9], at(9));
    s.detail = enumAt(a[10], at(10), kSpanDetailNames);
    return s;
}

CollectiveRecord collectiveFromJson(const json& c, const std::string& p)
{
    auto m = [&](const char* k) -> const json& { return member(c, p, k); };
    auto q = [&](const char* k) { return p + "." + k; };
    CollectiveRecord r;
    r.op = intAt(m("op"), q("op"));
    r.iteration = intAt(m("iteration"), q("iteration"));
    r.bucket = intAt(m("bucket"), q("bucket"));
    r.sequence = intAt(m("sequence"), q("sequence"));
    r.kind = opAt(m("kind"), q("kind"));
    r.bytes = static_cast<Bytes>(integerAt(m("bytes"), q("bytes"), 0, static_cast<long long>(kMaxBytes)));
    const json& group = arrayAt(m("group"), q("group"));
    for (size_t k = 0; k < group.size(); ++k)
        r.group.push_back(intAt(group[k], q("group") + "[" + std::to_string(k) + "]"));
    const json& arr = arrayAt(m("arrival_us"), q("arrival_us"));
    for (size_t k = 0; k < arr.size(); ++k)
        r.arrivalUs.push_back(arr[k].is_null() ? std::numeric_limits<double>::quiet_NaN()
                                               : numberAt(arr[k], q("arrival_us") + "[" + std::to_string(k) + "]"));
    r.startUs = numberAt(m("start_us"), q("start_us"));
    r.endUs = numberAt(m("end_us"), q("end_us"));
    r.lastArrival = intAt(m("last_arrival"), q("last_arrival"));
    r.algorithm = enumAt(m("algorithm"), q("algorithm"), kAlgorithmNames);
    r.protocol = enumAt(m("protocol"), q("protocol"), kProtocolNames);
    r.wrongElements = intAt(m("wrong_elements"), q("wrong_elements"), 0);
    return r;
}

IterationMark iterationFromJson(const json& v, const std::string& p)
{
    const json& a = arrayAt(v, p);
    if (a.size() != 2)
        failAt(p, Message("error.says.span_pair").with("begin", "begin_us").with("end", "end_us"));
    return {numberAt(a[0], p + "[0]"), numberAt(a[1], p + "[1]")};
}

std::optional<HangReport> hangFromJson(const json& hang, const std::string& p)
{
    if (hang.is_null())
        return std::nullopt;
    HangReport h;
    const json& last = arrayAt(member(hang, p, "last_completed"), p + ".last_completed");
    for (size_t i = 0; i < last.size(); ++i)
        h.lastCompleted.push_back(intAt(last[i], p + ".last_completed[" + std::to_string(i) + "]", -1));
    const json& pending = arrayAt(member(hang, p, "pending"), p + ".pending");
    for (size_t i = 0; i < pending.size(); ++i)
        h.pending.push_back(stringAt(pending[i], p + ".pending[" + std::to_string(i) + "]"));
    h.firstMismatchRank = intAt(member(hang, p, "first_mismatch_rank"), p + ".first_mismatch_rank", -1);
    h.explanation = stringAt(member(hang, p, "explanation"), p + ".explanation");
    // optional (files before the messages were kept have only the English)
    if (auto it = hang.find("explanation_message"); it != hang.end())
        h.explanationWording = messageFromJson(*it);
    if (auto it = hang.find("pending_messages"); it != hang.end() && it->is_array() && it->size() == h.pending.size())
        for (const json& m : *it)
            h.pendingMessages.push_back(messageFromJson(m));
    return h;
}

RunMode modeAt(const json& v, const std::string& path)
{
    const std::string mode = stringAt(v, path);
    const std::optional<RunMode> m = runModeFromName(mode);
    if (!m)
        failAt(
            path,
            Message("error.json.unknown_value").with("value", mode).with("expected", expectedChoice({"live", "sim"})));
    return *m;
}

// The one reader of what runMetaToJson() writes. "notes" and the messages are optional: result
// files before they were kept have none.
void runMetaFromJson(const json& v, const std::string& path, RunResult& run)
{
    run.mode = modeAt(member(v, path, "mode"), path + ".mode");
    run.ranks = intAt(member(v, path, "ranks"), path + ".ranks", 0, 1 << 20);
    const json& devices = arrayAt(member(v, path, "devices"), path + ".devices");
    run.devices.clear();
    for (size_t i = 0; i < devices.size(); ++i)
        run.devices.push_back(stringAt(devices[i], path + ".devices[" + std::to_string(i) + "]"));
    // "clock" and "notes" are the English; the Messages, where the file has them, are the same
    // sentences as data. Where a file has none (older, or a note that was never a catalogue
    // sentence) or one it cannot read, the English stands, verbatim.
    const std::string clock = stringAt(member(v, path, "clock"), path + ".clock");
    run.clockNote = clock.empty() ? Message() : verbatim(clock);
    if (auto it = v.find("clock_message"); it != v.end())
        if (Message m = messageFromJson(*it); !m.empty())
            run.clockNote = std::move(m);
    run.notes.clear();
    if (auto it = v.find("notes"); it != v.end()) {
        const json& notes = arrayAt(*it, path + ".notes");
        for (size_t i = 0; i < notes.size(); ++i)
            run.notes.push_back(verbatim(stringAt(notes[i], path + ".notes[" + std::to_string(i) + "]")));
    }
    if (auto it = v.find("note_messages"); it != v.end() && it->is_array() && it->size() == run.notes.size())
        for (size_t i = 0; i < it->size(); ++i)
            if (Message m = messageFromJson((*it)[i]); !m.empty())
                run.notes[i] = std::move(m);
    const json& peak = arrayAt(member(v, path, "peak_memory_bytes"), path + ".peak_memory_bytes");
    run.peakMemory.clear();
    for (size_t i = 0; i < peak.size(); ++i)
        run.peakMemory.push_back(static_cast<Bytes>(integerAt(
            peak[i], path + ".peak_memory_bytes[" + std::to_string(i) + "]", 0, static_cast<long long>(kMaxBytes))));
    const json& paging = arrayAt(member(v, path, "paging_us"), path + ".paging_us");
    run.pagingUs.clear();
    for (size_t i = 0; i < paging.size(); ++i)
        run.pagingUs.push_back(numberAt(paging[i], path + ".paging_us[" + std::to_string(i) + "]"));
    run.hang = hangFromJson(member(v, path, "hang"), path + ".hang");
    run.sharedGpu = 0;
    if (auto it = v.find("shared_gpu_ranks"); it != v.end())
        run.sharedGpu = intAt(*it, path + ".shared_gpu_ranks", 2, 1 << 20);
}

RunResult runResultFromJson(const json& v, const std::string& path)
{
    RunResult run;
    runMetaFromJson(v, path, run);
    const json& fields = arrayAt(member(v, path, "span_fields"), path + ".span_fields");
    if (fields != json(kSpanFields))
        failAt(path + ".span_fields", Message("error.says.span_fields"));
    const json& spans = arrayAt(member(v, path, "spans"), path + ".spans");
    run.spans.reserve(spans.size());
    for (size_t i = 0; i < spans.size(); ++i)
        run.spans.push_back(spanFromJson(spans[i], path + ".spans[" + std::to_string(i) + "]"));
    const json& colls = arrayAt(member(v, path, "collectives"), path + ".collectives");
    for (size_t i = 0; i < colls.size(); ++i)
        run.collectives.push_back(collectiveFromJson(colls[i], path + ".collectives[" + std::to_string(i) + "]"));
    const json& iters = arrayAt(member(v, path, "iterations"), path + ".iterations");
    for (size_t i = 0; i < iters.size(); ++i)
        run.iterations.push_back(iterationFromJson(iters[i], path + ".iterations[" + std::to_string(i) + "]"));
    return run;
}

} // namespace detail

using detail::json;

std::string serializeRunResult(const RunResult& run) { return detail::runResultToJson(run).dump(1) + "\n"; }

Result<RunResult> parseRunResult(const std::string& text, const std::string& origin)
{
    if (Message problem = detail::jsonShapeMessage(text); !problem.empty())
        return badInput(Message("error.at").with("origin", origin).with("path", "$").with("what", std::move(problem)));
    try {
        return detail::runResultFromJson(detail::parseJsonStrict(text), "$");
    } catch (const json::exception& e) {
        return badInput(
            Message("error.at")
                .with("origin", origin)
                .with("path", "$")
                .with("what", Message("error.says.not_valid_json").with("parser", parserMessage(e.what()))));
    } catch (const detail::JsonPathError& e) {
        return detail::errorAt(origin, e);
    }
}

Bytes8 encodeRunResult(const RunResult& run) { return json::to_cbor(detail::runResultToJson(run)); }

Result<RunResult> decodeRunResult(const Bytes8& bytes, const std::string& origin)
{
    try {
        return detail::runResultFromJson(json::from_cbor(bytes), "$");
    } catch (const json::exception& e) {
        return badInput(Message("error.line.not_a_run").with("origin", origin).with("parser", parserMessage(e.what())));
    } catch (const detail::JsonPathError& e) {
        return detail::errorAt(origin, e);
    }
}

Status checkRunAgainstScenario(const RunResult& run, const Scenario& s)
{
    const int ops = static_cast<int>(s.program.size());
    const int colls = static_cast<int>(run.collectives.size());
    // "PATH: what" (error.at_path): the caller puts the file in front
    auto bad = [](const std::string& path, Message what) {
        return Status(badInput(Message("error.at_path").with("path", path).with("what", std::move(what))));
    };
    auto number = [](long long n) { return std::to_string(n); };
    if (run.ranks != s.ranks())
        return badInput(Message("error.run.ranks_differ")
                            .with("ranks", number(run.ranks))
                            .with("scenario_ranks", number(s.ranks())));
    for (size_t i = 0; i < run.spans.size(); ++i) {
        const Span& sp = run.spans[i];
        const std::string p = "spans[" + std::to_string(i) + "]";
        if (sp.rank < 0 || sp.rank >= run.ranks)
            return bad(p, Message("error.run.rank_not_in_run").with("rank", number(sp.rank)));
        if (sp.op < 0 || sp.op >= ops)
            return bad(
                p, Message("error.run.step_not_in_program_of").with("step", number(sp.op)).with("steps", number(ops)));
        if (sp.collective < -1 || sp.collective >= colls)
            return bad(p, Message("error.run.collective_not_in_run").with("number", number(sp.collective)));
        if (sp.waitedFor < -1 || sp.waitedFor >= run.ranks)
            return bad(
                p, Message("error.run.key_not_a_rank").with("key", "waited_for").with("value", number(sp.waitedFor)));
        if (!(sp.endUs >= sp.beginUs))
            return bad(p, Message("error.run.ends_before_begins"));
    }
    for (size_t i = 0; i < run.collectives.size(); ++i) {
        const CollectiveRecord& c = run.collectives[i];
        const std::string p = "collectives[" + std::to_string(i) + "]";
        if (c.op < 0 || c.op >= ops)
            return bad(p, Message("error.run.step_not_in_program").with("step", number(c.op)));
        if (c.group.empty() || c.arrivalUs.size() != c.group.size())
            return bad(p, Message("error.run.arrivals"));
        for (int g : c.group)
            if (g < 0 || g >= run.ranks)
                return bad(p, Message("error.run.member_not_a_rank").with("value", number(g)));
        if (c.lastArrival < -1 || c.lastArrival >= run.ranks)
            return bad(
                p,
                Message("error.run.key_not_a_rank").with("key", "last_arrival").with("value", number(c.lastArrival)));
    }
    if (run.hang
        && (run.hang->lastCompleted.size() > static_cast<size_t>(run.ranks)
            || run.hang->pending.size() != run.hang->lastCompleted.size()))
        return bad("hang", Message("error.run.hang_entries").with("last", "last_completed").with("pending", "pending"));
    return {};
}

} // namespace shardlab
