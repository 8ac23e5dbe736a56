// NCCL Inspector logs (its profiler plugin's JSON lines, output format v4: one object per
// collective per rank; docs/importing.md, "NCCL Inspector") -> the job's run. Each line names its
// communicator (header.id: NCCL's hash, rank, n_ranks, nnodes), the collective (coll, coll_sn:
// NCCL's sequence number per kind, coll_msg_size_bytes: NCCL's count x type size, so per rank for
// all-gather and reduce-scatter) and its times (µs since 1970, the plugin's host clock): the kernel
// channels' start and stop where the plugin timed the kernel ("kernel_gpu"), else the
// collective's start and stop on the host. These become the profiler's record files
// (profile_reader.h) and go through the same matcher and builder as `shardlab profile`'s own.
#include "import_readers.h"

#include "shardlab/import/inspector_log.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_reader.h"
#include "shardlab/text/message.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace shardlab {

namespace {

using json = nlohmann::json;

constexpr std::size_t kMaxLine = 1 << 20;

struct Counts {
    int hostTimed = 0; // lines without kernel times: timed by the collective's host start/stop
    int cutLines = 0;  // last lines cut short
    std::set<std::string> versions;
};

std::optional<std::uint64_t> hexId(const json& v)
{
    if (!v.is_string())
        return std::nullopt;
    std::string s = v.get<std::string>();
    if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0)
        s = s.substr(2);
    if (s.empty() || s.size() > 16 || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        return std::nullopt;
    return std::stoull(s, nullptr, 16);
}

std::int64_t wholeNumber(const json& obj, const char* key, std::int64_t fallback = -1)
{
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number_integer())
        return fallback;
    return it->get<std::int64_t>();
}

// What is wrong with a line: at a JSON path of it ("$.header.id: what"), or the line as a whole (no path).
struct LineProblem {
    std::string path;
    Message what; // empty: nothing is wrong
};

LineProblem at(std::string path, Message what) { return {std::move(path), std::move(what)}; }

// One line into `file`; what is wrong with it (an empty `what` when nothing is).
LineProblem readLine(const std::string& line, ProfileFile& file, std::map<std::uint64_t, std::int64_t>& contexts,
                     Counts& counts, std::int64_t& originUs)
{
    json j;
    try {
        j = json::parse(line);
    } catch (const json::exception&) {
        return at("", Message("error.inspector.not_json"));
    }
    if (!j.is_object() || !j.contains("header") || !j.contains("coll_perf") || !j["header"].is_object()
        || !j["coll_perf"].is_object())
        return at("", Message("error.inspector.no_header").with("header", "header").with("perf", "coll_perf"));
    const json& h = j["header"];
    const json& c = j["coll_perf"];
    if (j.contains("metadata") && j["metadata"].is_object()) {
        const json& m = j["metadata"];
        if (m.contains("inspector_output_format_version") && m["inspector_output_format_version"].is_string())
            counts.versions.insert(m["inspector_output_format_version"].get<std::string>());
        if (file.host.empty() && m.contains("hostname") && m["hostname"].is_string())
            file.host = m["hostname"].get<std::string>().substr(0, 200);
        if (file.pid == 0)
            file.pid = std::max<std::int64_t>(0, wholeNumber(m, "pid", 0));
    }
    const auto id = hexId(h.value("id", json()));
    const std::int64_t rank = wholeNumber(h, "rank"), ranks = wholeNumber(h, "n_ranks");
    if (!id)
        return at("$.header.id", Message("error.inspector.not_comm_id"));
    if (ranks < 1 || ranks > (1 << 20) || rank < 0 || rank >= ranks)
        return at(
            "$.header",
            Message("error.inspector.rank_of").with("rank", std::to_string(rank)).with("ranks", std::to_string(ranks)));
    auto [ctx, fresh] = contexts.try_emplace(*id, static_cast<std::int64_t>(contexts.size()));
    if (fresh) {
        ProfiledComm comm;
        comm.context = ctx->second;
        comm.hash = *id;
        comm.rank = static_cast<int>(rank);
        comm.ranks = static_cast<int>(ranks);
        comm.nodes = static_cast<int>(std::clamp<std::int64_t>(wholeNumber(h, "nnodes", 0), 0, 1 << 20));
        comm.name = h.contains("comm_name") && h["comm_name"].is_string() && h["comm_name"] != "unknown"
                        ? h["comm_name"].get<std::string>()
                        : "";
        file.comms.push_back(comm);
    }
    const std::string func = c.value("coll", std::string());
    const std::int64_t sn = wholeNumber(c, "coll_sn"), bytes = wholeNumber(c, "coll_msg_size_bytes");
    if (func.empty())
        return at("$.coll_perf.coll", Message("error.says.missing"));
    if (sn < 0)
        return at("$.coll_perf.coll_sn", Message("error.inspector.missing_or_negative"));
    if (bytes < 0)
        return at("$.coll_perf.coll_msg_size_bytes", Message("error.inspector.missing_or_negative"));
    // Times: the kernel channels' (GPU, on the host clock), else the collective's on the host.
    std::int64_t start = std::numeric_limits<std::int64_t>::max(), stop = -1;
    if (const auto ts = c.find("event_trace_ts"); ts != c.end() && ts->is_object()) {
        if (const auto k = ts->find("kernel_events"); k != ts->end() && k->is_array())
            for (const json& ch : *k) {
                if (!ch.is_object())
                    continue;
                const std::int64_t a = wholeNumber(ch, "kernel_start_ts"), b = wholeNumber(ch, "kernel_stop_ts");
                if (a > 0)
                    start = std::min(start, a);
                if (b > 0)
                    stop = std::max(stop, b);
            }
        if (start == std::numeric_limits<std::int64_t>::max() || stop < 0) {
            start = wholeNumber(*ts, "coll_start_ts");
            stop = wholeNumber(*ts, "coll_stop_ts");
            ++counts.hostTimed;
        }
    }
    if (start <= 0 || stop <= 0)
        return at("$.coll_perf.event_trace_ts",
                  Message("error.inspector.no_times").with("verbose", "NCCL_INSPECTOR_DUMP_VERBOSE=1"));
    if (stop < start)
        return at("$.coll_perf.event_trace_ts", Message("error.inspector.stops_before")
                                                    .with("stop", std::to_string(stop))
                                                    .with("start", std::to_string(start)));
    if (originUs == 0)
        originUs = start; // times as doubles relative to the first: µs since 1970 keep their digits
    ProfiledOp op;
    op.id = file.ops.size() + 1;
    op.context = ctx->second;
    op.sequence = static_cast<std::uint64_t>(sn);
    op.func = func;
    op.count = static_cast<std::uint64_t>(bytes);
    op.datatype = "ncclUint8";
    op.root = func == "Broadcast" || func == "Reduce" ? 0 : -1;
    op.hostNs = static_cast<double>(start - originUs) * 1e3;
    op.stopNs = static_cast<double>(stop - originUs) * 1e3;
    file.ops.push_back(std::move(op));
    return {};
}

// One log read piece by piece (in any pieces), each complete line through readLine; importInspector
// feeds it a file's chunks, parseInspectorLog the text in memory.
class LogReader {
public:
    LogReader(std::string path, Counts& counts, std::int64_t& originUs) : m_counts(counts), m_originUs(originUs)
    {
        m_file.path = std::move(path);
    }

    Status feed(std::string_view piece)
    {
        return feedLines(
            piece, m_pending, kMaxLine, [this](const std::string& line) { return take(line); },
            [this] {
                return badInput(Message("error.input.file")
                                    .with("file", m_file.path + ":" + std::to_string(m_lineNo + 1))
                                    .with("what", Message("error.inspector.long_line")));
            });
    }

    // The whole log is in: its record file, ops in order of start.
    Result<ProfileFile> finish()
    {
        // A last line without its new line: whole if it reads, else cut short by a process that died
        // while writing it (left out, with a note).
        if (!m_pending.empty())
            if (Status s = take(m_pending); !s)
                ++m_counts.cutLines;
        m_pending.clear();
        if (m_file.ops.empty())
            return badInput(Message("error.inspector.empty")
                                .with("file", m_file.path)
                                .with("enable", "NCCL_INSPECTOR_ENABLE=1")
                                .with("verbose", "NCCL_INSPECTOR_DUMP_VERBOSE=1"));
        if (m_file.host.empty())
            m_file.host = "host";
        std::stable_sort(m_file.ops.begin(), m_file.ops.end(),
                         [](const ProfiledOp& a, const ProfiledOp& b) { return a.hostNs < b.hostNs; });
        return std::move(m_file);
    }

private:
    Status take(const std::string& line)
    {
        ++m_lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            return {};
        LineProblem problem = readLine(line, m_file, m_contexts, m_counts, m_originUs);
        if (problem.what.empty())
            return {};
        const std::string origin = m_file.path + ":" + std::to_string(m_lineNo);
        if (problem.path.empty()) // "FILE:LINE: what"
            return badInput(Message("error.input.file").with("file", origin).with("what", std::move(problem.what)));
        return badInput(Message("error.at") // "FILE:LINE: PATH: what"
                            .with("origin", origin)
                            .with("path", problem.path)
                            .with("what", std::move(problem.what)));
    }

    ProfileFile m_file;
    Counts& m_counts;
    std::int64_t& m_originUs;
    std::map<std::uint64_t, std::int64_t> m_contexts;
    std::string m_pending;
    int m_lineNo = 0;
};

} // namespace

Result<ProfileFile> parseInspectorLog(std::string_view text, const std::string& origin)
{
    Counts counts;
    std::int64_t originUs = 0;
    LogReader reader(origin, counts, originUs);
    // In pieces of the size a file is read in, so that a log reads the same in memory as from disk.
    constexpr size_t kPiece = 1 << 20;
    for (size_t pos = 0; pos < text.size(); pos += kPiece)
        if (Status s = reader.feed(text.substr(pos, kPiece)); !s)
            return s.error();
    return reader.finish();
}

Result<ImportedJob> importInspector(const ImportPaths& paths, const ImportOptions& options)
{
    std::vector<ProfileFile> files;
    Counts counts;
    std::int64_t originUs = 0; // one origin for every file: they share the epoch clock
    ImportProgress progress(paths, options.progress);
    for (const auto& p : paths) {
        LogReader reader(p.string(), counts, originUs);
        if (Status st = progress.read(p, [&](std::string_view piece) { return reader.feed(piece); }); !st)
            return st.error();
        auto file = reader.finish();
        if (!file)
            return file.error();
        files.push_back(std::move(*file));
    }
    auto built =
        buildToolJob(files, options, {"NCCL job (Inspector logs)", "NCCL Inspector logged it", "NCCL Inspector logs"});
    if (!built)
        return built.error();
    ImportedJob job = std::move(*built);
    std::string versions;
    for (const std::string& v : counts.versions)
        versions += (versions.empty() ? "" : ", ") + v;
    Message clock = Message("import.inspector.clock").with("version", versions.empty() ? std::string("?") : versions);
    job.run.clockNote = std::move(clock);
    if (counts.hostTimed > 0)
        job.run.notes.push_back(Message("import.inspector.note.host_timed").with("count", counts.hostTimed));
    if (counts.cutLines > 0)
        job.run.notes.push_back(Message("import.inspector.note.cut").with("count", counts.cutLines));
    for (const std::string& v : counts.versions)
        if (v.rfind("v4.", 0) != 0)
            job.run.notes.push_back(Message("import.inspector.note.version").with("version", v));
    return job;
}

} // namespace shardlab
