#include "shardlab/io/trace_import.h"
#include "shardlab/base/file_io.h"

#include "shardlab/base/json_reader.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_result_json.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/model/collectives.h"
#include "shardlab/text/foreign_text.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>

namespace shardlab {

using nlohmann::json;
using namespace detail;

namespace {

constexpr size_t kMaxTraceBytes = 2048u << 20; // 2 GiB: a million spans is ~200 MB

int intAt(const json& v, const std::string& path, long long lo = -1, long long hi = 1 << 30)
{
    return static_cast<int>(integerAt(v, path, lo, hi));
}

// One flow event ("s", "t", "f") of a collective: which rank, and the collective's name.
struct FlowPoint {
    int rank = 0;
    std::string name; // "all_reduce #3"
};

// What the events of a trace hold, before they are put together with the scenario.
struct TraceEvents {
    std::vector<Span> spans;
    std::map<int, std::string> processNames;     // rank -> "rank 0 (NVIDIA H200)"
    std::map<int, std::vector<FlowPoint>> flows; // collective index -> its flow points
    int maxRank = -1;
};

SpanKind kindOf(const std::string& cat, const std::string& path)
{
    if (cat == "compute")
        return SpanKind::Compute;
    if (cat == "comm")
        return SpanKind::Comm;
    if (cat == "wait")
        return SpanKind::Wait;
    failAt(path, Message("error.json.unknown_value")
                     .with("value", cat)
                     .with("expected", expectedChoice({"compute", "comm", "wait"})));
}

SpanDetail detailOf(const json& args, const std::string& name, const std::string& path)
{
    if (auto d = args.find("detail"); d != args.end()) {
        const std::string s = stringAt(*d, path + ".args.detail");
        if (auto detail = spanDetailFromName(s))
            return *detail;
        failAt(path + ".args.detail", Message("error.json.unknown_value")
                                          .with("value", s)
                                          .with("expected", expectedChoice({"none", "injected_delay", "paging"})));
    }
    // traces written before the detail was an argument: the exporter's label says it
    if (name == "injected delay")
        return SpanDetail::InjectedDelay;
    if (name == "unified-memory paging")
        return SpanDetail::Paging;
    return SpanDetail::None;
}

Span spanOf(const json& e, const std::string& p)
{
    Span sp;
    sp.kind = kindOf(stringAt(member(e, p, "cat"), p + ".cat"), p + ".cat");
    sp.rank = intAt(member(e, p, "pid"), p + ".pid", 0, 1 << 20);
    sp.stream = intAt(member(e, p, "tid"), p + ".tid", 0, 1);
    const double ts = numberAt(member(e, p, "ts"), p + ".ts");
    const double dur = numberAt(member(e, p, "dur"), p + ".dur");
    if (dur < 0)
        failAt(p + ".dur", Message("error.says.negative"));
    sp.beginUs = ts;
    sp.endUs = ts + dur;
    const json& args = member(e, p, "args");
    const std::string a = p + ".args";
    sp.iteration = intAt(member(args, a, "iteration"), a + ".iteration", 0);
    sp.op = intAt(member(args, a, "step"), a + ".step", 0);
    sp.collective = intAt(member(args, a, "collective"), a + ".collective");
    sp.waitedFor = intAt(member(args, a, "waited_for"), a + ".waited_for");
    if (auto b = args.find("bucket"); b != args.end())
        sp.bucket = intAt(*b, a + ".bucket", 0);
    sp.detail =
        detailOf(args, e.contains("name") && e["name"].is_string() ? e["name"].get<std::string>() : std::string(), p);
    return sp;
}

TraceEvents readEvents(const json& events)
{
    TraceEvents out;
    for (size_t i = 0; i < events.size(); ++i) {
        const json& e = events[i];
        const std::string p = "$.traceEvents[" + std::to_string(i) + "]";
        const std::string ph = stringAt(member(e, p, "ph"), p + ".ph");
        if (ph == "X") {
            // ShardLab writes three categories; events of other tools' categories are skipped
            const auto cat = e.find("cat");
            if (cat == e.end() || !cat->is_string())
                continue;
            const std::string c = cat->get<std::string>();
            if (c != "compute" && c != "comm" && c != "wait")
                continue;
            out.spans.push_back(spanOf(e, p));
            out.maxRank = std::max(out.maxRank, out.spans.back().rank);
        } else if (ph == "M") {
            if (e.value("name", std::string()) == "process_name") {
                const int rank = intAt(member(e, p, "pid"), p + ".pid", 0, 1 << 20);
                const json& args = member(e, p, "args");
                out.processNames[rank] = stringAt(member(args, p + ".args", "name"), p + ".args.name");
                out.maxRank = std::max(out.maxRank, rank);
            }
        } else if ((ph == "s" || ph == "t" || ph == "f") && e.value("cat", std::string()) == "collective") {
            const int id = intAt(member(e, p, "id"), p + ".id", 0);
            const int rank = intAt(member(e, p, "pid"), p + ".pid", 0, 1 << 20);
            out.flows[id].push_back({rank, stringAt(member(e, p, "name"), p + ".name")});
        }
    }
    return out;
}

// "rank 3 (NVIDIA H200)" -> "NVIDIA H200"
std::string deviceFromProcessName(const std::string& name)
{
    const size_t open = name.find('('), close = name.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close <= open)
        return {};
    return name.substr(open + 1, close - open - 1);
}

// Rebuilds the collective records of a trace that does not carry them (see the header).
std::vector<CollectiveRecord> rebuildCollectives(const TraceEvents& ev, const Scenario& s)
{
    int count = 0;
    for (const Span& sp : ev.spans)
        count = std::max(count, sp.collective + 1);
    if (!ev.flows.empty())
        count = std::max(count, ev.flows.rbegin()->first + 1);
    struct Member {
        double arrival = -1, commBegin = 1e300, commEnd = -1e300;
        int waitedFor = -1;
    };
    std::vector<std::map<int, Member>> members(static_cast<size_t>(count));
    std::vector<const Span*> first(static_cast<size_t>(count), nullptr);
    for (const Span& sp : ev.spans) {
        if (sp.collective < 0)
            continue;
        Member& m = members[static_cast<size_t>(sp.collective)][sp.rank];
        if (!first[static_cast<size_t>(sp.collective)])
            first[static_cast<size_t>(sp.collective)] = &sp;
        if (sp.kind == SpanKind::Wait) {
            m.arrival = sp.beginUs;
            m.waitedFor = sp.waitedFor;
        } else if (sp.kind == SpanKind::Comm) {
            m.commBegin = std::min(m.commBegin, sp.beginUs);
            m.commEnd = std::max(m.commEnd, sp.endUs);
        }
    }
    std::vector<CollectiveRecord> out(static_cast<size_t>(count));
    for (int c = 0; c < count; ++c) {
        CollectiveRecord& rec = out[static_cast<size_t>(c)];
        auto& ms = members[static_cast<size_t>(c)];
        std::string flowName;
        if (auto f = ev.flows.find(c); f != ev.flows.end())
            for (const FlowPoint& fp : f->second) {
                ms.try_emplace(fp.rank);
                flowName = fp.name;
            }
        const Span* sp = first[static_cast<size_t>(c)];
        if (!sp || ms.empty())
            failAt("$.traceEvents", Message("error.says.no_span").with("number", std::to_string(c)));
        if (sp->op >= static_cast<int>(s.program.size()))
            failAt("$.traceEvents", Message("error.says.step_not_in_program")
                                        .with("step", std::to_string(sp->op))
                                        .with("steps", std::to_string(s.program.size())));
        const Op& op = s.program[static_cast<size_t>(sp->op)];
        rec.op = sp->op;
        rec.iteration = sp->iteration;
        rec.bucket = sp->bucket;
        rec.kind = op.kind;
        rec.sequence = -1;
        if (const size_t hash = flowName.rfind(" #"); hash != std::string::npos) {
            if (auto k = opFromName(flowName.substr(0, hash)); k && *k != OpKind::Compute)
                rec.kind = *k;
            try {
                rec.sequence = std::stoi(flowName.substr(hash + 2));
            } catch (const std::exception&) {
                rec.sequence = -1;
            }
        }
        rec.bytes = s.bytesOf(op) / static_cast<Bytes>(std::max(1, op.buckets));
        rec.algorithm = Algorithm::Auto; // not in the trace
        double start = -1e300, end = -1e300;
        for (const auto& [rank, m] : ms) {
            if (m.commBegin < 1e300)
                start = std::max(start, m.commBegin);
            end = std::max(end, m.commEnd);
        }
        for (const auto& [rank, m] : ms) {
            rec.group.push_back(rank);
            if (m.waitedFor >= 0)
                rec.lastArrival = m.waitedFor;
        }
        if (start <= -1e300) // no communication span: it started when the last rank arrived
            for (const auto& [rank, m] : ms)
                start = std::max(start, m.arrival);
        rec.startUs = std::max(start, 0.0);
        rec.endUs = std::max(end, rec.startUs);
        for (const auto& [rank, m] : ms)
            rec.arrivalUs.push_back(m.arrival >= 0 ? m.arrival : rec.startUs);
    }
    // sequence numbers the flows did not give: per group, in order of start
    std::map<std::vector<int>, int> next;
    std::vector<size_t> order(out.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return out[a].startUs < out[b].startUs; });
    for (size_t i : order)
        if (out[i].sequence < 0)
            out[i].sequence = next[out[i].group]++;
    return out;
}

RunResult rebuildRun(const TraceEvents& ev, const json& other, const Scenario& s)
{
    RunResult run;
    run.ranks = ev.maxRank + 1;
    if (run.ranks != s.ranks())
        failAt("$.traceEvents", Message("error.says.trace_ranks")
                                    .with("ranks", std::to_string(run.ranks))
                                    .with("name", s.name)
                                    .with("scenario_ranks", std::to_string(s.ranks())));
    const std::string mode = other.is_object() ? other.value("mode", std::string("sim")) : std::string("sim");
    run.mode = runModeFromName(mode).value_or(RunMode::Simulated);
    if (const std::string clock = other.is_object() ? other.value("clock", std::string()) : std::string();
        !clock.empty())
        run.clockNote = verbatim(clock);
    for (int r = 0; r < run.ranks; ++r) {
        std::string dev;
        if (auto it = ev.processNames.find(r); it != ev.processNames.end())
            dev = deviceFromProcessName(it->second);
        run.devices.push_back(dev.empty() ? s.topology.gpus[static_cast<size_t>(r)].name : dev);
    }
    run.spans = ev.spans;
    run.collectives = rebuildCollectives(ev, s);
    int iterations = 0;
    for (const Span& sp : run.spans)
        iterations = std::max(iterations, sp.iteration + 1);
    std::vector<double> ends(static_cast<size_t>(iterations), 0.0);
    for (const Span& sp : run.spans)
        ends[static_cast<size_t>(sp.iteration)] = std::max(ends[static_cast<size_t>(sp.iteration)], sp.endUs);
    double begin = 0;
    for (double e : ends) {
        run.iterations.push_back({begin, std::max(begin, e)});
        begin = std::max(begin, e);
    }
    run.notes.push_back(Message("trace.note.rebuilt").with("name", s.name));
    return run;
}

} // namespace

Result<ImportedTrace> parseChromeTrace(const std::string& text, const std::string& origin, const Scenario* fallback)
{
    if (text.size() > kMaxTraceBytes)
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$")
                            .with("what", Message("error.says.larger_than")
                                              .with("size", "2 GiB")
                                              .with("expected", Message("error.expects.trace"))));
    auto parsed = detail::parseJsonText(text, origin);
    if (!parsed)
        return parsed.error();
    json doc = std::move(parsed).value();
    ImportedTrace out;
    try {
        if (!doc.is_object() || !doc.contains("traceEvents"))
            return badInput(Message("error.at")
                                .with("origin", origin)
                                .with("path", "$.traceEvents")
                                .with("what", Message("error.json.missing")
                                                  .with("expected", Message("error.expects.chrome_trace")
                                                                        .with("command", "shardlab --trace"))));
        const json& events = arrayAt(doc["traceEvents"], "$.traceEvents");
        const json other = doc.contains("otherData") ? doc["otherData"] : json();
        const TraceEvents ev = readEvents(events);
        const bool carriesRun = other.is_object() && other.contains("shardlab");
        if (carriesRun) {
            const std::string p = "$.otherData.shardlab";
            const json& block = other["shardlab"];
            const long long version = integerAt(member(block, p, "trace_format"), p + ".trace_format", 1, 1000);
            if (version != kTraceFormatVersion)
                return badInput(Message("error.at")
                                    .with("origin", origin)
                                    .with("path", p + ".trace_format")
                                    .with("what", Message("error.says.version")
                                                      .with("version", std::to_string(version))
                                                      .with("supported", std::to_string(kTraceFormatVersion))));
            auto scenario = parseScenario(member(block, p, "scenario").dump(), origin + " (" + p + ".scenario)");
            if (!scenario)
                return scenario.error();
            out.scenario = std::move(*scenario);
            json records = member(block, p, "run");
            if (!records.is_object())
                return badInput(
                    Message("error.at")
                        .with("origin", origin)
                        .with("path", p + ".run")
                        .with("what",
                              Message("error.says.expected").with("expected", Message("error.expected.object"))));
            records["spans"] = json::array(); // the spans are the events
            out.run = runResultFromJson(records, p + ".run");
            out.run.spans = ev.spans;
            // traces before the run's records kept its notes carry them beside the records only
            if (auto n = block.find("notes"); n != block.end() && !records.contains("notes")) {
                const json& notes = arrayAt(*n, p + ".notes");
                for (size_t i = 0; i < notes.size(); ++i)
                    out.run.notes.push_back(verbatim(stringAt(notes[i], p + ".notes[" + std::to_string(i) + "]")));
            }
        } else {
            if (!fallback)
                return badInput(Message("error.at")
                                    .with("origin", origin)
                                    .with("path", "$.otherData.shardlab")
                                    .with("what", Message("error.says.no_scenario_in_trace")));
            out.scenario = *fallback;
            out.scenarioFromTrace = false;
            out.run = rebuildRun(ev, other, *fallback);
        }
    } catch (const JsonPathError& e) {
        return errorAt(origin, e);
    } catch (const json::exception& e) {
        return badInput(Message("error.io.in").with("origin", origin).with("what", parserMessage(e.what())));
    }
    if (out.run.spans.empty())
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$.traceEvents")
                            .with("what", Message("error.says.no_trace_span")
                                              .with("event", "\"X\"")
                                              .with("categories", "compute, comm or wait")));
    if (Status st = checkRunAgainstScenario(out.run, out.scenario); !st)
        return badInput(Message("error.io.in").with("origin", origin).with("what", messageOf(st.error())));
    return out;
}

Result<ImportedTrace> loadChromeTrace(const std::filesystem::path& path, const Scenario* fallback)
{
    auto text = readUserFile(path, Message("error.expects.chrome_trace").with("command", "ShardLab"), kMaxRunFileBytes);
    if (!text)
        return text.error();
    return parseChromeTrace(*text, path.string(), fallback);
}

} // namespace shardlab
