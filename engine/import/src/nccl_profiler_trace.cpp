// NCCL's example profiler plugin's trace files -> the profiler's record file (profile_reader.h);
// nccl_profiler_trace.h says what is read. The plugin prints one event per line (print_event.cc),
// a collective's kernel channels between its begin and end, so one pass with "the open op" joins
// them.
#include "shardlab/import/nccl_profiler_trace.h"

#include "shardlab/import/input_file.h"

#include "shardlab/text/message.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <map>

namespace shardlab {

namespace ncclprof_detail {

using json = nlohmann::json;

constexpr std::size_t kMaxLine = 1 << 20;

// NCCL's ncclDataType_t in order (nccl.h): the plugin before 2.26 printed the number.
constexpr std::array<const char*, 12> kDatatypes = {"ncclInt8",    "ncclUint8",    "ncclInt32",      "ncclUint32",
                                                    "ncclInt64",   "ncclUint64",   "ncclFloat16",    "ncclFloat32",
                                                    "ncclFloat64", "ncclBfloat16", "ncclFloat8e4m3", "ncclFloat8e5m2"};

bool isJsonNumber(std::string_view t)
{
    size_t i = 0;
    if (i < t.size() && t[i] == '-')
        ++i;
    const size_t digits = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
        ++i;
    if (i == digits || (t[digits] == '0' && i - digits > 1))
        return false;
    if (i < t.size() && t[i] == '.') {
        const size_t frac = ++i;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i;
        if (i == frac)
            return false;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        const size_t exp = i;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i;
        if (i == exp)
            return false;
    }
    return i == t.size();
}

std::optional<std::uint64_t> whole(const json& obj, const char* key)
{
    const auto it = obj.find(key);
    if (it == obj.end())
        return std::nullopt;
    if (it->is_number_unsigned())
        return it->get<std::uint64_t>();
    if (it->is_number_integer() && it->get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(it->get<std::int64_t>());
    return std::nullopt;
}

std::optional<std::string> datatypeOf(const json& args)
{
    const auto it = args.find("Datatype");
    if (it == args.end())
        return std::nullopt;
    if (it->is_string())
        return it->get<std::string>().substr(0, 64);
    if (it->is_number_integer() && it->get<std::int64_t>() >= 0
        && it->get<std::int64_t>() < static_cast<std::int64_t>(kDatatypes.size()))
        return std::string(kDatatypes[static_cast<size_t>(it->get<std::int64_t>())]);
    return std::nullopt;
}

Message notEvent() { return Message("error.ncclprof.not_event").with("cat", "\"cat\"").with("ph", "\"ph\""); }

Message missing(const char* key) { return Message("error.ncclprof.number").with("key", key); }

} // namespace ncclprof_detail

std::string quoteBareValues(std::string_view line)
{
    using ncclprof_detail::isJsonNumber;
    std::string out;
    out.reserve(line.size() + 16);
    bool inString = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        out += c;
        if (inString) {
            if (c == '\\' && i + 1 < line.size())
                out += line[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        if (c != ':')
            continue;
        size_t j = i + 1;
        while (j < line.size() && (line[j] == ' ' || line[j] == '\t'))
            out += line[j++];
        size_t end = j;
        while (end < line.size() && line[end] != ',' && line[end] != '}' && line[end] != ']' && line[end] != ' '
               && line[end] != '\t' && line[end] != '"' && line[end] != '{' && line[end] != '[')
            ++end;
        const std::string_view token = line.substr(j, end - j);
        if (!token.empty() && !isJsonNumber(token) && token != "true" && token != "false" && token != "null")
            out += '"' + std::string(token) + '"';
        else
            out += token;
        i = end - 1;
    }
    return out;
}

NcclProfilerTraceReader::NcclProfilerTraceReader(std::string origin, NcclProfilerTraceCounts& counts) : m_counts(counts)
{
    m_file.path = std::move(origin);
    m_file.host = "host";
}

Status NcclProfilerTraceReader::feed(std::string_view piece)
{
    return feedLines(
        piece, m_pending, ncclprof_detail::kMaxLine, [this](const std::string& line) { return take(line); },
        [this] {
            return badInput(Message("error.input.file")
                                .with("file", m_file.path + ":" + std::to_string(m_lineNo + 1))
                                .with("what", Message("error.ncclprof.long_line")));
        });
}

Status NcclProfilerTraceReader::take(const std::string& raw)
{
    using namespace ncclprof_detail;
    ++m_lineNo;
    std::string_view line = raw;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.remove_suffix(1);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())))
        line.remove_prefix(1);
    if (!line.empty() && line.back() == ',')
        line.remove_suffix(1);
    if (line.empty() || line == "[" || line == "{}" || line == "]")
        return {};
    if (line == "{}]") {
        m_ended = true;
        return {};
    }
    const std::string origin = m_file.path + ":" + std::to_string(m_lineNo);
    json e;
    try {
        e = json::parse(quoteBareValues(line));
    } catch (const json::exception&) {
        return badInput(Message("error.input.file").with("file", origin).with("what", notEvent()));
    }
    if (!e.is_object() || !e.contains("cat") || !e["cat"].is_string() || !e.contains("ph") || !e["ph"].is_string())
        return badInput(Message("error.input.file").with("file", origin).with("what", notEvent()));
    const std::string cat = e["cat"].get<std::string>(), ph = e["ph"].get<std::string>();
    const bool begin = ph == "b";
    auto problem = [&](const std::string& path, Message what) {
        return badInput(Message("error.at").with("origin", origin).with("path", path).with("what", std::move(what)));
    };
    if (m_file.pid == 0)
        if (const auto pid = whole(e, "pid"))
            m_file.pid = static_cast<long long>(std::min<std::uint64_t>(*pid, 1ull << 40));
    if (cat == "GROUP_API" || cat == "GROUP") {
        // Since the v5 interface, group API events are the top of the hierarchy and legacy groups
        // are not printed; before it, groups were. Either way: the group an op was issued in.
        if (begin)
            m_group = ++m_groups;
        else
            m_group = 0;
        return {};
    }
    if (cat == "COLL" || cat == "P2P") {
        if (!begin) {
            m_open = -1;
            return {};
        }
        if (!e.contains("args") || !e["args"].is_object())
            return problem("$.args", Message("error.says.missing"));
        const json& a = e["args"];
        const bool p2p = cat == "P2P";
        const auto hash = whole(a, "CommHash"), count = whole(a, "Count");
        const auto rankIt = a.find("Rank");
        if (!hash)
            return problem("$.args.CommHash", missing("CommHash"));
        if (rankIt == a.end() || !rankIt->is_number_integer() || rankIt->get<std::int64_t>() < 0
            || rankIt->get<std::int64_t>() >= (1 << 20))
            return problem("$.args.Rank", missing("Rank"));
        if (!count)
            return problem("$.args.Count", missing("Count"));
        const auto datatype = datatypeOf(a);
        if (!datatype)
            return problem("$.args.Datatype", Message("error.says.missing"));
        ProfiledOp op;
        op.id = m_file.ops.size() + 1;
        op.p2p = p2p;
        op.hash = *hash;
        op.rank = static_cast<int>(rankIt->get<std::int64_t>());
        // one context per (communicator, rank) of the file: a process driving several GPUs has several
        op.context =
            m_contexts.try_emplace({*op.hash, *op.rank}, static_cast<std::int64_t>(m_contexts.size())).first->second;
        op.func = e.value("name", std::string()).substr(0, 64);
        if (op.func.empty())
            return problem("$.name", Message("error.says.missing"));
        op.count = *count;
        op.datatype = *datatype;
        if (p2p) {
            const auto peer = a.find("Peer");
            if (peer == a.end() || !peer->is_number_integer() || peer->get<std::int64_t>() < 0
                || peer->get<std::int64_t>() >= (1 << 20))
                return problem("$.args.Peer", missing("Peer"));
            op.root = static_cast<int>(peer->get<std::int64_t>());
        } else {
            const auto seq = whole(a, "SeqNum");
            if (!seq)
                return problem("$.args.SeqNum", missing("SeqNum"));
            op.sequence = *seq;
            op.root = op.func == "Broadcast" || op.func == "Reduce" ? 0 : -1;
            op.algorithm = a.value("Algorithm", std::string()).substr(0, 32);
            op.protocol = a.value("Protocol", std::string()).substr(0, 32);
        }
        const auto channels = whole(a, "nChannels") ? whole(a, "nChannels") : whole(a, "nMaxChannels");
        op.channels = static_cast<int>(std::min<std::uint64_t>(channels.value_or(0), 1024));
        op.group = m_group;
        if (const auto it = e.find("ts"); it != e.end() && it->is_number())
            op.hostNs = it->get<double>() * 1e3;
        op.line = m_lineNo;
        m_file.ops.push_back(std::move(op));
        m_open = static_cast<std::ptrdiff_t>(m_file.ops.size()) - 1;
        return {};
    }
    if (cat == "GPU" && begin) {
        if (!e.contains("args") || !e["args"].is_object())
            return problem("$.args", Message("error.says.missing"));
        const json& a = e["args"];
        const auto start = whole(a, "StartGpuClk"), stop = whole(a, "StopGpuClk");
        if (!start)
            return problem("$.args.StartGpuClk", missing("StartGpuClk"));
        if (!stop)
            return problem("$.args.StopGpuClk", missing("StopGpuClk"));
        if (*start == 0) // a channel the kernel did not time (or not yet)
            return {};
        if (*stop != 0 && *stop < *start)
            return problem("$.args", Message("error.ncclprof.stops_before")
                                         .with("stop", std::to_string(*stop))
                                         .with("start", std::to_string(*start)));
        if (m_open < 0) {
            ++m_counts.orphanGpu;
            return {};
        }
        KernelChannel ch;
        ch.channel = static_cast<int>(std::min<std::uint64_t>(whole(a, "Channel").value_or(0), 1024));
        ch.gpuStartNs = *start;
        if (*stop != 0)
            ch.gpuEndNs = *stop;
        ch.line = m_lineNo;
        m_file.ops[static_cast<size_t>(m_open)].kernel.push_back(ch);
    }
    return {};
}

Result<ProfileFile> NcclProfilerTraceReader::finish()
{
    // A last line without its new line: whole if it reads, else cut short (left out). A file
    // without the plugin's closing "{}]" was not written to its end (the process was killed, the
    // disk filled): what it has is read, and counted.
    if (!m_pending.empty())
        (void)take(m_pending);
    m_pending.clear();
    if (!m_ended)
        ++m_counts.cutFiles;
    if (m_file.ops.empty()) {
        if (m_ended) // the plugin finished the file: it had nothing to record
            return badInput(
                Message("error.ncclprof.empty").with("file", m_file.path).with("mask", "NCCL_PROFILE_EVENT_MASK=64"));
        return badInput(
            Message("error.ncclprof.unwritten").with("file", m_file.path).with("destroy", "ncclCommDestroy"));
    }
    for (const ProfiledOp& op : m_file.ops)
        if (op.kernel.empty())
            ++m_counts.untimed;
    return std::move(m_file);
}

Result<ProfileFile> parseNcclProfilerTrace(std::string_view text, const std::string& origin,
                                           NcclProfilerTraceCounts* counts)
{
    NcclProfilerTraceCounts local;
    NcclProfilerTraceReader reader(origin, counts ? *counts : local);
    constexpr size_t kPiece = 1 << 20;
    for (size_t pos = 0; pos < text.size(); pos += kPiece)
        if (Status s = reader.feed(text.substr(pos, kPiece)); !s)
            return s.error();
    return reader.finish();
}

} // namespace shardlab
