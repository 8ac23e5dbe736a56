#include "shardlab/import/kineto_trace.h"

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
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// "[0, 1, 2]" (PyTorch writes the group's ranks as text) -> {0, 1, 2}; empty where it is not that.
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
    const std::string s = v.get<std::string>();
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

std::int64_t intArg(const json& args, const char* key)
{
    const auto it = args.find(key);
    if (it == args.end())
        return -1;
    if (it->is_number_integer())
        return it->get<std::int64_t>();
    if (it->is_number_float() && it->get<double>() >= 0 && it->get<double>() < 9e18)
        return static_cast<std::int64_t>(it->get<double>());
    if (it->is_string()) {
        const std::string s = it->get<std::string>();
        if (!s.empty() && s.size() < 19 && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
            return std::stoll(s);
    }
    return -1;
}

std::string textArg(const json& args, const char* key)
{
    const auto it = args.find(key);
    return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

class Reader {
public:
    explicit Reader(std::string origin) { m_trace.path = std::move(origin); }

    bool callback(int /*depth*/, json::parse_event_t event, json& parsed)
    {
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            if (++m_depth > kMaxDepth)
                throw TooDeep{};
            return true;
        case json::parse_event_t::key:
            if (m_depth == 1)
                m_topKey = parsed.is_string() ? parsed.get<std::string>() : std::string();
            return true;
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end: {
            const int closed = m_depth--;
            // An event of traceEvents, complete: take what is needed, keep nothing.
            if (closed == 3 && m_topKey == "traceEvents" && event == json::parse_event_t::object_end) {
                take(parsed);
                return false;
            }
            return true;
        }
        case json::parse_event_t::value:
            return true;
        }
        return true;
    }

    KinetoTrace& trace() { return m_trace; }

private:
    void take(const json& e)
    {
        ++m_trace.events;
        const auto ts = e.find("ts");
        const auto dur = e.find("dur");
        const auto ph = e.find("ph");
        if (ph == e.end() || !ph->is_string() || *ph != "X" || ts == e.end() || !ts->is_number())
            return;
        const double t = ts->get<double>();
        const double d = dur != e.end() && dur->is_number() ? std::max(0.0, dur->get<double>()) : 0.0;
        // (an end past the largest double, 1e308 + 1e308, is no time either)
        if (!std::isfinite(t) || !std::isfinite(d) || !std::isfinite(t + d))
            return;
        if (!m_any || t < m_trace.firstUs)
            m_trace.firstUs = t;
        if (!m_any || t + d > m_trace.lastUs)
            m_trace.lastUs = t + d;
        m_any = true;
        const std::string cat = e.value("cat", std::string());
        const std::string name = e.contains("name") && e["name"].is_string() ? e["name"].get<std::string>() : std::string();
        if (cat == "user_annotation" && startsWith(name, "ProfilerStep#")) {
            ++m_trace.profilerSteps;
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
        if (const auto args = e.find("args"); args != e.end() && args->is_object()) {
            c.collective = textArg(*args, "Collective name");
            if (const std::string f = ncclFuncFromCollectiveName(c.collective); !f.empty())
                c.func = f;
            c.inElements = intArg(*args, "In msg nelems");
            c.outElements = intArg(*args, "Out msg nelems");
            c.dtype = textArg(*args, "dtype");
            c.groupSize = static_cast<int>(std::clamp<std::int64_t>(intArg(*args, "Group size"), 0, 1 << 24));
            c.group = textArg(*args, "Process Group Name");
            if (const auto r = args->find("Process Group Ranks"); r != args->end())
                c.groupRanks = rankList(*r);
            if (const std::int64_t seq = intArg(*args, "Seq"); seq >= 0)
                c.sequence = seq;
        }
        m_trace.collectives.push_back(std::move(c));
    }

    KinetoTrace m_trace;
    int m_depth = 0;
    std::string m_topKey;
    bool m_any = false;
};

Result<KinetoTrace> finish(Reader& reader, const json& doc)
{
    KinetoTrace& t = reader.trace();
    if (!doc.is_object() || !doc.contains("traceEvents"))
        return badInput(t.path + ": not a Chrome trace (no traceEvents)");
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
                g.name = pg.contains("pg_name") && pg["pg_name"].is_string() ? pg["pg_name"].get<std::string>() : fallbackName;
                g.description = pg.contains("pg_desc") && pg["pg_desc"].is_string() ? pg["pg_desc"].get<std::string>() : "";
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

Result<KinetoTrace> parseWith(const std::function<json(const json::parser_callback_t&)>& parse, const std::string& origin,
                              const std::function<std::string()>& below = {})
{
    Reader reader(origin);
    json doc;
    try {
        doc = parse([&](int depth, json::parse_event_t event, json& parsed) { return reader.callback(depth, event, parsed); });
    } catch (const TooDeep&) {
        return badInput(origin + ": nested more than " + std::to_string(kMaxDepth) + " levels deep; not a profiler trace");
    } catch (const json::exception& e) {
        if (below)
            if (std::string problem = below(); !problem.empty())
                return badInput(origin + ": " + problem);
        std::string what = e.what();
        if (const size_t colon = what.find("] "); colon != std::string::npos)
            what = what.substr(colon + 2);
        return badInput(origin + ": not valid JSON (" + what + ")");
    }
    if (below)
        if (std::string problem = below(); !problem.empty())
            return badInput(origin + ": " + problem);
    return finish(reader, doc);
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
    static const char* const kFuncs[] = {"AllReduce", "AllGather", "ReduceScatter", "Reduce", "Broadcast", "SendRecv", "AllToAll"};
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
    if (n == "reducescatter" || n == "reducescatterbase" || n == "reducescattertensor" || n == "reducescattertensorcoalesced")
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
    return parseWith([&](const json::parser_callback_t& cb) { return json::parse(in, cb); }, origin);
}

Result<KinetoTrace> parseKinetoText(std::string_view text, const std::string& origin)
{
    return parseWith([&](const json::parser_callback_t& cb) { return json::parse(text.begin(), text.end(), cb); }, origin);
}

Result<KinetoTrace> readKinetoTrace(const std::filesystem::path& path, const ReadProgress& progress)
{
    auto input = InputStream::open(path, progress);
    if (!input)
        return input.error();
    InputStream& s = **input;
    auto trace = parseWith([&](const json::parser_callback_t& cb) { return json::parse(s.stream(), cb); }, path.string(),
                           [&] { return s.problem(); });
    if (!trace && s.cancelled())
        return Error{ErrorKind::Cancelled, path.string() + ": reading cancelled"};
    return trace;
}

} // namespace shardlab
