// One rank's Kineto trace, read as a stream with nlohmann's SAX interface (json::sax_parse).
//
// Why this parser. A trace of a long profile is hundreds of MB of JSON, almost all of it in
// traceEvents (CPU ops, runtime calls, kernels, flows), of which ShardLab keeps a few fields of the
// NCCL kernels and counts the rest. A document parser would hold the whole text as a DOM, several
// times the file's size; a SAX parser sees every value as one call and keeps nothing it is not
// asked to, so memory is a read buffer and one event whatever the file's size (issue 28: 8 ranks
// x 150 MB in under 30 s on 2 cores, peak memory below twice the largest file).
//  * nlohmann's SAX and not its callback parser (json::parse with a callback, used before): the
//    callback parser still builds each event's DOM (a std::map per object, a string per key and
//    value) before the callback may drop it; SAX builds nothing for the fields skipped. 8 x 150 MB
//    on the shared 2-core dev machine: 13-19 s -> 9-13 s, 13-17.5 s -> 8-10 s of CPU.
//  * nlohmann and not simdjson: nlohmann is already the project's JSON library (no new
//    dependency), reads from a std::istream, so plain and gzip input stream through InputStream
//    a buffer at a time (simdjson's On Demand wants the whole text, or a document at a time, in
//    memory: a 150 MB trace is one document), and its messages for bad JSON are the ones the
//    tests and users already see. What is left of the time is nlohmann's lexer itself.
//  * Behaviour is that of the callback reader it replaced, value for value: a key given twice
//    counts once, the last; outside events everything is built by nlohmann's own DOM builder
//    (json::parse's), so distributedInfo and the rest read as before; a non-string "cat" is
//    json's type_error as before (checked against the old reader on 3,500 mutated traces).
// docs/benchmarks.md, "Importing big traces": the figures and bench/import_big_kineto.sh.
#include "shardlab/import/kineto_trace.h"
#include "shardlab/text/foreign_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <fstream>
#include <sstream>

namespace shardlab {

namespace {

using json = nlohmann::json;

constexpr int kMaxDepth = 64;

struct TooDeep {};

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// A value as the trace has it, where it matters only whether it is there and of which type (the
// fields an event is read for; a container stands as an empty one of its kind).
using Field = std::optional<json>;

// "[0, 1, 2]" (PyTorch writes the group's ranks as text) -> {0, 1, 2}; empty where it is not that.
// (A kernel's array is collected while parsing: `Args::rankArray`, the same rule.)
std::vector<int> rankList(const json& v)
{
    std::vector<int> out;
    if (v.is_array()) {
        for (const json& x : v)
            if (x.is_number_integer() && x.get<std::int64_t>() >= 0 && x.get<std::int64_t>() < (1 << 24))
                out.push_back(x.get<int>());
        return out;
    }
    if (!v.is_string())
        return out;
    const std::string& s = v.get_ref<const std::string&>();
    long long cur = -1;
    for (char c : s) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            cur = (cur < 0 ? 0 : cur) * 10 + (c - '0');
            if (cur >= (1 << 24))
                return {};
        } else {
            if (cur >= 0)
                out.push_back(static_cast<int>(cur));
            cur = -1;
        }
    }
    if (cur >= 0)
        out.push_back(static_cast<int>(cur));
    return out;
}

std::int64_t intArg(const Field& f)
{
    if (!f)
        return -1;
    if (f->is_number_integer())
        return f->get<std::int64_t>();
    if (f->is_number_float() && f->get<double>() >= 0 && f->get<double>() < 9e18)
        return static_cast<std::int64_t>(f->get<double>());
    if (f->is_string()) {
        const std::string& s = f->get_ref<const std::string&>();
        if (!s.empty() && s.size() < 19
            && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
            return std::stoll(s);
    }
    return -1;
}

std::string textArg(const Field& f) { return f && f->is_string() ? f->get<std::string>() : std::string(); }

// The arguments of a kernel that ShardLab reads ("args"); the rest is skipped unread.
struct Args {
    bool object = false; // "args" was an object (the last "args" of the event)
    Field collective, inElements, outElements, dtype, groupSize, group, sequence, ranks;
    Field dstRank, srcRank, rank; // a send's or receive's peer ("Dst Rank", "Src Rank": global; "Rank": in the group)
    std::vector<int> rankArray;   // "Process Group Ranks" as an array: its integer members in range
    void clear() { *this = Args(); }
};

// One event of traceEvents, the fields read (a key given twice: the last one counts, as in a document).
struct Event {
    Field ts, dur, ph, cat, name;
    Args args;
};

// nlohmann's SAX interface (json::sax_parse): every value arrives as a call, nothing is built
// unless kept. An event of traceEvents is kept as the few fields above and dropped at its end;
// everything outside traceEvents (distributedInfo, baseTimeNanoseconds, ...) is built into a
// small document as json::parse would (nlohmann's own DOM builder), for `finish`.
class Reader {
public:
    explicit Reader(std::string origin) : m_builder(m_doc, true) { m_trace.path = std::move(origin); }

    // The SAX interface. Outside events every call goes to the builder; inside one a value is made
    // only where it is one of the fields read.
    bool null() { return m_eventDepth == 0 ? m_builder.null() : !wanted() || value(json(nullptr)); }
    bool boolean(bool v) { return m_eventDepth == 0 ? m_builder.boolean(v) : !wanted() || value(json(v)); }
    bool number_integer(json::number_integer_t v)
    {
        return m_eventDepth == 0 ? m_builder.number_integer(v) : !wanted() || value(json(v));
    }
    bool number_unsigned(json::number_unsigned_t v)
    {
        return m_eventDepth == 0 ? m_builder.number_unsigned(v) : !wanted() || value(json(v));
    }
    bool number_float(json::number_float_t v, const json::string_t& text)
    {
        return m_eventDepth == 0 ? m_builder.number_float(v, text) : !wanted() || value(json(v));
    }
    bool string(json::string_t& v)
    {
        return m_eventDepth == 0 ? m_builder.string(v) : !wanted() || value(json(std::move(v)));
    }
    bool binary(json::binary_t& v) { return m_eventDepth == 0 ? m_builder.binary(v) : true; }
    bool start_object(std::size_t n) { return open(n, true); }
    bool start_array(std::size_t n) { return open(n, false); }
    bool end_object() { return close(true); }
    bool end_array() { return close(false); }
    bool key(json::string_t& text)
    {
        const std::string_view k = text;
        if (m_depth == 1)
            m_inTraceEvents = k == "traceEvents";
        if (m_eventDepth == 0)
            return m_builder.key(text);
        const int level = m_depth - m_eventDepth; // 0: the event's own keys; 1: inside one of its values
        if (level == 0) {
            m_field = k == "ts"     ? &m_event.ts
                      : k == "dur"  ? &m_event.dur
                      : k == "ph"   ? &m_event.ph
                      : k == "cat"  ? &m_event.cat
                      : k == "name" ? &m_event.name
                                    : nullptr;
            m_inArgs = k == "args";
            if (m_inArgs)
                m_event.args.clear();
        } else if (level == 1 && m_inArgs && m_event.args.object) {
            Args& a = m_event.args;
            m_rankKey = k == "Process Group Ranks";
            m_field = k == "Collective name"      ? &a.collective
                      : k == "In msg nelems"      ? &a.inElements
                      : k == "Out msg nelems"     ? &a.outElements
                      : k == "dtype"              ? &a.dtype
                      : k == "Group size"         ? &a.groupSize
                      : k == "Process Group Name" ? &a.group
                      : k == "Seq"                ? &a.sequence
                      : k == "Dst Rank"           ? &a.dstRank
                      : k == "Src Rank"           ? &a.srcRank
                      : k == "Rank"               ? &a.rank
                      : m_rankKey                 ? &a.ranks
                                                  : nullptr;
        }
        return true;
    }
    template <class Exception>
    bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& ex)
    {
        throw ex; // as json::parse does: the same message
    }

    KinetoTrace& trace() { return m_trace; }
    const json& document() const { return m_doc; }

private:
    bool open(std::size_t n, bool object)
    {
        if (++m_depth > kMaxDepth)
            throw TooDeep{};
        if (m_eventDepth == 0) {
            if (object && m_depth == 3 && m_inTraceEvents) { // an event begins
                m_eventDepth = 3;
                m_event = Event();
                m_field = nullptr;
                m_inArgs = false;
                return true;
            }
            return object ? m_builder.start_object(n) : m_builder.start_array(n);
        }
        const int level = m_depth - m_eventDepth; // 1: a value of the event's; 2: a value in args
        if (level == 1) {
            if (m_inArgs) {
                m_event.args.object = object;
            } else if (m_field) {
                *m_field = object ? json::object() : json::array();
                m_field = nullptr;
            }
        } else if (level == 2 && m_inArgs && m_event.args.object && m_field) {
            *m_field = object ? json::object() : json::array();
            m_event.args.rankArray.clear();
            m_rankArray = m_rankKey && !object;
            m_field = nullptr;
        }
        return true;
    }

    bool close(bool object)
    {
        const int closed = m_depth--;
        if (m_eventDepth == 0)
            return object ? m_builder.end_object() : m_builder.end_array();
        const int level = closed - m_eventDepth;
        if (level == 0) { // the event is complete: take what is needed, keep nothing
            m_eventDepth = 0;
            take();
        } else if (level == 2)
            m_rankArray = false;
        return true;
    }

    // Whether the scalar that comes next is read: a field of the event's or of its args, or a member
    // of a "Process Group Ranks" array.
    bool wanted() const
    {
        const int level = m_depth - m_eventDepth; // 0: a value of the event's; 1: in args; 2: in a rank array
        return ((level == 0 || (level == 1 && m_inArgs && m_event.args.object)) && m_field)
               || (level == 2 && m_rankArray);
    }

    bool value(json&& v)
    {
        if (m_field) {
            *m_field = std::move(v);
            m_field = nullptr;
        } else if (v.is_number_integer() && v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() < (1 << 24)) {
            m_event.args.rankArray.push_back(v.get<int>());
        }
        return true;
    }

    void take()
    {
        ++m_trace.events;
        const Event& e = m_event;
        if (!e.ph || !e.ph->is_string() || *e.ph != "X" || !e.ts || !e.ts->is_number())
            return;
        const double t = e.ts->get<double>();
        const double d = e.dur && e.dur->is_number() ? std::max(0.0, e.dur->get<double>()) : 0.0;
        // (an end past the largest double, 1e308 + 1e308, is no time either)
        if (!std::isfinite(t) || !std::isfinite(d) || !std::isfinite(t + d))
            return;
        if (!m_any || t < m_trace.firstUs)
            m_trace.firstUs = t;
        if (!m_any || t + d > m_trace.lastUs)
            m_trace.lastUs = t + d;
        m_any = true;
        const std::string cat =
            e.cat ? e.cat->get<std::string>() : std::string(); // not a string: json's type_error, as before
        const std::string& name = e.name && e.name->is_string() ? e.name->get_ref<const std::string&>() : kEmpty;
        if (cat == "user_annotation" && startsWith(name, "ProfilerStep#")) {
            ++m_trace.profilerSteps;
            return;
        }
        if (cat == "cpu_op" && name == "record_param_comms") {
            noteGroup(e.args);
            return;
        }
        if (cat != "kernel")
            return;
        const std::string func = ncclFuncFromKernel(name);
        if (func.empty() && !startsWith(name, "nccl")) {
            ++m_trace.computeKernels;
            return;
        }
        KinetoCollective c;
        c.kernel = name.substr(0, 200);
        c.func = func;
        c.tsUs = t;
        c.durUs = d;
        c.line = m_trace.events;
        if (const Args& a = e.args; a.object) {
            c.collective = textArg(a.collective);
            if (const std::string f = ncclFuncFromCollectiveName(c.collective); !f.empty())
                c.func = f;
            c.inElements = intArg(a.inElements);
            c.outElements = intArg(a.outElements);
            c.dtype = textArg(a.dtype);
            c.groupSize = static_cast<int>(std::clamp<std::int64_t>(intArg(a.groupSize), 0, 1 << 24));
            c.group = textArg(a.group);
            if (a.ranks)
                c.groupRanks = a.ranks->is_array() ? a.rankArray : rankList(*a.ranks);
            if (const std::int64_t seq = intArg(a.sequence); seq >= 0)
                c.sequence = seq;
            const bool send = c.func == "Send" || c.func == "SendRecv";
            const std::int64_t peer = intArg(send ? a.dstRank : a.srcRank);
            if (peer >= 0 && peer < (1 << 24))
                c.peerGlobal = static_cast<int>(peer);
            if (const std::int64_t r = intArg(a.rank);
                r >= 0 && r < (1 << 24) && (c.func == "Send" || c.func == "Recv"))
                c.peerInGroup = static_cast<int>(r);
            m_trace.largestGroup = std::max(m_trace.largestGroup, static_cast<int>(c.groupRanks.size()));
        }
        m_trace.collectives.push_back(std::move(c));
    }

    // A collective's record_param_comms: its "Rank" is this process's rank in the group (a send's
    // or receive's is the peer's: skipped), the group's ranks give the global one.
    void noteGroup(const Args& a)
    {
        if (!a.object)
            return;
        std::vector<int> ranks;
        if (a.ranks)
            ranks = a.ranks->is_array() ? a.rankArray : rankList(*a.ranks);
        m_trace.largestGroup = std::max(m_trace.largestGroup, static_cast<int>(ranks.size()));
        // "init" (the group's creation) names this process too; a send's or receive's names the peer
        const std::string name = textArg(a.collective);
        const std::string func = name == "init" ? std::string("init") : ncclFuncFromCollectiveName(name);
        const std::int64_t rank = intArg(a.rank);
        if (m_trace.inferredRank < 0 && !func.empty() && func != "Send" && func != "Recv" && rank >= 0
            && rank < static_cast<std::int64_t>(ranks.size()))
            m_trace.inferredRank = ranks[static_cast<size_t>(rank)];
    }

    // nlohmann's own DOM builder (json::parse's), driven by the calls outside events.
    using Builder = nlohmann::detail::json_sax_dom_parser<json>;

    static inline const std::string kEmpty;
    json m_doc;
    Builder m_builder;
    KinetoTrace m_trace;
    int m_depth = 0;
    int m_eventDepth = 0;         // the depth of the event being read (3), 0 outside events
    bool m_inTraceEvents = false; // the last key of the top level was "traceEvents"
    bool m_any = false;
    Event m_event;
    Field* m_field = nullptr; // where the value that comes next goes (nullptr: skipped)
    bool m_inArgs = false, m_rankKey = false, m_rankArray = false;
};

Result<KinetoTrace> finish(Reader& reader, const json& doc)
{
    KinetoTrace& t = reader.trace();
    if (!doc.is_object() || !doc.contains("traceEvents"))
        return badInput(Message("import.error.no_trace_events").with("file", t.path).with("key", "traceEvents"));
    if (const auto base = doc.find("baseTimeNanoseconds"); base != doc.end() && base->is_number_integer())
        t.baseTimeNs = base->get<std::int64_t>();
    if (const auto info = doc.find("distributedInfo"); info != doc.end() && info->is_object()) {
        if (const auto r = info->find("rank"); r != info->end() && r->is_number_integer())
            t.rank = static_cast<int>(std::clamp<std::int64_t>(r->get<std::int64_t>(), -1, 1 << 24));
        if (const auto w = info->find("world_size"); w != info->end() && w->is_number_integer())
            t.worldSize = static_cast<int>(std::clamp<std::int64_t>(w->get<std::int64_t>(), 0, 1 << 24));
        if (const auto v = info->find("nccl_version"); v != info->end() && v->is_string())
            t.ncclVersion = v->get<std::string>();
        if (const auto pgs = info->find("pg_config"); pgs != info->end()) {
            const auto add = [&](const json& pg, const std::string& fallbackName) {
                if (!pg.is_object())
                    return;
                KinetoGroup g;
                g.name = pg.contains("pg_name") && pg["pg_name"].is_string() ? pg["pg_name"].get<std::string>()
                                                                             : fallbackName;
                g.description =
                    pg.contains("pg_desc") && pg["pg_desc"].is_string() ? pg["pg_desc"].get<std::string>() : "";
                if (pg.contains("ranks"))
                    g.ranks = rankList(pg["ranks"]);
                t.groups.push_back(std::move(g));
            };
            if (pgs->is_array())
                for (const json& pg : *pgs)
                    add(pg, "");
            else if (pgs->is_object()) // older PyTorch: {"0": {...}}
                for (auto it = pgs->begin(); it != pgs->end(); ++it)
                    add(it.value(), it.key());
        }
    }
    std::stable_sort(t.collectives.begin(), t.collectives.end(),
                     [](const KinetoCollective& a, const KinetoCollective& b) { return a.tsUs < b.tsUs; });
    return std::move(t);
}

Result<KinetoTrace> parseWith(const std::function<void(Reader*)>& parse, const std::string& origin,
                              const std::function<Message()>& below = {})
{
    Reader reader(origin);
    try {
        parse(&reader);
    } catch (const TooDeep&) {
        return badInput(Message("import.error.too_deep").with("file", origin).with("levels", kMaxDepth));
    } catch (const json::exception& e) {
        if (below)
            if (Message problem = below(); !problem.empty())
                return badInput(Message("error.input.file").with("file", origin).with("what", std::move(problem)));
        std::string what = e.what();
        if (const size_t colon = what.find("] "); colon != std::string::npos)
            what = what.substr(colon + 2);
        return badInput(Message("import.error.not_json").with("file", origin).with("parser", parserMessage(what)));
    }
    if (below)
        if (Message problem = below(); !problem.empty())
            return badInput(Message("error.input.file").with("file", origin).with("what", std::move(problem)));
    return finish(reader, reader.document());
}

} // namespace

std::string ncclFuncFromKernel(std::string_view kernel)
{
    std::string_view rest;
    if (startsWith(kernel, "ncclDevKernel_"))
        rest = kernel.substr(14);
    else if (startsWith(kernel, "ncclKernel_"))
        rest = kernel.substr(11);
    else
        return {};
    const size_t end = rest.find_first_of("_(");
    const std::string_view token = rest.substr(0, end);
    static const char* const kFuncs[] = {"AllReduce", "AllGather", "ReduceScatter", "Reduce",
                                         "Broadcast", "SendRecv",  "AllToAll"};
    for (const char* f : kFuncs)
        if (token == f)
            return f;
    return {};
}

std::string ncclFuncFromCollectiveName(std::string_view name)
{
    std::string n = lower(name);
    n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
    if (n == "allreduce" || n == "allreducecoalesced" || n == "barrier")
        return "AllReduce";
    if (n == "broadcast")
        return "Broadcast";
    if (n == "reduce")
        return "Reduce";
    if (n == "allgather" || n == "allgatherbase" || n == "allgatherintotensor" || n == "allgatherintotensorcoalesced"
        || n == "allgathercoalesced")
        return "AllGather";
    if (n == "reducescatter" || n == "reducescatterbase" || n == "reducescattertensor"
        || n == "reducescattertensorcoalesced")
        return "ReduceScatter";
    if (n == "send")
        return "Send";
    if (n == "recv" || n == "recvanysource")
        return "Recv";
    if (n == "alltoall" || n == "alltoallbase")
        return "AllToAll";
    if (n == "gather")
        return "Gather";
    if (n == "scatter")
        return "Scatter";
    return {};
}

std::string ncclDatatypeFromTorch(std::string_view dtype)
{
    const std::string d = lower(dtype);
    if (d == "float" || d == "float32")
        return "ncclFloat32";
    if (d == "half" || d == "float16")
        return "ncclFloat16";
    if (d == "bfloat16")
        return "ncclBfloat16";
    if (d == "double" || d == "float64")
        return "ncclFloat64";
    if (d == "int" || d == "int32")
        return "ncclInt32";
    if (d == "long" || d == "int64")
        return "ncclInt64";
    if (d == "byte" || d == "uint8" || d == "bool")
        return "ncclUint8";
    if (d == "char" || d == "int8")
        return "ncclInt8";
    if (d == "float8_e4m3fn" || d == "float8e4m3fn")
        return "ncclFloat8e4m3";
    if (d == "float8_e5m2" || d == "float8e5m2")
        return "ncclFloat8e5m2";
    return {};
}

Result<KinetoTrace> parseKinetoTrace(std::istream& in, const std::string& origin)
{
    return parseWith([&](Reader* r) { json::sax_parse(in, r); }, origin);
}

Result<KinetoTrace> parseKinetoText(std::string_view text, const std::string& origin)
{
    return parseWith([&](Reader* r) { json::sax_parse(text.begin(), text.end(), r); }, origin);
}

Result<KinetoTrace> readKinetoTrace(const std::filesystem::path& path, const ReadProgress& progress)
{
    auto input = InputStream::open(path, progress);
    if (!input)
        return input.error();
    InputStream& s = **input;
    auto trace =
        parseWith([&](Reader* r) { json::sax_parse(s.stream(), r); }, path.string(), [&] { return s.problem(); });
    if (!trace && s.cancelled())
        return Error(
            ErrorKind::Cancelled,
            Message("error.input.file").with("file", path.string()).with("what", Message("error.input.cancelled")));
    return trace;
}

} // namespace shardlab
