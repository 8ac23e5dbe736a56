#include "shardlab/profile/profile_build.h"

#include "shardlab/cluster/trace_merge.h"
#include "shardlab/profile/profile_clock.h"
#include "shardlab/profile/profile_scenario.h"
#include "shardlab/profile/profile_steps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

namespace shardlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string hashText(std::uint64_t hash)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
    return buf;
}

// One rank of a communicator: where its records are.
struct Member {
    size_t file = 0;
    std::int64_t context = 0;
    std::uint64_t hash = 0;
    int rank = -1;
    int ranks = 0; // 0: unknown (v3)
};

Algorithm algorithmOf(const std::string& s)
{
    if (s == "TREE")
        return Algorithm::Tree;
    if (s == "NVLS")
        return Algorithm::Nvls;
    if (s == "NVLS_TREE")
        return Algorithm::NvlsTree;
    return Algorithm::Ring; // RING, and those ShardLab does not model (COLLNET_*, PAT)
}

Protocol protocolOf(const std::string& s)
{
    if (s == "LL")
        return Protocol::LL;
    if (s == "LL128")
        return Protocol::LL128;
    return Protocol::Simple;
}

// Every communicator rank the files record: from init (v4, v5) or from the events (v3).
std::vector<Member> membersOf(const std::vector<ProfileFile>& files)
{
    std::vector<Member> members;
    for (size_t f = 0; f < files.size(); ++f) {
        for (const ProfiledComm& c : files[f].comms)
            members.push_back({f, c.context, c.hash, c.rank, c.ranks});
        std::set<std::int64_t> seen;
        for (const ProfiledOp& op : files[f].ops)
            if (op.hash && op.rank && seen.insert(op.context).second)
                members.push_back({f, op.context, *op.hash, *op.rank, 0});
    }
    return members;
}

bool belongsTo(const ProfiledOp& op, const Member& m)
{
    return op.context == m.context && (!op.hash || *op.hash == m.hash);
}

struct Timed {
    const ProfiledOp* op = nullptr;
    OpKind kind = OpKind::AllReduce;
    double arrivalNs = 0;
    double endNs = 0;
    bool complete = true; // its kernel's end was recorded
};

// nccl-tests' size: the full buffer (NCCL's count is per rank for all-gather's input and
// reduce-scatter's output).
Bytes ncclTestsBytes(const Timed& t, int ranks)
{
    const bool perRank = t.kind == OpKind::AllGather || t.kind == OpKind::ReduceScatter;
    return static_cast<Bytes>(t.op->count) * static_cast<Bytes>(*ncclDatatypeBytes(t.op->datatype))
           * static_cast<Bytes>(perRank ? ranks : 1);
}

// The root a reduce or broadcast names (in range), -1 for the others.
int rootOf(const Timed& t, int ranks)
{
    const int root = t.op->root;
    return (t.kind == OpKind::Reduce || t.kind == OpKind::Broadcast) && root >= 0 && root < ranks ? root : -1;
}

// Steps (profile_steps.h) in a run built in canonical order (collective k at index k, op 2k+1,
// one iteration): collective k becomes op 2(k mod P)+1 of step k / P, its work op 2(k mod P) of the
// same step; the spans keep their order (by global step, so by iteration, then op, rank, begin).
// Iteration j ends at the latest end of any of its spans (its last collective's end over ranks)
// and begins where j-1 ended (step 0: where the run begins), so the steps add up to the run.
void splitIntoSteps(RunResult& run, const StepPattern& steps)
{
    const int period = static_cast<int>(steps.period);
    const size_t count = steps.steps + (steps.tail > 0 ? 1 : 0);
    for (CollectiveRecord& c : run.collectives) {
        const int k = c.op / 2;
        c.op = 2 * (k % period) + 1;
        c.iteration = k / period;
    }
    std::vector<double> end(count, -std::numeric_limits<double>::infinity());
    for (Span& s : run.spans) {
        const int k = s.op / 2;
        s.op = 2 * (k % period) + s.op % 2;
        s.iteration = k / period;
        if (static_cast<size_t>(s.iteration) < count)
            end[static_cast<size_t>(s.iteration)] = std::max(end[static_cast<size_t>(s.iteration)], s.endUs);
    }
    const double begin = run.iterations.empty() ? 0 : run.iterations.front().beginUs;
    run.iterations.clear();
    for (size_t j = 0; j < count; ++j) {
        const double from = j == 0 ? begin : run.iterations.back().endUs;
        run.iterations.push_back({from, std::isfinite(end[j]) ? std::max(end[j], from) : from});
    }
}

// The set-up (a step pattern's prefix: the first `calls` collectives, a broadcast of the weights,
// say) in a run in canonical order: its collectives are not drawn, and each rank's time until its
// arrival at the first step's first collective is that collective's work (one compute span, op
// 2 * calls), as point-to-point calls' time is. Collective indices and ops move down by the
// set-up's, so that the run is in canonical order again, the first step's first collective at 0.
void dropSetUp(RunResult& run, size_t calls)
{
    const int setUpOps = 2 * static_cast<int>(calls);
    std::vector<Span> spans;
    std::vector<std::pair<double, double>> setUp(static_cast<size_t>(run.ranks),
                                                 {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()});
    for (Span& s : run.spans) {
        if (s.op > setUpOps || s.rank < 0 || s.rank >= run.ranks) {
            spans.push_back(s);
            continue;
        }
        auto& [from, to] = setUp[static_cast<size_t>(s.rank)];
        from = std::min(from, s.beginUs);
        to = std::max(to, s.endUs);
    }
    for (int r = 0; r < run.ranks; ++r)
        if (const auto& [from, to] = setUp[static_cast<size_t>(r)]; from < to)
            spans.push_back({r, 0, SpanKind::Compute, from, to, setUpOps, 0, 0, -1, -1});
    // The set-up's collectives are the first ones (canonical order); any of them may be missing
    // (completed by no rank).
    std::vector<int> newIndex(run.collectives.size(), -1);
    std::vector<CollectiveRecord> kept;
    for (size_t i = 0; i < run.collectives.size(); ++i) {
        if (run.collectives[i].op < setUpOps)
            continue;
        newIndex[i] = static_cast<int>(kept.size());
        kept.push_back(std::move(run.collectives[i]));
        kept.back().op -= setUpOps;
    }
    for (Span& s : spans) {
        s.op -= setUpOps;
        if (s.collective >= 0)
            s.collective = newIndex[static_cast<size_t>(s.collective)];
    }
    std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
        return std::tie(a.op, a.rank, a.beginUs, a.stream) < std::tie(b.op, b.rank, b.beginUs, b.stream);
    });
    run.spans = std::move(spans);
    run.collectives = std::move(kept);
}

} // namespace

std::optional<OpKind> opFromNcclFunc(const std::string& func)
{
    if (func == "AllReduce")
        return OpKind::AllReduce;
    if (func == "Reduce")
        return OpKind::Reduce;
    if (func == "Broadcast")
        return OpKind::Broadcast;
    if (func == "AllGather")
        return OpKind::AllGather;
    if (func == "ReduceScatter")
        return OpKind::ReduceScatter;
    return std::nullopt;
}

Result<ProfiledRun> buildProfiledRun(const std::vector<ProfileFile>& files, const ProfileBuildOptions& options)
{
    if (files.empty())
        return badInput("no record file to build a run from");
    const std::vector<Member> members = membersOf(files);
    // The world: the communicator with the most ranks (sizes unknown under v3: members seen).
    std::map<std::uint64_t, std::set<int>> seenRanks;
    std::map<std::uint64_t, int> declared;
    for (const Member& m : members) {
        seenRanks[m.hash].insert(m.rank);
        declared[m.hash] = std::max(declared[m.hash], m.ranks);
    }
    std::uint64_t world = 0;
    int n = 0;
    for (const Member& m : members) { // in the order of the files and their inits: ties go to the first
        const int size = std::max(declared[m.hash], static_cast<int>(seenRanks[m.hash].size()));
        if (size > n) {
            n = size;
            world = m.hash;
        }
    }
    if (n < 2)
        return badInput(files.front().path + (files.size() > 1 ? " and the other record files" : "")
                        + ": every communicator recorded has one rank; ShardLab draws collectives across ranks "
                          "(and NCCL reports no events on a one-rank communicator): profile a job of 2 or more GPUs");
    std::vector<const Member*> rankOf(static_cast<size_t>(n), nullptr);
    for (const Member& m : members) {
        if (m.hash != world)
            continue;
        if (m.rank < 0 || m.rank >= n)
            return badInput(files[m.file].path + ": rank " + std::to_string(m.rank) + " of communicator " + hashText(world)
                            + ", which has " + std::to_string(n) + " ranks");
        if (const Member* other = rankOf[static_cast<size_t>(m.rank)])
            return badInput("rank " + std::to_string(m.rank) + " of communicator " + hashText(world) + " is recorded twice: in "
                            + files[other->file].path + " and in " + files[m.file].path
                            + " (record files of two different runs in one folder? use a fresh --out folder)");
        rankOf[static_cast<size_t>(m.rank)] = &m;
    }
    for (int r = 0; r < n; ++r)
        if (!rankOf[static_cast<size_t>(r)])
            return badInput("rank " + std::to_string(r) + " of the " + std::to_string(n) + "-rank communicator " + hashText(world)
                            + " left no record: was its process profiled? (under mpirun, put `shardlab profile` around "
                              "mpirun or before the program on every rank, with one --out folder)");

    std::vector<std::string> notes;
    int p2p = 0, otherComm = 0;
    std::map<std::string, int> unmodelled;
    // Each rank's collectives in the world communicator, timed on its process's host clock.
    std::vector<std::vector<Timed>> timed(static_cast<size_t>(n));
    std::vector<ClockMap> gpuClock(static_cast<size_t>(n));
    std::set<std::uint64_t> sequences;
    bool hostOnly = false;
    double worstClockNs = 0;
    int brackets = 0;
    for (int r = 0; r < n; ++r) {
        const Member& m = *rankOf[static_cast<size_t>(r)];
        const ProfileFile& file = files[m.file];
        std::vector<const ProfiledOp*> mine;
        for (const ProfiledOp& op : file.ops) {
            if (!belongsTo(op, m))
                continue;
            if (op.p2p) {
                ++p2p;
                continue;
            }
            if (!opFromNcclFunc(op.func)) {
                ++unmodelled[op.func];
                continue;
            }
            const OpKind kind = *opFromNcclFunc(op.func); // its size, overflow-checked (profile_reader.h)
            if (auto bytes = collectiveBytes(op, file.path, kind == OpKind::AllGather || kind == OpKind::ReduceScatter, n); !bytes)
                return bytes.error();
            mine.push_back(&op);
        }
        const std::uint64_t gpuBase = earliestGpuReading(mine);
        const std::vector<ClockSample> samples = kernelBrackets(mine, gpuBase);
        brackets += static_cast<int>(samples.size());
        gpuClock[static_cast<size_t>(r)] = gpuClockFromBrackets(samples);
        const ClockMap& clock = gpuClock[static_cast<size_t>(r)];
        if (clock.valid())
            worstClockNs = std::max(worstClockNs, clock.errorNs());
        for (const ProfiledOp* op : mine) {
            Timed t;
            t.op = op;
            t.kind = *opFromNcclFunc(op->func);
            if (clock.valid() && !op->kernel.empty()) {
                double start = std::numeric_limits<double>::infinity(), end = -std::numeric_limits<double>::infinity();
                for (const KernelChannel& ch : op->kernel) {
                    start = std::min(start, sinceBase(ch.gpuStartNs, gpuBase));
                    if (ch.gpuEndNs)
                        end = std::max(end, sinceBase(*ch.gpuEndNs, gpuBase));
                    else
                        t.complete = false;
                }
                t.arrivalNs = clock.toHostNs(start);
                t.endNs = std::isfinite(end) ? std::max(clock.toHostNs(end), t.arrivalNs) : t.arrivalNs;
            } else {
                hostOnly = true;
                t.complete = !options.recordsStillArriving || op->stopNs.has_value();
                t.arrivalNs = op->hostNs;
                t.endNs = std::max(op->stopNs.value_or(op->hostNs), op->hostNs);
            }
            sequences.insert(op->sequence);
            timed[static_cast<size_t>(r)].push_back(t);
        }
    }
    for (const Member& m : members)
        if (m.hash != world)
            for (const ProfiledOp& op : files[m.file].ops)
                otherComm += belongsTo(op, m) ? 1 : 0;

    // Collective k = the k-th sequence number any rank recorded.
    std::map<std::uint64_t, int> indexOf;
    for (std::uint64_t s : sequences)
        indexOf.emplace(s, static_cast<int>(indexOf.size()));
    if (indexOf.empty())
        return badInput(files.front().path + (files.size() > 1 ? " and the other record files" : "")
                        + ": no collective of communicator " + hashText(world)
                          + " was recorded (the program made none, or only ones ShardLab does not model)");
    const int lastIndex = static_cast<int>(indexOf.size()) - 1;

    std::vector<int> group(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r)
        group[static_cast<size_t>(r)] = r;
    const ProfileFile& reference = files[rankOf[0]->file];
    std::vector<RankPart> parts;
    bool incomplete = false;
    for (int r = 0; r < n; ++r) {
        const Member& m = *rankOf[static_cast<size_t>(r)];
        const ProfileFile& file = files[m.file];
        std::vector<Timed>& list = timed[static_cast<size_t>(r)];
        std::sort(list.begin(), list.end(), [](const Timed& a, const Timed& b) { return a.op->sequence < b.op->sequence; });
        RankPart part;
        part.ranks = {r};
        part.clock = hostClockFit(file, reference);
        RunResult& run = part.run;
        run.mode = RunMode::Live;
        run.ranks = n;
        run.devices.assign(static_cast<size_t>(n), "");
        run.devices[static_cast<size_t>(r)] = file.host + " pid " + std::to_string(file.pid);
        run.peakMemory.assign(static_cast<size_t>(n), 0);
        double cursor = kNaN, first = kNaN, last = kNaN;
        int lastDone = -1;
        for (const Timed& t : list) {
            if (!t.complete) // a kernel whose end was never recorded: the process stopped inside it
                break;
            const int k = indexOf.at(t.op->sequence);
            const double a = t.arrivalNs / 1e3, e = t.endNs / 1e3;
            if (std::isnan(cursor))
                first = cursor = a;
            if (a > cursor)
                run.spans.push_back({r, 0, SpanKind::Compute, cursor, a, 2 * k, 0, 0, -1, -1});
            const int index = static_cast<int>(run.collectives.size());
            CollectiveRecord c;
            c.op = 2 * k + 1;
            c.sequence = static_cast<int>(t.op->sequence);
            c.kind = t.kind;
            c.bytes = ncclTestsBytes(t, n);
            c.group = group;
            c.arrivalUs.assign(static_cast<size_t>(n), kNaN);
            c.arrivalUs[static_cast<size_t>(r)] = a;
            c.startUs = a;
            c.endUs = e;
            c.algorithm = algorithmOf(t.op->algorithm);
            c.protocol = protocolOf(t.op->protocol);
            run.collectives.push_back(std::move(c));
            run.spans.push_back({r, 0, SpanKind::Comm, a, e, 2 * k + 1, 0, 0, index, -1});
            cursor = std::max(cursor, e);
            last = cursor;
            lastDone = k;
        }
        if (!std::isnan(first))
            run.iterations.push_back({first, last});
        if (lastDone < lastIndex) {
            incomplete = true;
            HangReport h;
            h.lastCompleted.assign(static_cast<size_t>(n), -1);
            h.pending.assign(static_cast<size_t>(n), "");
            h.lastCompleted[static_cast<size_t>(r)] = lastDone;
            h.pending[static_cast<size_t>(r)] = "its record ends here (the process ended, crashed or was killed)";
            run.hang = std::move(h);
        }
        parts.push_back(std::move(part));
    }

    // Within the clocks' error, who came last is not known.
    MergeOptions merge;
    merge.tieUs = worstClockNs / 1e3;
    auto merged = mergeRankParts(std::move(parts), merge);
    if (!merged)
        return merged.error();
    RunResult run = std::move(*merged);
    // Every rank's work from the first arrival of anyone: a rank that arrived late at the first
    // collective was working (or starting up) until then.
    double t0 = std::numeric_limits<double>::infinity();
    std::vector<double> firstBegin(static_cast<size_t>(n), std::numeric_limits<double>::infinity());
    std::vector<int> firstOp(static_cast<size_t>(n), 0);
    for (const Span& s : run.spans) {
        t0 = std::min(t0, s.beginUs);
        if (s.beginUs < firstBegin[static_cast<size_t>(s.rank)]) {
            firstBegin[static_cast<size_t>(s.rank)] = s.beginUs;
            firstOp[static_cast<size_t>(s.rank)] = s.op - (s.op % 2);
        }
    }
    for (int r = 0; r < n; ++r)
        if (std::isfinite(firstBegin[static_cast<size_t>(r)]) && firstBegin[static_cast<size_t>(r)] > t0)
            run.spans.push_back({r, 0, SpanKind::Compute, t0, firstBegin[static_cast<size_t>(r)], firstOp[static_cast<size_t>(r)], 0, 0,
                                 -1, -1});
    // Canonical order: collective k at index k (the merge orders them by start), spans by step.
    std::vector<size_t> byOp(run.collectives.size());
    for (size_t i = 0; i < byOp.size(); ++i)
        byOp[i] = i;
    std::stable_sort(byOp.begin(), byOp.end(), [&](size_t a, size_t b) { return run.collectives[a].op < run.collectives[b].op; });
    std::vector<int> newIndex(byOp.size());
    std::vector<CollectiveRecord> ordered;
    ordered.reserve(byOp.size());
    for (size_t i = 0; i < byOp.size(); ++i) {
        newIndex[byOp[i]] = static_cast<int>(i);
        ordered.push_back(std::move(run.collectives[byOp[i]]));
    }
    run.collectives = std::move(ordered);
    for (Span& s : run.spans)
        if (s.collective >= 0)
            s.collective = newIndex[static_cast<size_t>(s.collective)];
    std::stable_sort(run.spans.begin(), run.spans.end(), [](const Span& a, const Span& b) {
        return std::tie(a.op, a.rank, a.beginUs, a.stream) < std::tie(b.op, b.rank, b.beginUs, b.stream);
    });
    if (!run.iterations.empty() && std::isfinite(t0))
        run.iterations.front().beginUs = std::min(run.iterations.front().beginUs, t0);

    // How the clocks were put together.
    std::set<std::string> hosts;
    std::set<size_t> processFiles;
    for (int r = 0; r < n; ++r) {
        hosts.insert(files[rankOf[static_cast<size_t>(r)]->file].host);
        processFiles.insert(rankOf[static_cast<size_t>(r)]->file);
    }
    char clock[512];
    if (hostOnly)
        std::snprintf(clock, sizeof clock,
                      "profiled with ShardLab's NCCL profiler; no GPU timer for some collectives (profiler interface v3, "
                      "or kernel events missing): those are timed by the host's calls into NCCL");
    else
        std::snprintf(clock, sizeof clock,
                      "profiled with ShardLab's NCCL profiler; GPU timers aligned to each process's host clock by %d "
                      "kernel-start brackets, residual error <= %.2f us; %s",
                      brackets, worstClockNs / 1e3,
                      hosts.size() > 1 ? "hosts aligned by their system clocks (NTP/PTP; error not measured)"
                                       : "all processes on one host's monotonic clock");
    run.clockNote = clock;
    if (p2p > 0)
        notes.push_back(std::to_string(p2p) + " point-to-point calls (send/recv) recorded but not drawn: their time counts as compute");
    if (otherComm > 0)
        notes.push_back(std::to_string(otherComm) + " calls on communicators other than the " + std::to_string(n)
                        + "-rank one recorded but not drawn");
    for (const auto& [func, count] : unmodelled)
        notes.push_back(std::to_string(count) + " " + func + " calls recorded but not drawn (ShardLab does not model " + func + ")");
    std::uint64_t dropped = 0;
    for (const ProfileFile& f : files)
        dropped += f.dropped;
    if (dropped > 0)
        notes.push_back(std::to_string(dropped) + " events were lost by the profiler (it said why on the program's standard error)");
    if (incomplete)
        notes.push_back("some ranks' records end early: the collectives they did not finish are left out");
    if (!options.programEnd.empty())
        notes.push_back(options.programEnd + ": the run holds what the profiler recorded until then");
    run.notes = std::move(notes);

    ProfiledRun out;
    out.launch = processFiles.size() == 1 ? "1 process driving " + std::to_string(n) + " GPUs"
                                          : std::to_string(processFiles.size()) + " processes on " + std::to_string(hosts.size())
                                                + (hosts.size() == 1 ? " host" : " hosts");
    // The observed program.
    Scenario observed;
    observed.name = options.name;
    observed.description = "The program as ShardLab's NCCL profiler observed it (" + out.launch + ").";
    observed.strategy = kObservedStrategy; // no one-GPU time and no memory to state (summary.h)
    observed.topology = options.machine ? *options.machine : defaultProfileMachine(n);
    if (observed.topology.rankCount() != n)
        return badInput("the machine given has " + std::to_string(observed.topology.rankCount()) + " GPUs, but the profiled job has "
                        + std::to_string(n) + " ranks");
    // Sequences some rank recorded but none completed everywhere keep their place in the program.
    std::map<int, const Timed*> anyTimed;
    for (const auto& list : timed)
        for (const Timed& t : list)
            anyTimed.emplace(indexOf.at(t.op->sequence), &t);
    // The program's steps: found in the finished run only (a run built while records still arrive
    // keeps collective k at op 2k+1, profile_live.h; the result then replaces its timeline).
    std::vector<CollectiveKey> calls;
    for (size_t k = 0; k < indexOf.size(); ++k) {
        const Timed& t = *anyTimed.at(static_cast<int>(k));
        calls.push_back({t.kind, ncclTestsBytes(t, n), rootOf(t, n), world});
    }
    size_t firstCall = 0, programCalls = calls.size();
    if (!options.recordsStillArriving) {
        // Records that end early: some rank's stop before the others' (the run's hang report, which
        // leaves the unfinished last step out of the step time, summary.h).
        if (const std::optional<StepPattern> steps = findSteps(calls, incomplete)) {
            if (steps->prefix > 0) {
                dropSetUp(run, steps->prefix);
                run.notes.push_back(std::to_string(steps->prefix)
                                    + " set-up collectives before the first step recorded but not drawn: their time counts "
                                      "as the first step's work");
            }
            splitIntoSteps(run, *steps);
            firstCall = steps->prefix;
            programCalls = steps->period;
            observed.iterations = static_cast<int>(std::clamp<size_t>(steps->steps, 1, 100000)); // validateScenario's limit
        }
    }
    for (size_t k = 0; k < programCalls; ++k) {
        const Timed& t = *anyTimed.at(static_cast<int>(firstCall + k));
        Op work;
        work.kind = OpKind::Compute;
        work.name = "work before #" + std::to_string(k);
        Op coll;
        coll.kind = t.kind;
        coll.bytes = ncclTestsBytes(t, n);
        if (const int root = rootOf(t, n); root >= 0)
            coll.root = root;
        coll.name = std::string(opName(coll.kind)) + " #" + std::to_string(k);
        observed.program.push_back(work);
        observed.program.push_back(coll);
    }
    auto scenario = resimulationScenario(observed, run, observed.topology);
    if (!scenario)
        return scenario.error();
    out.scenario = std::move(*scenario);
    out.run = std::move(run);
    return out;
}

} // namespace shardlab
