// Trace files of NCCL's example profiler plugin (nccl_profiler_trace.h; docs/importing.md, "NCCL's
// example profiler plugin") -> the job's run. Each file holds one communicator's events as one
// rank saw them; the files of one process (same pid) become one record file, as ShardLab's own
// profiler writes it, and go through the same matcher and builder.
//
// Clock: the plugin's `ts` is µs since that process's plugin started, so ranks cannot be put on
// one clock by it. Each op is timed by its kernel channels instead: first StartGpuClk to last
// StopGpuClk, the GPU's %globaltimer (ns), which the GPUs of one machine share. Every time is taken
// after the earliest reading of all files, so that the doubles keep their nanoseconds. How well
// that holds is measured, not assumed: ranks leave a collective together, so the spread of the
// members' kernel ends, collective by collective, bounds the clocks' disagreement (with the
// kernels' own skew); its median is stated in the run's clock sentence.
#include "import_readers.h"

#include "shardlab/import/input_file.h"
#include "shardlab/import/nccl_profiler_trace.h"
#include "shardlab/profile/profile_match.h"
#include "shardlab/text/message.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <map>
#include <set>
#include <tuple>

namespace shardlab {

namespace ncclprof_import_detail {

// Above this median spread of a collective's kernel ends (µs), the clocks disagree (GPUs of
// different machines, traces of different runs): said in a note. Not lower: ranks sharing a GPU,
// or talking through sockets, end a collective several ms apart on one clock (the ddp4 sample:
// 6.6 ms).
constexpr double kSharedClockSpreadUs = 1e6;

std::uint64_t firstStart(const ProfiledOp& op)
{
    std::uint64_t t = std::numeric_limits<std::uint64_t>::max();
    for (const KernelChannel& ch : op.kernel)
        t = std::min(t, ch.gpuStartNs);
    return t;
}

std::uint64_t lastEnd(const ProfiledOp& op)
{
    std::uint64_t t = 0;
    for (const KernelChannel& ch : op.kernel)
        t = std::max(t, ch.gpuEndNs.value_or(ch.gpuStartNs));
    return t;
}

// The files of one process as one record file: their ops in kernel order, one context per
// (communicator, rank) across them.
ProfileFile merged(std::vector<ProfileFile> parts)
{
    ProfileFile out = std::move(parts.front());
    std::map<std::pair<std::uint64_t, int>, std::int64_t> contexts;
    for (ProfiledOp& op : out.ops)
        contexts[{*op.hash, *op.rank}] = op.context;
    for (size_t i = 1; i < parts.size(); ++i) {
        out.path += ", " + parts[i].path;
        for (ProfiledOp& op : parts[i].ops) {
            op.context =
                contexts.try_emplace({*op.hash, *op.rank}, static_cast<std::int64_t>(contexts.size())).first->second;
            out.ops.push_back(std::move(op));
        }
    }
    std::stable_sort(out.ops.begin(), out.ops.end(),
                     [](const ProfiledOp& a, const ProfiledOp& b) { return firstStart(a) < firstStart(b); });
    for (size_t i = 0; i < out.ops.size(); ++i)
        out.ops[i].id = i + 1;
    return out;
}

struct ClockStats {
    double spreadUs = 0;   // median spread of a collective's members' kernel ends
    bool measured = false; // some collective has kernel ends on two ranks
    int unstopped = 0;     // ops whose kernel channels recorded no stop
};

// Every op timed on the GPU timer, in ns after the earliest reading of all files (so that the
// doubles keep their nanoseconds): first channel start to last channel stop; ops without any
// timed channel are dropped (the reader counted them). An op whose channels recorded no stop
// (NCCL 2.28's plugin records none for point-to-point kernels) is given the earliest end it can
// have had: a collective's member when the last member arrived (communicator, function, sequence
// number); a receive when its send began (the k-th send from one rank to another pairs with the
// k-th receive there from it, the order NCCL pairs them in); a send at its own start. So a wait is
// never claimed beyond what must have happened, and what each took after that is not known.
ClockStats onGpuClock(std::vector<ProfileFile>& files)
{
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    for (const ProfileFile& f : files)
        for (const ProfiledOp& op : f.ops)
            if (!op.kernel.empty())
                origin = std::min(origin, firstStart(op));
    for (ProfileFile& f : files) {
        std::vector<ProfiledOp> timed;
        for (ProfiledOp& op : f.ops) {
            if (op.kernel.empty())
                continue;
            const bool stopped =
                std::any_of(op.kernel.begin(), op.kernel.end(), [](const KernelChannel& ch) { return ch.gpuEndNs; });
            op.hostNs = static_cast<double>(firstStart(op) - origin);
            op.stopNs = stopped ? std::optional<double>(static_cast<double>(lastEnd(op) - origin)) : std::nullopt;
            op.kernel.clear();
            timed.push_back(std::move(op));
        }
        f.ops = std::move(timed);
    }
    // The partners (pointers into the final vectors).
    std::map<std::tuple<std::uint64_t, std::string, std::uint64_t>, std::vector<ProfiledOp*>> collectives;
    std::map<std::tuple<std::uint64_t, int, int>, std::vector<ProfiledOp*>> sends, recvs; // (hash, from, to)
    for (ProfileFile& f : files)
        for (ProfiledOp& op : f.ops) {
            if (!op.p2p)
                collectives[{*op.hash, op.func, op.sequence}].push_back(&op);
            else if (op.func == "Send")
                sends[{*op.hash, *op.rank, op.root}].push_back(&op);
            else if (op.func == "Recv")
                recvs[{*op.hash, op.root, *op.rank}].push_back(&op);
        }
    ClockStats stats;
    std::vector<double> spreads;
    const auto endAtLastArrival = [&](const std::vector<ProfiledOp*>& members) {
        double last = 0;
        for (const ProfiledOp* op : members)
            last = std::max(last, op->hostNs);
        for (ProfiledOp* op : members)
            if (!op->stopNs) {
                op->stopNs = last;
                ++stats.unstopped;
            }
    };
    for (const auto& [key, members] : collectives) {
        std::vector<double> stops;
        for (const ProfiledOp* op : members)
            if (op->stopNs)
                stops.push_back(*op->stopNs);
        if (stops.size() > 1)
            spreads.push_back(
                (*std::max_element(stops.begin(), stops.end()) - *std::min_element(stops.begin(), stops.end())) / 1e3);
        endAtLastArrival(members);
    }
    // A receive cannot end before its send began; a send can end before its receive began (NCCL
    // sends small messages into the receiver's buffer), so it is given no end after its start.
    const auto endAt = [&](ProfiledOp* op, double ns) {
        if (!op->stopNs) {
            op->stopNs = std::max(ns, op->hostNs);
            ++stats.unstopped;
        }
    };
    for (auto& [key, list] : recvs) {
        const auto send = sends.find(key);
        for (size_t k = 0; k < list.size(); ++k)
            endAt(list[k], send != sends.end() && k < send->second.size() ? send->second[k]->hostNs : 0);
    }
    for (auto& [key, list] : sends)
        for (ProfiledOp* op : list)
            endAt(op, 0);
    stats.spreadUs = median(spreads);
    stats.measured = !spreads.empty();
    return stats;
}

} // namespace ncclprof_import_detail

Result<ImportedJob> importNcclProfiler(const ImportPaths& paths, const ImportOptions& options)
{
    using namespace ncclprof_import_detail;
    NcclProfilerTraceCounts counts;
    std::map<long long, std::vector<ProfileFile>> byProcess; // pid -> its files (0: pid unknown, each alone)
    std::vector<ProfileFile> alone;
    std::map<std::pair<std::uint64_t, int>, std::string> fileOf; // (communicator, rank) -> the file recording it
    std::map<std::uint64_t, std::set<int>> ranksOf;              // communicator -> its ranks recorded
    ImportProgress progress(paths, options.progress);
    for (const auto& p : paths) {
        NcclProfilerTraceReader reader(p.string(), counts);
        if (Status st = progress.read(p, [&](std::string_view piece) { return reader.feed(piece); }); !st)
            return st.error();
        auto file = reader.finish();
        if (!file)
            return file.error();
        // Without the kernel channels' GPU times the ranks' events are on clocks that started at
        // each process's own moment: nothing could be said about waits.
        if (std::none_of(file->ops.begin(), file->ops.end(), [](const ProfiledOp& op) { return !op.kernel.empty(); }))
            return badInput(
                Message("error.ncclprof.untimed").with("file", file->path).with("mask", "NCCL_PROFILE_EVENT_MASK=64"));
        for (const ProfiledOp& op : file->ops) {
            auto [it, fresh] = fileOf.try_emplace({*op.hash, *op.rank}, file->path);
            if (!fresh && it->second != file->path)
                return badInput(Message("error.line.import_rank_twice")
                                    .with("rank", *op.rank)
                                    .with("hash", commHashText(*op.hash))
                                    .with("file", it->second)
                                    .with("file2", file->path));
            ranksOf[*op.hash].insert(*op.rank);
        }
        if (file->pid > 0)
            byProcess[file->pid].push_back(std::move(*file));
        else
            alone.push_back(std::move(*file));
    }
    // The traces do not say how many ranks a communicator has: ranks 0 to the highest recorded
    // are taken, and a gap among them is a file missing (one missing after the highest cannot be
    // seen: the run's notes say so).
    for (const auto& [hash, ranks] : ranksOf)
        for (int r = 0; r < *ranks.rbegin(); ++r)
            if (!ranks.count(r))
                return badInput(Message("error.line.import_rank_missing")
                                    .with("rank", r)
                                    .with("ranks", *ranks.rbegin() + 1)
                                    .with("hash", commHashText(hash)));
    std::vector<ProfileFile> files = std::move(alone);
    for (auto& [pid, parts] : byProcess)
        files.push_back(merged(std::move(parts)));

    const ClockStats clock = onGpuClock(files);

    auto built = buildToolJob(files, options,
                              {"NCCL job (NCCL profiler plugin traces)", "NCCL's example profiler plugin traced it",
                               "NCCL profiler plugin traces"});
    if (!built)
        return built.error();
    ImportedJob job = std::move(*built);
    char spread[32];
    std::snprintf(spread, sizeof spread, "%.1f", clock.spreadUs);
    job.run.clockNote = clock.measured ? Message("import.ncclprof.clock").with("spread", std::string(spread))
                                       : Message("import.ncclprof.clock_unmeasured");
    job.run.clockNote.arg("timer", "%globaltimer");
    if (clock.spreadUs > kSharedClockSpreadUs)
        job.run.notes.push_back(Message("import.ncclprof.note.clocks").with("spread", std::string(spread)));
    job.run.notes.push_back(Message("import.ncclprof.note.sizes"));
    if (clock.unstopped > 0)
        job.run.notes.push_back(Message("import.ncclprof.note.unstopped").with("count", clock.unstopped));
    if (counts.untimed > 0)
        job.run.notes.push_back(Message("import.ncclprof.note.untimed").with("count", counts.untimed));
    if (counts.cutFiles > 0)
        job.run.notes.push_back(Message("import.ncclprof.note.cut").with("count", counts.cutFiles));
    if (counts.orphanGpu > 0)
        job.run.notes.push_back(Message("import.ncclprof.note.orphan").with("count", counts.orphanGpu));
    return job;
}

} // namespace shardlab
