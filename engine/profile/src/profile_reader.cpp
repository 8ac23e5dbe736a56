#include "shardlab/profile/profile_reader.h"

#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"
#include "shardlab/base/units.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_format.h"
#include "shardlab/text/foreign_text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string_view>

namespace shardlab {

namespace {

using detail::json;

// Record files of long runs are large; the reader holds one in memory at a time.
constexpr std::uintmax_t kMaxRecordFileBytes = 4ull << 30;

double nsAt(const json& obj, const std::string& path, const char* key)
{
    const json& v = detail::member(obj, path, key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
        detail::failAt(path + "." + key, detail::foundInstead(v, Message("error.expects.nanoseconds")));
    return static_cast<double>(v.get<std::uint64_t>());
}

std::uint64_t unsignedAt(const json& obj, const std::string& path, const char* key)
{
    const json& v = detail::member(obj, path, key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
        detail::failAt(path + "." + key, detail::foundInstead(v, Message("error.expects.whole_number_at_least_0")));
    return v.get<std::uint64_t>();
}

int intAt(const json& obj, const std::string& path, const char* key, int lo, int hi)
{
    return static_cast<int>(detail::integerAt(detail::member(obj, path, key), path + "." + key, lo, hi));
}

std::int64_t contextAt(const json& obj, const std::string& path)
{
    return static_cast<std::int64_t>(detail::integerAt(detail::member(obj, path, "ctx"), path + ".ctx", 0, 1LL << 62));
}

std::string textAt(const json& obj, const std::string& path, const char* key)
{
    return detail::stringAt(detail::member(obj, path, key), path + "." + key);
}

std::uint64_t hashAt(const json& obj, const std::string& path)
{
    const std::string s = textAt(obj, path, "hash");
    if (s.empty() || s.size() > 16 || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        detail::failAt(
            path + ".hash",
            Message("error.says.not_hash").with("value", s).with("expected", Message("error.expects.hex_digits")));
    return std::stoull(s, nullptr, 16);
}

constexpr const char* kExampleDatatype = "ncclFloat32";

// "4611686018427387905 elements of ncclFloat64 (8 bytes each) ...": a size no collective has.
Message sizeBeyondLimit(const ProfiledOp& op, int elementBytes, int ranks)
{
    Message out(ranks > 1 ? "error.says.gathered_too_large" : "error.says.count_too_large");
    out.arg("count", std::to_string(op.count));
    out.arg("dtype", op.datatype);
    out.arg("size", std::to_string(elementBytes));
    if (ranks > 1)
        out.arg("ranks", ranks);
    return out;
}

// "FILE, line N" (error.origin_line): where in a record file.
Message recordLine(const std::string& file, int line)
{
    return Message("error.origin_line").with("file", file).with("line", std::to_string(line));
}

// "FILE, line N: PATH: what" (error.at): what a getter of json_reader.h threw at a line, or `what`
// at `path` of it; errorAt() of json_reader.h with the line as its origin.
Error refusedAt(const std::string& file, int line, const detail::JsonPathError& e)
{
    return detail::errorAt(recordLine(file, line), e);
}

Error refusedAt(const std::string& file, int line, const std::string& path, Message what)
{
    return refusedAt(file, line, detail::JsonPathError(path, std::move(what)));
}

// One kernel channel's start as a clock bracket (profile_clock.h): its GPU reading was taken after
// its collective's event started (`before`) and before the plugin heard of it (`after`).
struct Reading {
    double before = 0, after = 0;
    std::uint64_t gpuNs = 0;
    int line = 0;
};

// A GPU timer only goes forward: a channel whose collective started (host clock) after another
// channel had been reported must read the timer later than that one. The first reading that does
// not (in the order of its collective's start), with the one it is earlier than; nullopt when none.
std::optional<std::pair<Reading, Reading>> timerWentBack(const std::vector<Reading>& readings)
{
    std::vector<const Reading*> byAfter, byBefore;
    for (const Reading& r : readings)
        if (r.after >= r.before) { // a bracket the clock fit uses (live_clock.h ignores the others)
            byAfter.push_back(&r);
            byBefore.push_back(&r);
        }
    auto order = [](double Reading::*key) {
        return [key](const Reading* a, const Reading* b) {
            return std::tie(a->*key, a->line) < std::tie(b->*key, b->line);
        };
    };
    std::sort(byAfter.begin(), byAfter.end(), order(&Reading::after));
    std::sort(byBefore.begin(), byBefore.end(), order(&Reading::before));
    const Reading* latest = nullptr; // the latest GPU reading of the channels reported so far
    size_t reported = 0;
    for (const Reading* r : byBefore) {
        for (; reported < byAfter.size() && byAfter[reported]->after < r->before; ++reported)
            if (!latest || byAfter[reported]->gpuNs > latest->gpuNs)
                latest = byAfter[reported];
        if (latest && latest->gpuNs > r->gpuNs)
            return std::make_pair(*r, *latest);
    }
    return std::nullopt;
}

} // namespace

Result<std::uint64_t> collectiveBytes(const ProfiledOp& op, const std::string& path, bool gathered, int ranks)
{
    const std::optional<int> size = ncclDatatypeBytes(op.datatype);
    if (!size)
        return refusedAt(
            path, op.line, "$.dtype",
            Message("error.says.unknown_datatype").with("value", op.datatype).with("example", kExampleDatatype));
    std::uint64_t bytes = 0;
    const std::uint64_t times = gathered ? static_cast<std::uint64_t>(std::max(ranks, 1)) : 1;
    if (__builtin_mul_overflow(op.count, static_cast<std::uint64_t>(*size), &bytes)
        || __builtin_mul_overflow(bytes, times, &bytes) || bytes > kMaxBytes)
        return refusedAt(path, op.line, "$.count", sizeBeyondLimit(op, *size, static_cast<int>(times)));
    return bytes;
}

std::optional<int> ncclDatatypeBytes(const std::string& name)
{
    static const std::map<std::string, int> sizes = {
        {"ncclInt8", 1},       {"ncclUint8", 1},      {"ncclInt32", 4},   {"ncclUint32", 4},  {"ncclInt64", 8},
        {"ncclUint64", 8},     {"ncclFloat16", 2},    {"ncclFloat32", 4}, {"ncclFloat64", 8}, {"ncclBfloat16", 2},
        {"ncclFloat8e4m3", 1}, {"ncclFloat8e5m2", 1}, {"ncclChar", 1},    {"ncclInt", 4},     {"ncclHalf", 2},
        {"ncclFloat", 4},      {"ncclDouble", 8},
    };
    const auto it = sizes.find(name);
    if (it == sizes.end())
        return std::nullopt;
    return it->second;
}

ProfileRecordParser::ProfileRecordParser(std::string origin) : m_origin(std::move(origin)) { m_file.path = m_origin; }

Status ProfileRecordParser::feed(std::string_view bytes)
{
    if (m_problem)
        return *m_problem;
    size_t pos = 0;
    while (pos < bytes.size()) {
        const size_t nl = bytes.find('\n', pos);
        if (nl == std::string_view::npos) {
            m_pending.append(bytes.substr(pos));
            break;
        }
        m_pending.append(bytes.substr(pos, nl - pos));
        pos = nl + 1;
        std::string line = std::move(m_pending);
        m_pending.clear();
        if (Status st = parseLine(line, true); !st) {
            m_problem = st.error();
            return *m_problem;
        }
    }
    return {};
}

Status ProfileRecordParser::finish()
{
    if (m_problem)
        return *m_problem;
    if (!m_pending.empty()) { // the last line without its new line: read if whole, else left out
        std::string line = std::move(m_pending);
        m_pending.clear();
        if (Status st = parseLine(line, false); !st) {
            m_problem = st.error();
            return *m_problem;
        }
    }
    return {};
}

Status ProfileRecordParser::parseLine(const std::string& line, bool complete)
{
    ++m_lineNo;
    if (line.empty())
        return {};
    json rec;
    try {
        rec = detail::parseJsonStrict(line); // a key given twice is refused, as in every file a user gives
    } catch (const json::exception&) {       // not JSON, or a number beyond a double (out_of_range 406: 1048E576)
        rec = json(json::value_t::discarded);
    } catch (const detail::JsonPathError& e) {
        return refusedAt(m_origin, m_lineNo, e);
    }
    if (rec.is_discarded() || !rec.is_object()) {
        if (!complete && m_header) // the process was killed while writing its last line
            return {};
        return badInput(Message("error.line.not_a_record").with("file", recordLine(m_origin, m_lineNo)));
    }
    ProfileFile& file = m_file;
    try {
        if (!m_header) {
            const json* magic = rec.contains(profile_format::kMagicKey) ? &rec[profile_format::kMagicKey] : nullptr;
            if (!magic)
                return badInput(Message("error.line.not_a_profile")
                                    .with("file", recordLine(m_origin, m_lineNo))
                                    .with("key", "\"" + std::string(profile_format::kMagicKey) + "\""));
            if (!magic->is_number_integer() || magic->get<long long>() != profile_format::kVersion)
                return badInput(Message("error.line.profile_format")
                                    .with("file", recordLine(m_origin, m_lineNo))
                                    .with("version", magic->dump())
                                    .with("supported", std::to_string(profile_format::kVersion)));
            file.host = textAt(rec, "$", "host");
            file.pid = intAt(rec, "$", "pid", 0, 1 << 30);
            file.startNs = nsAt(rec, "$", "t");
            file.startRealNs = static_cast<std::int64_t>(unsignedAt(rec, "$", "real"));
            m_header = true;
            return {};
        }
        const std::string kind = textAt(rec, "$", "k");
        if (kind == "comm") {
            ProfiledComm c;
            c.context = contextAt(rec, "$");
            c.hash = hashAt(rec, "$");
            c.ranks = intAt(rec, "$", "nranks", 1, 1 << 24);
            c.rank = intAt(rec, "$", "rank", 0, c.ranks - 1);
            c.nodes = intAt(rec, "$", "nodes", 0, 1 << 24);
            c.name = textAt(rec, "$", "name");
            c.initNs = nsAt(rec, "$", "t");
            if (!m_contexts.insert(c.context).second)
                detail::failAt("$.ctx", Message("error.says.context_twice").with("context", std::to_string(c.context)));
            file.comms.push_back(std::move(c));
        } else if (kind == "coll" || kind == "p2p") {
            ProfiledOp op;
            op.p2p = kind == "p2p";
            op.id = unsignedAt(rec, "$", "id");
            op.context = contextAt(rec, "$");
            op.func = textAt(rec, "$", "func");
            op.count = unsignedAt(rec, "$", "count");
            op.datatype = textAt(rec, "$", "dtype");
            op.channels = intAt(rec, "$", "nch", 0, 255);
            op.group = unsignedAt(rec, "$", "group");
            op.hostNs = nsAt(rec, "$", "t");
            if (op.p2p) {
                op.root = intAt(rec, "$", "peer", 0, 1 << 24);
            } else {
                op.sequence = unsignedAt(rec, "$", "seq");
                op.root = intAt(rec, "$", "root", -1, 1 << 24);
                op.algorithm = textAt(rec, "$", "algo");
                op.protocol = textAt(rec, "$", "proto");
                if (rec.contains("hash")) {
                    op.hash = hashAt(rec, "$");
                    op.rank = intAt(rec, "$", "rank", 0, 1 << 24);
                }
            }
            op.line = m_lineNo;
            if (!op.p2p && opFromNcclFunc(op.func)) { // drawn: its size must be one a scenario holds
                if (op.count == 0)
                    detail::failAt("$.count", Message("error.says.no_elements"));
                if (auto bytes = collectiveBytes(op, m_origin, false, 1); !bytes)
                    return bytes.error();
            }
            if (!m_opIndex.try_emplace(op.id, file.ops.size()).second)
                detail::failAt("$.id", Message("error.says.event_twice").with("id", std::to_string(op.id)));
            file.ops.push_back(std::move(op));
        } else if (kind == "stop") {
            const std::uint64_t id = unsignedAt(rec, "$", "id");
            m_stops.push_back({id, Stamp{nsAt(rec, "$", "t"), 0, m_lineNo}});
        } else if (kind == "kch") {
            PendingChannel ch;
            ch.id = unsignedAt(rec, "$", "id");
            ch.op = unsignedAt(rec, "$", "op");
            ch.channel.channel = intAt(rec, "$", "ch", 0, 255);
            ch.channel.gpuStartNs = unsignedAt(rec, "$", "gpu");
            ch.channel.hostSeenNs = nsAt(rec, "$", "t");
            ch.channel.line = m_lineNo;
            m_channels.push_back(ch);
        } else if (kind == "kchstop") {
            const std::uint64_t id = unsignedAt(rec, "$", "id");
            m_channelEnds[id] = Stamp{0, unsignedAt(rec, "$", "gpu"), m_lineNo};
        } else if (kind == "group") {
            ++file.groups;
        } else if (kind == "fin") {
            file.endNs = nsAt(rec, "$", "t");
            file.endRealNs = static_cast<std::int64_t>(unsignedAt(rec, "$", "real"));
            file.dropped = std::max(file.dropped, unsignedAt(rec, "$", "dropped"));
        } else {
            detail::failAt("$.k", Message("error.says.record_kind").with("kind", kind));
        }
    } catch (const detail::JsonPathError& e) {
        return refusedAt(m_origin, m_lineNo, e);
    } catch (const json::exception& e) { // the library's own words, as they are
        return badInput(Message("error.input.file")
                            .with("file", recordLine(m_origin, m_lineNo))
                            .with("what", parserMessage(e.what())));
    }
    return {};
}

Result<ProfileFile> ProfileRecordParser::file(bool whole) const
{
    if (m_problem)
        return *m_problem;
    if (!m_header)
        return badInput(Message("error.line.profile_empty").with("file", m_origin));
    // Joined once every record is in: each thread's records reach the file in turn, so a kernel
    // channel (NCCL's proxy thread) may come before its collective (the program's thread). A
    // channel or stop whose event is not in the file (the process was killed before the program's
    // thread wrote its records) is left out: what it belonged to is unknown.
    // Records that cannot be (an event that stops before it starts, a channel that ends before it
    // starts, a GPU timer that goes back) are refused at their line: they would give collectives of
    // no time, no waits, or steps a hundred times too long.
    ProfileFile file = m_file;
    for (const auto& [id, stop] : m_stops)
        if (const auto it = m_opIndex.find(id); it != m_opIndex.end()) {
            ProfiledOp& op = file.ops[it->second];
            if (stop.ns < op.hostNs)
                return refusedAt(m_origin, stop.line, "$.t",
                                 Message("error.says.stop_before_start")
                                     .with("stop", std::to_string(static_cast<std::uint64_t>(stop.ns)))
                                     .with("start", std::to_string(static_cast<std::uint64_t>(op.hostNs)))
                                     .with("line", op.line));
            op.stopNs = stop.ns;
        }
    std::map<std::int64_t, std::vector<Reading>> readings; // per communicator context: one GPU
    for (PendingChannel ch : m_channels) {
        const auto it = m_opIndex.find(ch.op);
        if (it == m_opIndex.end())
            continue;
        if (const auto end = m_channelEnds.find(ch.id); end != m_channelEnds.end()) {
            if (end->second.gpuNs < ch.channel.gpuStartNs)
                return refusedAt(m_origin, end->second.line, "$.gpu",
                                 Message("error.says.channel_end_before_start")
                                     .with("end", std::to_string(end->second.gpuNs))
                                     .with("start", std::to_string(ch.channel.gpuStartNs))
                                     .with("line", ch.channel.line));
            ch.channel.gpuEndNs = end->second.gpuNs;
        }
        ProfiledOp& op = file.ops[it->second];
        readings[op.context].push_back({op.hostNs, ch.channel.hostSeenNs, ch.channel.gpuStartNs, ch.channel.line});
        op.kernel.push_back(ch.channel);
    }
    for (const auto& [context, list] : readings)
        if (const auto back = timerWentBack(list)) {
            char ms[32];
            std::snprintf(ms, sizeof ms, "%.3f", static_cast<double>(back->second.gpuNs - back->first.gpuNs) / 1e6);
            return refusedAt(m_origin, back->first.line, "$.gpu",
                             Message("error.says.gpu_timer_back")
                                 .with("reading", std::to_string(back->first.gpuNs))
                                 .with("ms", std::string(ms))
                                 .with("line", back->second.line)
                                 .with("earlier", std::to_string(back->second.gpuNs)));
        }
    if (!whole) { // another thread's records (its communicator's init) may still be in its buffer
        std::erase_if(file.ops, [&](const ProfiledOp& op) { return !op.hash && !m_contexts.count(op.context); });
        return file;
    }
    for (const ProfiledOp& op : file.ops)
        if (!op.hash && !m_contexts.count(op.context))
            return badInput(Message("error.line.unknown_context")
                                .with("file", m_origin)
                                .with("id", std::to_string(op.id))
                                .with("context", std::to_string(op.context)));
    return file;
}

Result<ProfileFile> parseProfileText(const std::string& text, const std::string& origin)
{
    ProfileRecordParser parser(origin);
    if (Status st = parser.feed(text); !st)
        return st.error();
    if (Status st = parser.finish(); !st)
        return st.error();
    return parser.file(true);
}

Result<ProfileFile> readProfileFile(const std::filesystem::path& path)
{
    auto text = readUserFile(path, Message("error.file_kind.record"), kMaxRecordFileBytes);
    if (!text)
        return text.error();
    return parseProfileText(*text, path.string());
}

Result<std::vector<ProfileFile>> readProfileDirectory(const std::filesystem::path& dir)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        return badInput(
            Message("error.line.not_a_folder").with("folder", dir.string()).with("command", "shardlab profile --out"));
    std::vector<std::filesystem::path> paths;
    const std::string suffix = profile_format::kFileSuffix;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            paths.push_back(entry.path());
    }
    if (paths.empty())
        return badInput(Message("error.line.no_record_file")
                            .with("folder", dir.string())
                            .with("suffix", suffix)
                            .with("variable", "NCCL_PROFILER_PLUGIN"));
    std::sort(paths.begin(), paths.end());
    std::vector<ProfileFile> files;
    for (const auto& p : paths) {
        auto f = readProfileFile(p);
        if (!f)
            return f.error();
        files.push_back(std::move(*f));
    }
    return files;
}

} // namespace shardlab
