// PyTorch profiler traces of every rank -> the job's run (docs/importing.md, "Kineto traces"):
//  * each NCCL kernel is one rank's part of a collective: its start is the rank's arrival, its end
//    the rank's end (Kineto has already put GPU times on the host clock); the builder
//    (profile_build.h) matches them across ranks and derives compute, wait and communication as
//    for `shardlab profile`: wait = last member's arrival - own arrival;
//  * a collective is matched by process group, NCCL function and "Seq" where the trace has it,
//    else by its order among that group's calls of that function on each rank;
//  * ranks start and stop their profilers at different moments: a kernel on one rank that ended
//    before another member of its group had started its first (or began after another's last
//    ended) cannot be that member's, so it is left out at the ends of each rank's list
//    (everyone's end >= everyone's arrival in a collective), with a note; these are never
//    counted as waits;
//  * clocks: every rank's times are on its trace's clock (baseTimeNanoseconds + ts, or epoch
//    µs in older traces). Ranks leave a collective together, so the spread of the members' ends
//    measures how well the clocks agree; where its median exceeds 1 ms (hosts whose clocks
//    differ), each rank is shifted by the median difference of its ends from rank 0's, and the
//    spread left (the residual) is stated; the shift is kept only where it halves the spread.
#include "import_readers.h"

#include "shardlab/import/kineto_trace.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_reader.h"
#include "shardlab/text/message.h"

#include <algorithm>
#include <cmath>
#include <atomic>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace shardlab {

namespace {

constexpr double kSharedClockSpreadUs = 1000; // above this median spread of ends, clocks are aligned

std::uint64_t groupHash(const std::string& name, const std::vector<int>& ranks)
{
    std::uint64_t h = 1469598103934665603ull; // FNV-1a
    const auto mix = [&](unsigned char c) {
        h ^= c;
        h *= 1099511628211ull;
    };
    for (char c : name)
        mix(static_cast<unsigned char>(c));
    mix(0);
    for (int r : ranks)
        for (int b = 0; b < 4; ++b)
            mix(static_cast<unsigned char>(r >> (8 * b)));
    return h;
}

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// One kernel kept for the run: its trace, group and times on the common clock (ns from `origin`).
struct Call {
    const KinetoCollective* c = nullptr;
    double startNs = 0, endNs = 0;
};

// Every trace read, two at a time (2 cores: reading is parsing-bound), progress over all bytes.
Result<std::vector<KinetoTrace>> readAll(const ImportPaths& paths, const ImportOptions& options)
{
    std::vector<std::uint64_t> sizes(paths.size(), 0), done(paths.size(), 0);
    std::uint64_t total = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
        std::error_code ec;
        sizes[i] = std::filesystem::file_size(paths[i], ec);
        total += sizes[i];
    }
    std::mutex lock;
    std::atomic<bool> cancelled{false};
    std::vector<std::optional<Result<KinetoTrace>>> results(paths.size());
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t i; (i = next++) < paths.size();) {
            results[i] = readKinetoTrace(paths[i], [&, i](std::uint64_t d, std::uint64_t) {
                std::lock_guard<std::mutex> g(lock);
                done[i] = d;
                if (cancelled)
                    return false;
                if (options.progress) {
                    std::uint64_t sum = 0;
                    for (std::uint64_t x : done)
                        sum += x;
                    if (!options.progress(sum, total))
                        cancelled = true;
                }
                return !cancelled.load();
            });
        }
    };
    const unsigned threads = std::min<unsigned>(2, static_cast<unsigned>(paths.size()));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
    std::vector<KinetoTrace> out;
    for (auto& r : results) {
        if (!*r)
            return r->error();
        out.push_back(std::move(**r));
    }
    return out;
}

} // namespace

Result<ImportedJob> importKineto(const ImportPaths& paths, const ImportOptions& options)
{
    auto read = readAll(paths, options);
    if (!read)
        return read.error();
    return kinetoJob(std::move(*read), options);
}

Result<ImportedJob> kinetoJob(std::vector<KinetoTrace> traces, const ImportOptions& options)
{
    if (traces.empty())
        return badInput(Message("import.error.no_trace"));

    // A trace without distributedInfo (exported after the process group was destroyed): its rank
    // from its collectives' record_param_comms, the world from the largest group any trace saw.
    int inferred = 0, largest = 0, highest = -1;
    for (const KinetoTrace& t : traces) {
        largest = std::max(largest, t.largestGroup);
        highest = std::max(highest, t.rank >= 0 ? t.rank : t.inferredRank);
    }
    int contradicted = 0;
    for (KinetoTrace& t : traces) {
        if (t.rank < 0 && t.worldSize < 1 && t.inferredRank >= 0) {
            t.rank = t.inferredRank;
            t.worldSize = std::max(largest, highest + 1);
            ++inferred;
        } else if (t.rank >= 0 && t.inferredRank >= 0 && t.rank != t.inferredRank) {
            // distributedInfo is written when the trace is exported; a trace exported after the
            // process group was destroyed can name another rank than the one its collectives ran
            // on (seen with PyTorch 2.11): the collectives' own record wins
            t.rank = t.inferredRank;
            ++contradicted;
        }
    }
    // Which rank each trace is, and that they are one job's.
    const KinetoTrace& first = traces.front();
    for (const KinetoTrace& t : traces) {
        if (t.rank < 0 || t.worldSize < 1)
            return badInput(Message("import.error.no_rank")
                                .with("file", t.path)
                                .with("key", "distributedInfo")
                                .with("profiler", "torch.profiler")
                                .with("distributed", "torch.distributed"));
        if (t.rank >= t.worldSize)
            return badInput(Message("import.error.rank_outside")
                                .with("file", t.path)
                                .with("rank", t.rank)
                                .with("world", t.worldSize));
        if (t.worldSize != first.worldSize)
            return badInput(Message("import.error.different_jobs")
                                .with("file", t.path)
                                .with("rank", t.rank)
                                .with("world", t.worldSize)
                                .with("first", first.path)
                                .with("first_world", first.worldSize));
    }
    const int n = first.worldSize;
    std::vector<const KinetoTrace*> byRank(static_cast<size_t>(n), nullptr);
    for (const KinetoTrace& t : traces) {
        if (const KinetoTrace* other = byRank[static_cast<size_t>(t.rank)])
            return badInput(Message("import.error.two_traces")
                                .with("rank", t.rank)
                                .with("first", other->path)
                                .with("second", t.path));
        byRank[static_cast<size_t>(t.rank)] = &t;
    }
    if (n < 2)
        return badInput(Message("import.error.one_rank").with("file", first.path));
    // Runs of three or more as "first-last": a trace claiming a world of millions of ranks costs a
    // few words, not a list of millions of numbers (found by a hand-made input to fuzz_import).
    std::string missing;
    for (int r = 0; r < n;) {
        if (byRank[static_cast<size_t>(r)]) {
            ++r;
            continue;
        }
        int last = r;
        while (last + 1 < n && !byRank[static_cast<size_t>(last + 1)])
            ++last;
        missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        if (last == r + 1)
            missing += ", " + std::to_string(last);
        else if (last > r + 1)
            missing += "-" + std::to_string(last);
        r = last + 1;
    }
    if (!missing.empty())
        return badInput(Message("import.error.missing_ranks").with("ranks", n).with("missing", missing));

    // Absolute times in ns (ts is µs after baseTimeNanoseconds; without it, µs since 1970), and
    // each trace's span, to catch traces of different runs (or clocks minutes apart).
    const auto absNs = [](const KinetoTrace& t, double us) { return static_cast<double>(t.baseTimeNs) + us * 1e3; };
    double origin = std::numeric_limits<double>::infinity();
    for (const KinetoTrace* t : byRank)
        origin = std::min(origin, absNs(*t, t->firstUs));
    const KinetoTrace& r0 = *byRank[0];
    for (const KinetoTrace* t : byRank) {
        const double gapNs =
            std::max(absNs(*t, t->firstUs) - absNs(r0, r0.lastUs), absNs(r0, r0.firstUs) - absNs(*t, t->lastUs));
        if (gapNs > 0)
            return badInput(Message("import.error.no_overlap")
                                .with("file", t->path)
                                .with("rank", t->rank)
                                .with("first", r0.path)
                                .with("seconds", number("%.1f", gapNs / 1e9)));
    }

    // Each rank's kernels by (group, function), on the common clock.
    struct GroupInfo {
        std::string name, description;
        std::vector<int> ranks;
    };
    std::map<std::string, GroupInfo> groups;
    for (const KinetoTrace* t : byRank)
        for (const KinetoGroup& g : t->groups)
            if (!g.ranks.empty())
                groups.try_emplace(g.name, GroupInfo{g.name, g.description, g.ranks});
    std::map<std::string, int> unmodelled, unknownKernels;
    int withoutArguments = 0, outsideGroups = 0, unknownType = 0, noPeer = 0;
    struct PointToPoint {
        Call call;
        std::string group, func;
        int peer = -1; // in the group
    };
    std::vector<std::vector<PointToPoint>> p2pCalls(static_cast<size_t>(n));
    // (group, func) -> per rank: calls in order
    std::map<std::pair<std::string, std::string>, std::vector<std::vector<Call>>> calls;
    for (int r = 0; r < n; ++r) {
        const KinetoTrace& t = *byRank[static_cast<size_t>(r)];
        for (const KinetoCollective& c : t.collectives) {
            if (c.collective.empty() || c.inElements < 0) {
                ++withoutArguments;
                continue;
            }
            if (c.func.empty()) { // an NCCL kernel and a collective name ShardLab does not know
                ++unknownKernels[c.collective.substr(0, 40)];
                continue;
            }
            const bool p2p = c.func == "Send" || c.func == "Recv";
            if (!p2p && c.func != "AllReduce" && c.func != "Broadcast" && c.func != "Reduce" && c.func != "AllGather"
                && c.func != "ReduceScatter") {
                ++unmodelled[c.func];
                continue;
            }
            if (ncclDatatypeFromTorch(c.dtype).empty()) {
                ++unknownType;
                continue;
            }
            auto g = groups.find(c.group);
            if (g == groups.end() && !c.groupRanks.empty())
                g = groups.try_emplace(c.group, GroupInfo{c.group, "", c.groupRanks}).first;
            if (g == groups.end()
                || std::find(g->second.ranks.begin(), g->second.ranks.end(), r) == g->second.ranks.end()) {
                ++outsideGroups;
                continue;
            }
            const Call call{&c, absNs(t, c.tsUs) - origin, absNs(t, c.tsUs + c.durUs) - origin};
            if (p2p) { // paired by the matcher: the i-th send from a to b with b's i-th receive from a
                const std::vector<int>& members = g->second.ranks;
                int peer = c.peerInGroup;
                if (c.peerGlobal >= 0)
                    peer = static_cast<int>(std::find(members.begin(), members.end(), c.peerGlobal) - members.begin());
                if (peer < 0 || peer >= static_cast<int>(members.size()) || members[static_cast<size_t>(peer)] == r) {
                    ++noPeer;
                    continue;
                }
                p2pCalls[static_cast<size_t>(r)].push_back({call, c.group, c.func, peer});
                continue;
            }
            auto& perRank = calls[{c.group, c.func}];
            perRank.resize(static_cast<size_t>(n));
            perRank[static_cast<size_t>(r)].push_back(call);
        }
    }

    // Profilers started and stopped at different moments: trim each list's ends (see the top),
    // with each rank's clock shifted by `shiftNs`.
    using Calls = std::map<std::pair<std::string, std::string>, std::vector<std::vector<Call>>>;
    const Calls original = calls;
    const auto trim = [&](const std::vector<double>& shiftNs, int& trimmed) {
        Calls out = original;
        trimmed = 0;
        for (auto& entry : out) {
            // (not a structured binding: clang before 16, which the fuzzers build with, cannot capture one)
            const auto& key = entry.first;
            auto& perRank = entry.second;
            const std::vector<int>& members = groups[key.first].ranks;
            std::vector<size_t> head(static_cast<size_t>(n), 0), tail(static_cast<size_t>(n), 0);
            for (int r : members)
                tail[static_cast<size_t>(r)] = perRank[static_cast<size_t>(r)].size();
            const auto start = [&](int r, size_t i) {
                return perRank[static_cast<size_t>(r)][i].startNs + shiftNs[static_cast<size_t>(r)];
            };
            const auto end = [&](int r, size_t i) {
                return perRank[static_cast<size_t>(r)][i].endNs + shiftNs[static_cast<size_t>(r)];
            };
            for (bool changed = true; changed;) {
                changed = false;
                double latestStart = -std::numeric_limits<double>::infinity(),
                       earliestEnd = std::numeric_limits<double>::infinity();
                bool empty = false;
                for (int r : members) {
                    const size_t h = head[static_cast<size_t>(r)], t = tail[static_cast<size_t>(r)];
                    if (h >= t) {
                        empty = true;
                        break;
                    }
                    latestStart = std::max(latestStart, start(r, h));
                    earliestEnd = std::min(earliestEnd, end(r, t - 1));
                }
                if (empty) { // some member has none left: none of it can be matched
                    for (int r : members) {
                        trimmed += static_cast<int>(tail[static_cast<size_t>(r)] - head[static_cast<size_t>(r)]);
                        head[static_cast<size_t>(r)] = tail[static_cast<size_t>(r)];
                    }
                    break;
                }
                for (int r : members) {
                    size_t& h = head[static_cast<size_t>(r)];
                    size_t& t = tail[static_cast<size_t>(r)];
                    if (end(r, h) < latestStart)
                        ++h, ++trimmed, changed = true;
                    else if (start(r, t - 1) > earliestEnd)
                        --t, ++trimmed, changed = true;
                }
            }
            for (int r : members) {
                auto& list = perRank[static_cast<size_t>(r)];
                list = std::vector<Call>(list.begin() + static_cast<std::ptrdiff_t>(head[static_cast<size_t>(r)]),
                                         list.begin() + static_cast<std::ptrdiff_t>(tail[static_cast<size_t>(r)]));
            }
        }
        return out;
    };
    // How well the clocks agree: the spread of the members' ends, collective by collective.
    const auto spreads = [&](const Calls& lists, const std::vector<double>& shiftNs) {
        std::vector<double> out;
        for (const auto& [key, perRank] : lists) {
            const std::vector<int>& members = groups[key.first].ranks;
            size_t count = std::numeric_limits<size_t>::max();
            for (int r : members)
                count = std::min(count, perRank[static_cast<size_t>(r)].size());
            for (size_t i = 0; i < count && count != std::numeric_limits<size_t>::max(); ++i) {
                double lo = std::numeric_limits<double>::infinity(), hi = -lo;
                for (int r : members) {
                    const double e = perRank[static_cast<size_t>(r)][i].endNs + shiftNs[static_cast<size_t>(r)];
                    lo = std::min(lo, e);
                    hi = std::max(hi, e);
                }
                out.push_back((hi - lo) / 1e3);
            }
        }
        return out;
    };
    // Lists of equal length on every member need no trimming to be paired; others are trimmed on
    // the clocks as they are first.
    bool sameCounts = true;
    for (const auto& [key, perRank] : original)
        for (int r : groups[key.first].ranks)
            sameCounts = sameCounts
                         && perRank[static_cast<size_t>(r)].size()
                                == perRank[static_cast<size_t>(groups[key.first].ranks.front())].size();
    std::vector<double> shiftNs(static_cast<size_t>(n), 0.0);
    int trimmed = 0;
    calls = sameCounts ? original : trim(shiftNs, trimmed);
    const std::vector<double> before = spreads(calls, shiftNs);
    bool aligned = false;
    if (median(before) > kSharedClockSpreadUs) {
        // Each rank's median (rank 0's end - its end) over the collectives it shares with rank 0.
        for (int r = 1; r < n; ++r) {
            std::vector<double> diffs;
            for (const auto& [key, perRank] : calls) {
                const std::vector<int>& members = groups[key.first].ranks;
                if (std::find(members.begin(), members.end(), 0) == members.end()
                    || std::find(members.begin(), members.end(), r) == members.end())
                    continue;
                const auto& a = perRank[0];
                const auto& b = perRank[static_cast<size_t>(r)];
                for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
                    diffs.push_back(a[i].endNs - b[i].endNs);
            }
            shiftNs[static_cast<size_t>(r)] = median(diffs);
        }
        aligned = true;
    }
    Calls shifted = trim(shiftNs, trimmed);
    std::vector<double> residual = spreads(shifted, shiftNs);
    // Kept only where it halves the spread: ends apart by kernels' own skew (ranks time-slicing
    // one GPU, say), not by clocks, are no better for a shift.
    if (aligned && !(median(residual) < median(before) / 2)) {
        aligned = false;
        std::fill(shiftNs.begin(), shiftNs.end(), 0.0);
        shifted = trim(shiftNs, trimmed);
        residual = spreads(shifted, shiftNs);
    }
    calls = std::move(shifted);

    // The world: the matcher takes the largest communicator for it. Traces without distributedInfo
    // (or a job whose collectives all ran on sub-groups) may name no group of every rank: one is
    // added, with no collective of its own.
    bool haveWorld = false;
    for (const auto& [name, g] : groups)
        haveWorld = haveWorld || static_cast<int>(g.ranks.size()) == n;
    if (!haveWorld) {
        GroupInfo world{"world", "world", {}};
        for (int r = 0; r < n; ++r)
            world.ranks.push_back(r);
        groups.try_emplace(" world", std::move(world)); // a name no PyTorch group has
    }

    // The record files the builder reads: one per rank, one communicator per group it is in.
    std::vector<ProfileFile> files(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        ProfileFile& f = files[static_cast<size_t>(r)];
        f.path = byRank[static_cast<size_t>(r)]->path;
        f.host = fileName(f.path);
        f.pid = r;
        std::int64_t context = 0;
        std::map<std::string, std::int64_t> contextOf;
        for (const auto& [name, g] : groups) {
            const auto me = std::find(g.ranks.begin(), g.ranks.end(), r);
            if (me == g.ranks.end())
                continue;
            contextOf[name] = context;
            f.comms.push_back({.context = context++,
                               .hash = groupHash(name, g.ranks),
                               .rank = static_cast<int>(me - g.ranks.begin()),
                               .ranks = static_cast<int>(g.ranks.size()),
                               .nodes = 0,
                               .name = g.description.empty() ? name : g.description,
                               .initNs = 0});
        }
        std::uint64_t id = 0;
        for (const auto& [key, perRank] : calls) {
            if (!contextOf.count(key.first))
                continue;
            const auto& list = perRank[static_cast<size_t>(r)];
            for (size_t i = 0; i < list.size(); ++i) {
                const KinetoCollective& c = *list[i].c;
                ProfiledOp op;
                op.id = ++id;
                op.context = contextOf[key.first];
                op.sequence = c.sequence ? static_cast<std::uint64_t>(*c.sequence) : i;
                op.func = key.second;
                // NCCL's count: all-gather per rank sent, reduce-scatter per rank received
                op.count = static_cast<std::uint64_t>(
                    key.second == "ReduceScatter" && c.outElements >= 0 ? c.outElements : c.inElements);
                op.datatype = ncclDatatypeFromTorch(c.dtype);
                op.root = key.second == "Reduce" || key.second == "Broadcast" ? 0 : -1;
                op.hostNs = list[i].startNs + shiftNs[static_cast<size_t>(r)];
                op.stopNs = list[i].endNs + shiftNs[static_cast<size_t>(r)];
                op.line = c.line;
                f.ops.push_back(std::move(op));
            }
        }
        for (const PointToPoint& p : p2pCalls[static_cast<size_t>(r)]) {
            if (!contextOf.count(p.group))
                continue;
            const KinetoCollective& c = *p.call.c;
            ProfiledOp op;
            op.id = ++id;
            op.context = contextOf[p.group];
            op.p2p = true;
            op.func = p.func;
            op.count =
                static_cast<std::uint64_t>(p.func == "Recv" && c.outElements >= 0 ? c.outElements : c.inElements);
            op.datatype = ncclDatatypeFromTorch(c.dtype);
            op.root = p.peer;
            op.hostNs = p.call.startNs + shiftNs[static_cast<size_t>(r)];
            op.stopNs = p.call.endNs + shiftNs[static_cast<size_t>(r)];
            op.line = c.line;
            f.ops.push_back(std::move(op));
        }
        std::stable_sort(f.ops.begin(), f.ops.end(),
                         [](const ProfiledOp& a, const ProfiledOp& b) { return a.hostNs < b.hostNs; });
    }
    auto built = buildImportedJob(files, options, "PyTorch job (" + std::to_string(n) + " ranks)");
    if (!built)
        return built.error();
    ImportedJob job = std::move(*built);
    job.scenario.description = "The job as its PyTorch profiler traces recorded it (" + std::to_string(n) + " ranks).";
    for (int r = 0; r < n && r < static_cast<int>(job.run.devices.size()); ++r) { // the file's name without .json.gz
        std::string name = fileName(byRank[static_cast<size_t>(r)]->path);
        for (const char* ext : {".gz", ".json"})
            if (name.size() > std::string(ext).size() && name.ends_with(ext))
                name.resize(name.size() - std::string(ext).size());
        job.run.devices[static_cast<size_t>(r)] = name;
    }
    job.launch = std::to_string(n) + " ranks, PyTorch profiler traces";
    // The clock sentence and the notes: what was read, what was left out and why.
    Message clock = aligned ? Message("import.kineto.clock_aligned")
                                  .with("before", number("%.0f", median(before)))
                                  .with("residual", number("%.1f", median(residual)))
                            : Message("import.kineto.clock").with("spread", number("%.1f", median(residual)));
    job.run.clockNote = std::move(clock);
    if (trimmed > 0)
        job.run.notes.push_back(Message("import.kineto.note.trimmed").with("count", trimmed));
    if (withoutArguments > 0)
        job.run.notes.push_back(Message("import.kineto.note.no_arguments").with("count", withoutArguments));
    if (inferred > 0)
        job.run.notes.push_back(Message("import.kineto.note.inferred_rank").with("count", inferred));
    if (contradicted > 0)
        job.run.notes.push_back(Message("import.kineto.note.contradicted_rank").with("count", contradicted));
    if (noPeer > 0)
        job.run.notes.push_back(Message("import.kineto.note.no_peer").with("count", noPeer));
    if (outsideGroups > 0)
        job.run.notes.push_back(Message("import.kineto.note.no_group").with("count", outsideGroups));
    if (unknownType > 0)
        job.run.notes.push_back(Message("import.kineto.note.unknown_type").with("count", unknownType));
    for (const auto& [name, count] : unknownKernels)
        job.run.notes.push_back(Message("import.kineto.note.unknown_kernel").with("count", count).with("name", name));
    for (const auto& [func, count] : unmodelled)
        job.run.notes.push_back(Message("profile.note.unmodelled").with("count", count).with("function", func));
    return job;
}

} // namespace shardlab
