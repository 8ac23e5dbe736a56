// Reading an Nsight Systems SQLite export (nsight_export.h). The tables and columns read, with the
// export's own comments (nsys 2026.2, schema 3.25; the same names since 2022):
//   CUPTI_ACTIVITY_KIND_KERNEL  start, end (ns), deviceId, streamId, correlationId, globalPid,
//                               shortName -> StringIds(id, value)
//   CUPTI_ACTIVITY_KIND_RUNTIME start, globalTid, correlationId: the CUDA call that launched it
//   NVTX_EVENTS                 start, end, eventType (59 push/pop, 60 start/end range), text or
//                               textId -> StringIds, globalTid, domainId, binaryData (the payload;
//                               filled by `nsys export --include-blobs=true`)
//   NVTX_PAYLOAD_SCHEMAS        domainId, schemaId, payloadSize
//   NVTX_PAYLOAD_SCHEMA_ENTRIES domainId, schemaId, idx, type, name, offset (NULL: 0)
//   PROCESSES, TARGET_INFO_SESSION_START_TIME, TARGET_INFO_SYSTEM_ENV ('Hostname' only: its other
//                               rows hold the profiled environment, secrets included, never read),
//                               META_DATA_EXPORT (EXPORT_META_DATA before 2023)
// A payload blob is a 32-byte little-endian header (domain id, 0, schema id, 0, payload size,
// total size), then the payload as NCCL's struct (src/include/nvtx_payload_schemas.h: the
// communicator hash, the message size, then root, peer or reduction op) at the offsets its schema
// names. That layout is what exports show (read the same way by nsys-ai, MIT), not one NVIDIA
// documents, so a blob is read only where all four header fields agree with the row and its
// schema, and a call's payload only where it holds what the function's does (communicator and
// size; peer for Send and Recv; root for Broadcast and Reduce); any other is counted as unread,
// never guessed at.
// Global ids (globalPid, globalTid): the process id in bits 24-47, the thread's in bits 0-23.
#include "shardlab/import/nsight_export.h"

#include "shardlab/text/message.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>

namespace shardlab {

namespace nsight_detail {

constexpr int kHeaderBytes = 32;
// NCCL's kernels: the kernel table joined to their names (one predicate for both queries of them).
constexpr const char* kNcclKernels =
    "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE s.value LIKE 'nccl%Kernel%'";

// NCCL's functions whose NVTX ranges the reader takes (without the "nccl" prefix).
const std::set<std::string, std::less<>> kCollectiveCalls = {
    "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "Send", "Recv", "AlltoAll", "Gather", "Scatter"};
const std::set<std::string, std::less<>> kMembershipCalls = {"CommInitRank", "CommInitRankConfig",
                                                             "CommInitRankScalable", "CommSplit", "CommDestroy"};

long long processOf(std::int64_t globalId) { return static_cast<long long>((globalId >> 24) & 0xFFFFFF); }

Error fileError(const std::string& origin, Message what)
{
    return badInput(Message("error.input.file").with("file", origin).with("what", std::move(what)));
}

struct Db {
    sqlite3* db = nullptr;
    std::string origin;
    const ReadProgress* progress = nullptr;
    std::uint64_t done = 0, total = 0; // what the last stage reported
    bool cancelled = false;
    ~Db()
    {
        if (db)
            sqlite3_close(db);
    }
};

// SQLite's own words about what failed, in a message naming the file.
Error sqliteError(const Db& d, int rc)
{
    if (d.cancelled || rc == SQLITE_INTERRUPT)
        return Error(ErrorKind::Cancelled, Message("error.input.cancelled"));
    const char* why = d.db ? sqlite3_errmsg(d.db) : sqlite3_errstr(rc);
    return fileError(d.origin, Message("error.nsight.sqlite").with("why", verbatim(why ? why : "?")));
}

class Query {
public:
    Query(Db& d, const std::string& sql) : m_d(d) { m_rc = sqlite3_prepare_v2(d.db, sql.c_str(), -1, &m_st, nullptr); }
    ~Query() { sqlite3_finalize(m_st); }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;
    Status ok() const { return m_rc == SQLITE_OK ? Status{} : Status(sqliteError(m_d, m_rc)); }
    void bind(int i, const std::string& s) { sqlite3_bind_text(m_st, i, s.c_str(), -1, SQLITE_TRANSIENT); }
    // Next row: true; the end: false, with `status` set where it ended on an error.
    bool next(Status& status)
    {
        if (!status)
            return false;
        const int rc = sqlite3_step(m_st);
        if (rc == SQLITE_ROW)
            return true;
        if (rc != SQLITE_DONE)
            status = sqliteError(m_d, rc);
        return false;
    }
    bool null(int c) const { return sqlite3_column_type(m_st, c) == SQLITE_NULL; }
    std::int64_t integer(int c) const { return sqlite3_column_int64(m_st, c); }
    std::string text(int c, size_t max = 4096) const
    {
        const unsigned char* t = sqlite3_column_text(m_st, c);
        if (!t)
            return {};
        const size_t n = static_cast<size_t>(sqlite3_column_bytes(m_st, c));
        return std::string(reinterpret_cast<const char*>(t), std::min(n, max));
    }
    std::string_view blob(int c) const
    {
        if (sqlite3_column_type(m_st, c) != SQLITE_BLOB)
            return {};
        const void* b = sqlite3_column_blob(m_st, c);
        return b ? std::string_view(static_cast<const char*>(b), static_cast<size_t>(sqlite3_column_bytes(m_st, c)))
                 : std::string_view();
    }

private:
    Db& m_d;
    sqlite3_stmt* m_st = nullptr;
    int m_rc = SQLITE_OK;
};

using Tables = std::map<std::string, std::set<std::string>>;

// The tables (never views: they are switched off) the export has, each with its columns.
Result<Tables> tablesOf(Db& d)
{
    Tables out;
    Status st;
    {
        Query q(d, "SELECT name FROM sqlite_master WHERE type = 'table'");
        if (Status s = q.ok(); !s)
            return s.error();
        while (q.next(st))
            out[q.text(0, 256)];
    }
    if (!st)
        return st.error();
    for (auto& [table, columns] : out) {
        Query q(d, "SELECT name FROM pragma_table_info(?1)");
        if (Status s = q.ok(); !s)
            return s.error();
        q.bind(1, table);
        while (q.next(st))
            columns.insert(q.text(0, 256));
        if (!st)
            return st.error();
    }
    return out;
}

bool has(const Tables& t, const std::string& table, std::initializer_list<const char*> columns)
{
    const auto it = t.find(table);
    if (it == t.end())
        return false;
    return std::all_of(columns.begin(), columns.end(), [&](const char* c) { return it->second.count(c) > 0; });
}

// A table the reader needs, with its columns; the message names the first one missing.
Status need(const Db& d, const Tables& t, const std::string& table, std::initializer_list<const char*> columns,
            Message whyMissing)
{
    const auto it = t.find(table);
    if (it == t.end())
        return fileError(d.origin, std::move(whyMissing));
    for (const char* c : columns)
        if (!it->second.count(c))
            return fileError(d.origin, Message("error.nsight.column").with("table", table).with("column", c));
    return {};
}

// One value of a payload: `width` bytes little-endian at `offset` (within the payload).
std::optional<std::uint64_t> field(std::string_view payload, std::int64_t offset, int width)
{
    if (offset < 0 || width <= 0
        || static_cast<std::uint64_t>(offset) + static_cast<std::uint64_t>(width) > payload.size())
        return std::nullopt;
    std::uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(payload[static_cast<size_t>(offset + i)]);
    return v;
}

// Bytes of an NVTX payload entry type (nvToolsExtPayload.h: INT 5, UINT 6, LONG..ULONGLONG 7-10,
// INT32 15, UINT32 16, INT64 17, UINT64 18, SIZE 22, ADDRESS 23; on the 64-bit Linux nsys runs on);
// 0 for the others (not read).
int widthOf(std::int64_t type)
{
    switch (type) {
    case 5:
    case 6:
    case 15:
    case 16: return 4;
    case 7:
    case 8:
    case 9:
    case 10:
    case 17:
    case 18:
    case 22:
    case 23: return 8;
    default: return 0;
    }
}

struct Entry {
    std::int64_t type = 0, offset = 0;
};
struct Schema {
    std::int64_t payloadSize = 0;
    std::map<std::string, Entry> entries; // by name
};
using Schemas = std::map<std::pair<std::int64_t, std::int64_t>, Schema>; // (domain, schema id)

// The payload's named values, where the blob's header agrees with its row and its schema.
std::optional<std::map<std::string, std::int64_t>> decodePayload(std::string_view blob, std::int64_t domain,
                                                                 const Schemas& schemas)
{
    const auto header = [&](int at, int width) { return field(blob, at, width); };
    if (blob.size() < static_cast<size_t>(kHeaderBytes))
        return std::nullopt;
    const auto dom = header(0, 4), schemaId = header(8, 4), size = header(16, 8), total = header(24, 8);
    if (!dom || !schemaId || !size || !total || static_cast<std::int64_t>(*dom) != domain)
        return std::nullopt;
    const auto it = schemas.find({domain, static_cast<std::int64_t>(*schemaId)});
    if (it == schemas.end() || it->second.payloadSize <= 0
        || *size != static_cast<std::uint64_t>(it->second.payloadSize) || *total != kHeaderBytes + *size
        || blob.size() != *total)
        return std::nullopt;
    const std::string_view payload = blob.substr(static_cast<size_t>(kHeaderBytes));
    std::map<std::string, std::int64_t> values;
    for (const auto& [name, e] : it->second.entries) {
        const int width = widthOf(e.type);
        const auto v = field(payload, e.offset, width);
        if (!v)
            continue;
        const bool isSigned = e.type == 5 || e.type == 15;
        values[name] = width == 4 && isSigned ? static_cast<std::int32_t>(static_cast<std::uint32_t>(*v))
                                              : static_cast<std::int64_t>(*v);
    }
    return values;
}

struct Launch {
    std::int64_t thread = 0, startNs = 0;
};

Result<NsightExport> readExport(Db& d, std::uint64_t size)
{
    const auto stage = [&](int k) {
        d.done = size * static_cast<std::uint64_t>(k) / 6;
        d.total = size;
        if (d.progress && *d.progress && !(*d.progress)(d.done, d.total)) {
            d.cancelled = true;
            return false;
        }
        return true;
    };
    const auto cancelled = [] { return Error(ErrorKind::Cancelled, Message("error.input.cancelled")); };
    auto tables = tablesOf(d);
    if (!tables)
        return tables.error();
    const Tables& t = *tables;
    if (Status s =
            need(d, t, "StringIds", {"id", "value"}, Message("error.nsight.not_export").with("table", "StringIds"));
        !s)
        return s.error();
    if (Status s = need(d, t, "CUPTI_ACTIVITY_KIND_KERNEL",
                        {"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "shortName"},
                        Message("error.nsight.no_kernels")
                            .with("table", "CUPTI_ACTIVITY_KIND_KERNEL")
                            .with("command", "nsys profile -t cuda,nvtx"));
        !s)
        return s.error();
    NsightExport out;
    out.origin = d.origin;
    Status st;

    // What made it, where and when.
    for (const char* table : {"META_DATA_EXPORT", "EXPORT_META_DATA"})
        if (has(t, table, {"name", "value"}) && out.version.empty()) {
            Query q(d, std::string("SELECT value FROM ") + table + " WHERE name = 'EXPORT_PRODUCT_VERSION'");
            if (Status s = q.ok(); !s)
                return s.error();
            if (q.next(st))
                out.version = q.text(0, 64);
        }
    if (has(t, "TARGET_INFO_SYSTEM_ENV", {"name", "value"})) {
        Query q(d, "SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname'");
        if (Status s = q.ok(); !s)
            return s.error();
        if (q.next(st))
            out.host = q.text(0, 200);
    }
    if (has(t, "TARGET_INFO_SESSION_START_TIME", {"utcEpochNs", "systemClockNs"})) {
        Query q(d, "SELECT utcEpochNs, systemClockNs FROM TARGET_INFO_SESSION_START_TIME");
        if (Status s = q.ok(); !s)
            return s.error();
        if (q.next(st)) {
            out.utcStartNs = std::max<std::int64_t>(0, q.integer(0));
            out.clockStartNs = std::max<std::int64_t>(0, q.integer(1));
        }
    }
    if (!st)
        return st.error();
    if (!stage(1))
        return cancelled();

    // NCCL's kernels, by process.
    const std::string ncclKernels = std::string("SELECT k.start, k.end, k.deviceId, k.streamId, k.globalPid, s.value, "
                                                "k.correlationId FROM ")
                                    + kNcclKernels + " ORDER BY k.start";
    std::map<long long, NsightProcess> processes;
    std::map<long long, std::vector<std::pair<size_t, std::int64_t>>> correlations; // pid -> (kernel, correlation id)
    {
        Query q(d, ncclKernels);
        if (Status s = q.ok(); !s)
            return s.error();
        while (q.next(st)) {
            NsightKernel k;
            k.name = q.text(5, 512);
            k.func = ncclKernelFunction(k.name);
            if (k.func.empty())
                continue;
            k.startNs = q.integer(0);
            k.endNs = q.integer(1);
            const std::int64_t device = q.integer(2);
            if (k.endNs < k.startNs || k.startNs < 0)
                return fileError(d.origin, Message("error.nsight.kernel_times")
                                               .with("kernel", k.name)
                                               .with("start", std::to_string(k.startNs) + " ns")
                                               .with("end", std::to_string(k.endNs) + " ns"));
            if (device < 0 || device > 4095)
                return fileError(d.origin, Message("error.nsight.kernel_device")
                                               .with("kernel", k.name)
                                               .with("device", std::to_string(device)));
            k.device = static_cast<int>(device);
            k.stream = q.integer(3);
            const long long pid = processOf(q.integer(4));
            NsightProcess& p = processes[pid];
            if (p.kernels.empty()) {
                p.pid = pid;
                p.device = k.device;
            }
            if (!q.null(6))
                correlations[pid].push_back({p.kernels.size(), q.integer(6)});
            p.kernels.push_back(std::move(k));
        }
    }
    if (!st)
        return st.error();
    if (has(t, "PROCESSES", {"pid", "name"})) {
        Query q(d, "SELECT pid, name FROM PROCESSES");
        if (Status s = q.ok(); !s)
            return s.error();
        while (q.next(st))
            if (auto it = processes.find(q.integer(0)); it != processes.end())
                it->second.name = q.text(1, 200);
    }
    if (!st)
        return st.error();
    if (!stage(2))
        return cancelled();

    // Which thread launched each, and when (the CUDA call with its correlation id).
    std::map<std::pair<long long, std::int64_t>, Launch> launches; // (pid, correlation id)
    if (has(t, "CUPTI_ACTIVITY_KIND_RUNTIME", {"start", "globalTid", "correlationId"}) && !processes.empty()) {
        Query q(d, std::string("SELECT r.correlationId, r.globalTid, r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE "
                               "r.correlationId IN (SELECT k.correlationId FROM ")
                       + kNcclKernels + ")");
        if (Status s = q.ok(); !s)
            return s.error();
        while (q.next(st))
            launches[{processOf(q.integer(1)), q.integer(0)}] = Launch{q.integer(1), q.integer(2)};
    }
    if (!st)
        return st.error();
    if (!stage(3))
        return cancelled();

    // The payload schemas.
    Schemas schemas;
    if (has(t, "NVTX_PAYLOAD_SCHEMAS", {"domainId", "schemaId", "payloadSize"})
        && has(t, "NVTX_PAYLOAD_SCHEMA_ENTRIES", {"domainId", "schemaId", "type", "name", "offset"})) {
        {
            Query q(d, "SELECT domainId, schemaId, payloadSize FROM NVTX_PAYLOAD_SCHEMAS");
            if (Status s = q.ok(); !s)
                return s.error();
            while (q.next(st))
                schemas[{q.integer(0), q.integer(1)}].payloadSize = q.integer(2);
        }
        Query q(d, "SELECT domainId, schemaId, type, name, offset FROM NVTX_PAYLOAD_SCHEMA_ENTRIES");
        if (Status s = q.ok(); !s)
            return s.error();
        while (q.next(st))
            if (auto it = schemas.find({q.integer(0), q.integer(1)}); it != schemas.end())
                it->second.entries[q.text(3, 256)] = Entry{q.integer(2), q.null(4) ? 0 : q.integer(4)};
    }
    if (!st)
        return st.error();

    // NCCL's calls (its NVTX ranges: event types 59 and 60, push/pop and start/end ranges in
    // ENUM_NSYS_EVENT_TYPE), by thread in order of start; the communicators joined.
    std::map<std::int64_t, std::vector<NsightCall>> callsOf; // globalTid -> calls
    if (has(t, "NVTX_EVENTS", {"start", "end", "eventType", "text", "globalTid", "textId", "domainId"})) {
        out.blobColumn = has(t, "NVTX_EVENTS", {"binaryData"});
        const std::string sql =
            std::string("SELECT e.start, e.end, e.globalTid, COALESCE(e.text, s.value), e.domainId, ")
            + (out.blobColumn ? "e.binaryData" : "NULL")
            + " FROM NVTX_EVENTS e LEFT JOIN StringIds s ON s.id = e.textId WHERE e.eventType IN "
              "(59, 60) AND COALESCE(e.text, s.value) LIKE 'nccl%' ORDER BY e.start";
        Query q(d, sql);
        if (Status s = q.ok(); !s)
            return s.error();
        while (q.next(st)) {
            const std::string name = q.text(3, 64);
            if (name.rfind("nccl", 0) != 0)
                continue;
            const std::string func = name.substr(4);
            const bool collective = kCollectiveCalls.count(func) > 0, member = kMembershipCalls.count(func) > 0;
            if (!collective && !member)
                continue;
            // a payload: a blob in the layout its header and schema agree on; anything else is unread
            std::optional<std::map<std::string, std::int64_t>> values;
            if (!q.null(5)) {
                const std::string_view blob = q.blob(5);
                if (!blob.empty())
                    values = decodePayload(blob, q.integer(4), schemas);
            }
            const auto value = [&](const char* key) -> std::optional<std::int64_t> {
                if (!values)
                    return std::nullopt;
                const auto it = values->find(key);
                return it == values->end() ? std::nullopt : std::optional<std::int64_t>(it->second);
            };
            if (member) {
                const auto comm = value("NCCL communicator ID"), rank = value("Rank"), ranks = value("No. of ranks");
                if (comm && rank && ranks && *ranks >= 1 && *ranks <= (1 << 20) && *rank >= 0 && *rank < *ranks) {
                    NsightProcess& p = processes[processOf(q.integer(2))];
                    const auto same = [&](const NsightMember& m) {
                        return m.comm == static_cast<std::uint64_t>(*comm);
                    };
                    if (std::none_of(p.comms.begin(), p.comms.end(), same))
                        p.comms.push_back(
                            {static_cast<std::uint64_t>(*comm), static_cast<int>(*rank), static_cast<int>(*ranks)});
                }
                continue;
            }
            ++out.ncclRanges;
            NsightCall c;
            c.func = func;
            c.startNs = q.integer(0);
            c.endNs = q.null(1) ? c.startNs : std::max(c.startNs, q.integer(1));
            const auto comm = value("NCCL communicator ID"), bytes = value("Message size [bytes]");
            const auto peer = value("Peer rank"), root = value("Root");
            const bool p2p = ncclPointToPoint(func), rooted = func == "Broadcast" || func == "Reduce";
            c.decoded =
                comm && bytes && *bytes >= 0 && (!p2p || (peer && *peer >= 0)) && (!rooted || (root && *root >= 0));
            if (!c.decoded && !q.null(5))
                ++out.unreadPayloads; // there, but not what its function's payload holds
            if (c.decoded) {
                ++out.payloads;
                c.comm = static_cast<std::uint64_t>(*comm);
                c.bytes = static_cast<std::uint64_t>(*bytes);
                c.peer = p2p ? static_cast<int>(*peer) : -1;
                c.root = rooted ? static_cast<int>(*root) : -1;
            }
            callsOf[q.integer(2)].push_back(std::move(c));
        }
    }
    if (!st)
        return st.error();
    if (!stage(5))
        return cancelled();

    // Each kernel takes the calls its launching thread made since its previous NCCL launch, up to
    // its own: one call, or a group's (ncclGroupEnd launches it).
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, NsightKernel*>>> launchesOf; // thread -> launches
    for (auto& [pid, list] : correlations)
        for (const auto& [k, corr] : list)
            if (auto it = launches.find({pid, corr}); it != launches.end())
                launchesOf[it->second.thread].push_back({it->second.startNs, &processes[pid].kernels[k]});
    for (auto& [thread, list] : launchesOf) {
        std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        const auto calls = callsOf.find(thread);
        if (calls == callsOf.end())
            continue;
        size_t next = 0;
        const std::vector<NsightCall>& cs = calls->second;
        for (const auto& launch : list) {
            const std::int64_t at = launch.first;
            NsightKernel* kernel = launch.second; // (not a structured binding: the lambda below takes it)
            std::vector<NsightCall> mine;
            while (next < cs.size() && cs[next].startNs <= at)
                mine.push_back(cs[next++]);
            const bool p2pKernel = kernel->func == "SendRecv";
            const bool fits = !mine.empty() && std::all_of(mine.begin(), mine.end(), [&](const NsightCall& c) {
                const bool p2p = ncclPointToPoint(c.func);
                return p2pKernel ? p2p
                                 : !p2p && (kernel->func == "Generic" || c.func == kernel->func)
                                       && c.func == mine.front().func;
            });
            if (fits)
                kernel->calls = std::move(mine);
        }
    }

    for (auto& [pid, p] : processes)
        if (!p.kernels.empty())
            out.processes.push_back(std::move(p));
    std::stable_sort(out.processes.begin(), out.processes.end(), [](const NsightProcess& a, const NsightProcess& b) {
        return std::tie(a.device, a.pid) < std::tie(b.device, b.pid);
    });
    if (!stage(6))
        return cancelled();
    return out;
}

int onProgress(void* self)
{
    Db& d = *static_cast<Db*>(self);
    if (d.progress && *d.progress && !(*d.progress)(d.done, d.total)) // a cancel heard mid-query too
        d.cancelled = true;
    return d.cancelled ? 1 : 0;
}

// The defences for a file someone else made: read-only, no views or triggers, no functions the
// schema names, values and statements bounded, no other database attached.
void defend(Db& d)
{
    sqlite3_db_config(d.db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(d.db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
#ifdef SQLITE_DBCONFIG_ENABLE_VIEW
    sqlite3_db_config(d.db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
#endif
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    sqlite3_db_config(d.db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
#endif
    sqlite3_limit(d.db, SQLITE_LIMIT_LENGTH, 16 << 20);
    sqlite3_limit(d.db, SQLITE_LIMIT_SQL_LENGTH, 1 << 16);
    sqlite3_limit(d.db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_progress_handler(d.db, 100000, &onProgress, &d);
}

} // namespace nsight_detail

std::string ncclKernelFunction(std::string_view name)
{
    for (std::string_view prefix : {std::string_view("ncclDevKernel_"), std::string_view("ncclKernel_")})
        if (name.substr(0, prefix.size()) == prefix) {
            std::string_view rest = name.substr(prefix.size());
            rest = rest.substr(0, std::min(rest.find('_'), rest.find('(')));
            return std::string(rest);
        }
    return {};
}

Result<NsightExport> readNsightExport(const std::filesystem::path& path, const ReadProgress& progress)
{
    nsight_detail::Db d;
    d.origin = path.string();
    d.progress = &progress;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return nsight_detail::fileError(d.origin, Message("error.input.is_folder"));
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    if (ec || !std::ifstream(path, std::ios::binary))
        return nsight_detail::fileError(d.origin, Message("error.input.cannot_open"));
    if (const int rc = sqlite3_open_v2(path.c_str(), &d.db, SQLITE_OPEN_READONLY, nullptr); rc != SQLITE_OK)
        return nsight_detail::sqliteError(d, rc);
    nsight_detail::defend(d);
    return nsight_detail::readExport(d, size);
}

Result<NsightExport> parseNsightExport(std::string_view bytes, const std::string& origin)
{
    nsight_detail::Db d;
    d.origin = origin;
    if (const int rc = sqlite3_open_v2(":memory:", &d.db, SQLITE_OPEN_READWRITE, nullptr); rc != SQLITE_OK)
        return nsight_detail::sqliteError(d, rc);
    // The bytes stay the caller's (no FREEONCLOSE) and are never written (READONLY).
    auto* data = reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
    const auto n = static_cast<sqlite3_int64>(bytes.size());
    if (const int rc = sqlite3_deserialize(d.db, "main", data, n, n, SQLITE_DESERIALIZE_READONLY); rc != SQLITE_OK)
        return nsight_detail::sqliteError(d, rc);
    nsight_detail::defend(d);
    return nsight_detail::readExport(d, bytes.size());
}

} // namespace shardlab
