// libFuzzer target for the importers of other tools' files (engine/import): PyTorch profiler
// (Kineto) traces, Flight Recorder dumps (JSON, and pickle through the data-only pickle reader),
// nccl-tests JSON, NCCL Inspector logs, Nsight Systems SQLite exports, NCCL's example profiler
// plugin's traces, gzip, and the sniffer that
// picks among them. These are
// files users bring from jobs that crashed or hung, so any bytes must give a result or a message
// naming the file, never a crash, a hang or a leak; a result must be sane (ranks in range, times in
// order, sizes consistent), and the whole-job builders (kinetoJob, flightRecorderJob, the
// profiler's builder for Inspector logs) must take whatever a reader accepted.
//
// The first byte picks the reader, the rest is the file:
//   'k' Kineto trace   'f' Flight Recorder dump (JSON or pickle)   'p' pickle alone
//   'n' nccl-tests JSON   'i' NCCL Inspector log   's' Nsight Systems SQLite export
//   'c' NCCL example profiler plugin trace
//   'z' gzip, then the reader its text sniffs as
//   anything else: the reader sniffImportFormat picks for the rest
// (the seeds in corpus-import/ are real samples behind their letter). Build with
// -DSHARDLAB_FUZZ=ON and clang; run
//   build/fuzz/tests/fuzz/fuzz_import tests/fuzz/corpus-import -max_total_time=60
#include "shardlab/import/flight_recorder.h"
#include "shardlab/import/import_format.h"
#include "shardlab/import/input_file.h"
#include "shardlab/import/inspector_log.h"
#include "shardlab/import/kineto_trace.h"
#include "shardlab/import/nccl_profiler_trace.h"
#include "shardlab/import/nccl_tests.h"
#include "shardlab/import/nsight_export.h"
#include "shardlab/import/pickle_reader.h"
#include "shardlab/profile/profile_build.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace shardlab;

void check(bool ok)
{
    if (!ok)
        __builtin_trap();
}

// A reader's error names the file it was given.
void checkError(const Error& e, const std::string& origin)
{
    check(!e.message.empty());
    check(e.message.find(origin) != std::string::npos);
}

bool finite(double x) { return std::isfinite(x); }

// A run a job builder made: every rank, span and collective member in range, times in order.
void checkRun(const RunResult& run)
{
    check(run.ranks >= 1);
    for (const Span& s : run.spans) {
        check(s.rank >= 0 && s.rank < run.ranks);
        check(finite(s.beginUs) && finite(s.endUs) && s.beginUs <= s.endUs);
        check(s.waitedFor >= -1 && s.waitedFor < run.ranks);
        check(s.collective >= -1 && s.collective < static_cast<int>(run.collectives.size()));
    }
    for (const CollectiveRecord& c : run.collectives) {
        for (int r : c.group)
            check(r >= 0 && r < run.ranks);
        check(c.lastArrival >= -1 && c.lastArrival < run.ranks);
    }
    if (run.hang)
        check(run.hang->firstMismatchRank >= -1 && run.hang->firstMismatchRank < run.ranks);
}

void checkJob(const Result<ImportedJob>& job)
{
    if (!job) {
        check(!job.error().message.empty());
        return;
    }
    checkRun(job->run);
}

void kineto(std::string_view text, const std::string& origin)
{
    auto trace = parseKinetoText(text, origin);
    if (!trace) {
        checkError(trace.error(), origin);
        return;
    }
    const KinetoTrace& t = *trace;
    check(t.path == origin);
    check(t.rank >= -1 && t.worldSize >= 0);
    check(t.events >= 0 && t.computeKernels >= 0 && t.profilerSteps >= 0);
    check(t.collectives.size() <= static_cast<size_t>(t.events));
    check(finite(t.firstUs) && finite(t.lastUs) && t.firstUs <= t.lastUs);
    for (size_t i = 0; i < t.collectives.size(); ++i) {
        const KinetoCollective& c = t.collectives[i];
        check(finite(c.tsUs) && finite(c.durUs) && c.durUs >= 0);
        check(c.tsUs >= t.firstUs && c.tsUs + c.durUs <= t.lastUs);
        check(i == 0 || t.collectives[i - 1].tsUs <= c.tsUs);
        check(c.groupSize >= 0);
        for (int r : c.groupRanks)
            check(r >= 0);
    }
    for (const KinetoGroup& g : t.groups)
        for (int r : g.ranks)
            check(r >= 0);
    // The job: the trace as it says, and as both ranks of a job of two.
    checkJob(kinetoJob({t}));
    KinetoTrace a = t, b = t;
    a.rank = 0;
    b.rank = 1;
    a.worldSize = b.worldSize = 2;
    b.path = "other.json";
    checkJob(kinetoJob({a, b}));
}

void flightRecorder(std::string_view bytes, const std::string& origin)
{
    auto dump = parseFlightRecorder(bytes, origin);
    if (!dump) {
        checkError(dump.error(), origin);
        return;
    }
    const FlightRecorderDump& d = *dump;
    check(d.origin == origin);
    check(d.pickle == (!bytes.empty() && static_cast<unsigned char>(bytes.front()) == 0x80));
    check(!d.rank || *d.rank >= 0);
    for (const auto& [name, g] : d.groups) {
        check(g.name == name);
        for (int r : g.ranks)
            check(r >= 0);
    }
    for (const FlightRecorderEntry& e : d.entries) {
        (void)e.opName();
        (void)e.inputElements();
    }
    // The job: the dump alone, and the same dump as ranks 0 and 1 of one job.
    checkJob(flightRecorderJob({d}));
    FlightRecorderDump a = d, b = d;
    a.rank = 0;
    b.rank = 1;
    b.origin = "other.json";
    checkJob(flightRecorderJob({a, b}));
}

void pickle(std::string_view bytes, const std::string& origin)
{
    PickleLimits limits;
    limits.maxCost = 1 << 20; // a fuzzer's input is small: keep its copies small too
    auto value = parsePickle(bytes, origin, limits);
    if (!value)
        checkError(value.error(), origin);
}

void ncclTests(std::string_view text, const std::string& origin)
{
    auto sweep = parseNcclTestsJson(text, origin);
    if (!sweep) {
        checkError(sweep.error(), origin);
        return;
    }
    const NcclTestsSweep& s = *sweep;
    check(s.ranks >= 1);
    check(!s.rows.empty());
    for (const NcclTestsRow& r : s.rows) {
        const auto timing = [](const NcclTestsTiming& t) {
            check(finite(t.timeUs) && t.timeUs > 0);
            check(finite(t.algbwGBps) && t.algbwGBps >= 0 && finite(t.busbwGBps) && t.busbwGBps >= 0);
        };
        timing(r.inPlace);
        if (r.outOfPlace)
            timing(*r.outOfPlace);
    }
    check(finite(averageBusBandwidth(s)));
    check(sweepSizes(s).size() == s.rows.size());
    (void)formatMeasuredSweep(s, nullptr, verbatim("fuzz"));
    (void)measuredSweepJson(s, nullptr);
    (void)renderImportedSweep(s, "", true);
}

// A trace of NCCL's example profiler plugin: its ops name their communicator and rank, their
// kernel channels start and stop in order; and the profiler's builder takes it (as
// importNcclProfiler gives it: kernel times as the op's, on one clock), alone and with a second
// process's copy of it as the other rank.
void ncclProfiler(std::string_view text, const std::string& origin)
{
    NcclProfilerTraceCounts counts;
    auto trace = parseNcclProfilerTrace(text, origin, &counts);
    if (!trace) {
        checkError(trace.error(), origin);
        return;
    }
    ProfileFile f = *trace;
    check(f.path == origin && !f.ops.empty());
    check(counts.untimed >= 0 && counts.untimed <= static_cast<int>(f.ops.size()) && counts.cutFiles <= 1);
    std::vector<ProfiledOp> timed;
    for (ProfiledOp& op : f.ops) {
        check(op.hash && op.rank && *op.rank >= 0 && op.context >= 0);
        check(!op.func.empty() && !op.datatype.empty());
        std::uint64_t first = UINT64_MAX, last = 0;
        for (const KernelChannel& ch : op.kernel) {
            check(ch.gpuStartNs > 0 && (!ch.gpuEndNs || *ch.gpuEndNs >= ch.gpuStartNs));
            first = std::min(first, ch.gpuStartNs);
            last = std::max(last, ch.gpuEndNs.value_or(ch.gpuStartNs));
        }
        if (op.kernel.empty())
            continue;
        // bounded: the builder's times are doubles of ns after the first reading
        op.hostNs = static_cast<double>(first % (1ull << 40));
        op.stopNs = op.hostNs + static_cast<double>(std::min<std::uint64_t>(last - first, 1ull << 40));
        op.kernel.clear();
        timed.push_back(op);
    }
    f.ops = timed;
    if (f.ops.empty())
        return;
    ProfileFile other = f;
    other.path = "other.json";
    other.pid = f.pid + 1;
    for (ProfiledOp& op : other.ops)
        op.rank = *op.rank + 1;
    const auto built = [](const Result<ProfiledRun>& run) {
        if (run)
            checkRun(run->run);
        else
            check(!run.error().message.empty());
    };
    ProfileBuildOptions imported;
    imported.imported = true;
    built(buildProfiledRun({f}, imported));
    built(buildProfiledRun({f, other}, imported));
}

void inspector(std::string_view text, const std::string& origin)
{
    auto log = parseInspectorLog(text, origin);
    if (!log) {
        checkError(log.error(), origin);
        return;
    }
    const ProfileFile& f = *log;
    check(f.path == origin && !f.host.empty());
    check(!f.ops.empty() && !f.comms.empty());
    for (const ProfiledComm& c : f.comms)
        check(c.ranks >= 1 && c.rank >= 0 && c.rank < c.ranks);
    for (size_t i = 0; i < f.ops.size(); ++i) {
        const ProfiledOp& op = f.ops[i];
        check(op.context >= 0 && op.context < static_cast<std::int64_t>(f.comms.size()));
        check(op.stopNs && *op.stopNs >= op.hostNs);
        check(i == 0 || f.ops[i - 1].hostNs <= op.hostNs);
    }
    // The job, as importInspector builds it: the log alone, and twice over (a second process).
    ProfileFile other = f;
    other.path = "other.log";
    other.host = "elsewhere";
    const auto built = [](const Result<ProfiledRun>& run) {
        if (run)
            checkRun(run->run);
        else
            check(!run.error().message.empty());
    };
    built(buildProfiledRun({f}));
    built(buildProfiledRun({f, other}));
}

// An Nsight export: whatever SQLite makes of the bytes, a reader's result is sane or its error
// names the file.
void nsight(std::string_view bytes, const std::string& origin)
{
    auto ex = parseNsightExport(bytes, origin);
    if (!ex) {
        checkError(ex.error(), origin);
        return;
    }
    check(ex->origin == origin);
    check(ex->ncclRanges >= 0 && ex->payloads >= 0 && ex->unreadPayloads >= 0);
    check(ex->payloads + ex->unreadPayloads <= ex->ncclRanges);
    for (const NsightProcess& p : ex->processes) {
        check(!p.kernels.empty());
        for (size_t i = 0; i < p.kernels.size(); ++i) {
            const NsightKernel& k = p.kernels[i];
            check(!k.func.empty() && k.startNs >= 0 && k.endNs >= k.startNs);
            check(k.device >= 0 && k.device <= 4095);
            check(i == 0 || p.kernels[i - 1].startNs <= k.startNs);
            for (const NsightCall& c : k.calls)
                check(c.endNs >= c.startNs && (!c.decoded || c.peer >= -1));
        }
        for (const NsightMember& m : p.comms)
            check(m.ranks >= 1 && m.rank >= 0 && m.rank < m.ranks);
    }
}

void sniffed(std::string_view text, const std::string& name, int depth);

void gunzip(std::string_view bytes, const std::string& origin, int depth)
{
    constexpr std::uint64_t kMax = 4 << 20;
    auto text = gunzipText(bytes, origin, kMax);
    if (!text) {
        checkError(text.error(), origin);
        return;
    }
    check(text->size() <= kMax);
    if (depth < 2)
        sniffed(*text, "fuzz_rank0", depth + 1);
}

void sniffed(std::string_view text, const std::string& name, int depth)
{
    if (looksGzip(text)) {
        gunzip(text, name + ".gz", depth);
        return;
    }
    switch (sniffImportFormat(name, text.substr(0, 64 * 1024))) {
    case ImportFormat::Kineto: kineto(text, name + ".json"); break;
    case ImportFormat::FlightRecorder: flightRecorder(text, name + ".pkl"); break;
    case ImportFormat::NcclInspector: inspector(text, name + ".log"); break;
    case ImportFormat::NcclTests: ncclTests(text, name + ".json"); break;
    case ImportFormat::NsightSqlite: nsight(text, name + ".sqlite"); break;
    case ImportFormat::NcclProfilerTrace: ncclProfiler(text, name + ".json"); break;
    default: break;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    // The sniffer on any bytes, under the names it judges by.
    for (const char* name : {"fuzz", "fuzz.json", "fuzz.shardlab.json", "fuzz.nccl-profile.jsonl", "fuzz.pkl"}) {
        const ImportFormat f = sniffImportFormat(name, rest.substr(0, 64 * 1024));
        check(!importFormatName(f).empty() && !importFormatMessageId(f).empty());
    }
    switch (data[0]) {
    case 'k': kineto(rest, "fuzz_rank0.json"); break;
    case 'f': flightRecorder(rest, "fuzz_rank0.json"); break;
    case 'p': pickle(rest, "fuzz.pkl"); break;
    case 'n': ncclTests(rest, "fuzz_perf.json"); break;
    case 'i': inspector(rest, "fuzz_rank0.log"); break;
    case 's': nsight(rest, "fuzz.sqlite"); break;
    case 'c': ncclProfiler(rest, "fuzz_0.json"); break;
    case 'z': gunzip(rest, "fuzz.json.gz", 0); break;
    default: sniffed(rest, "fuzz_rank0", 0); break;
    }
    return 0;
}
