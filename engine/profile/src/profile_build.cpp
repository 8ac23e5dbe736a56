#include "shardlab/profile/profile_build.h"

#include "profile_pieces.h"

#include "shardlab/cluster/trace_merge.h"
#include "shardlab/profile/profile_clock.h"
#include "shardlab/profile/profile_match.h"
#include "shardlab/profile/profile_scenario.h"
#include "shardlab/profile/profile_steps.h"
#include "shardlab/text/message.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

namespace shardlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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
    std::vector<std::pair<double, double>> setUp(
        static_cast<size_t>(run.ranks),
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
            spans.push_back({.rank = r, .kind = SpanKind::Compute, .beginUs = from, .endUs = to, .op = setUpOps});
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

// The wrap-up (collectives from k = `from` on, after the last step: a final check's all-reduces)
// in a run in canonical order: not drawn, with each rank's work before them.
void dropWrapUp(RunResult& run, size_t from)
{
    const int firstOp = 2 * static_cast<int>(from);
    std::vector<int> newIndex(run.collectives.size(), -1);
    std::vector<CollectiveRecord> kept;
    for (size_t i = 0; i < run.collectives.size(); ++i) {
        if (run.collectives[i].op >= firstOp)
            continue;
        newIndex[i] = static_cast<int>(kept.size());
        kept.push_back(std::move(run.collectives[i]));
    }
    std::erase_if(run.spans, [&](const Span& s) { return s.op >= firstOp; });
    for (Span& s : run.spans)
        if (s.collective >= 0)
            s.collective = newIndex[static_cast<size_t>(s.collective)];
    run.collectives = std::move(kept);
}

// Where each matched operation goes: k, its canonical index (in order of time, or, with steps, the
// set-up's first in order of time, then step by step, slot by slot), and its sequence per group.
struct CanonicalOrder {
    std::vector<size_t> byK;     // the operation at index k
    std::vector<int> kOf;        // k of each operation
    std::vector<int> sequenceOf; // per group, from 0, in that order (as a flight recorder counts)
};

CanonicalOrder canonicalOrder(const MatchedProfile& mp, const std::optional<JobSteps>& steps)
{
    CanonicalOrder o;
    o.byK.resize(mp.ops.size());
    for (size_t i = 0; i < o.byK.size(); ++i)
        o.byK[i] = i;
    if (steps)
        std::stable_sort(o.byK.begin(), o.byK.end(), [&](size_t a, size_t b) {
            return std::make_pair(steps->iteration[a], steps->slot[a])
                   < std::make_pair(steps->iteration[b], steps->slot[b]);
        });
    o.kOf.resize(mp.ops.size());
    for (size_t k = 0; k < o.byK.size(); ++k)
        o.kOf[o.byK[k]] = static_cast<int>(k);
    o.sequenceOf.resize(mp.ops.size());
    std::map<std::vector<int>, int> perGroup;
    for (size_t k = 0; k < o.byK.size(); ++k)
        o.sequenceOf[o.byK[k]] = perGroup[mp.ops[o.byK[k]].group]++;
    return o;
}

// Rank r's part of the run on its own clock: its work (compute until each arrival), its
// collectives, its one iteration, and, where its record ends before the others', a hang report.
RankPart rankPart(const MatchedProfile& mp, const std::vector<ProfileFile>& files, const CanonicalOrder& order, int r)
{
    const int n = mp.ranks;
    const std::vector<int>& kOf = order.kOf;
    const std::vector<int>& sequenceOf = order.sequenceOf;
    const ProfileFile& file = files[mp.fileOfRank[static_cast<size_t>(r)]];
    RankPart part;
    part.ranks = {r};
    part.clock = mp.hostClock[static_cast<size_t>(r)];
    RunResult& run = part.run;
    run.mode = RunMode::Live;
    run.ranks = n;
    run.devices.assign(static_cast<size_t>(n), "");
    run.devices[static_cast<size_t>(r)] = file.host + " pid " + std::to_string(file.pid);
    run.peakMemory.assign(static_cast<size_t>(n), 0);
    double cursor = kNaN, first = kNaN, last = kNaN;
    int lastDone = -1;
    for (const RankOp& t : mp.rankOps[static_cast<size_t>(r)]) {
        if (t.matched < 0)
            continue;
        const MatchedOp& m = mp.ops[static_cast<size_t>(t.matched)];
        const int k = kOf[static_cast<size_t>(t.matched)];
        const double a = t.arrivalNs / 1e3, e = t.endNs / 1e3;
        if (std::isnan(cursor))
            first = cursor = a;
        if (a > cursor)
            run.spans.push_back({.rank = r, .kind = SpanKind::Compute, .beginUs = cursor, .endUs = a, .op = 2 * k});
        const int index = static_cast<int>(run.collectives.size());
        CollectiveRecord c;
        c.op = 2 * k + 1;
        c.sequence = sequenceOf[static_cast<size_t>(t.matched)];
        c.kind = m.kind;
        c.bytes = m.bytes;
        c.group = m.group;
        c.arrivalUs.assign(m.group.size(), kNaN);
        c.arrivalUs[static_cast<size_t>(std::find(m.group.begin(), m.group.end(), r) - m.group.begin())] = a;
        c.startUs = a;
        c.endUs = e;
        c.algorithm = algorithmOf(t.op->algorithm);
        c.protocol = protocolOf(t.op->protocol);
        run.collectives.push_back(std::move(c));
        run.spans.push_back(
            {.rank = r, .kind = SpanKind::Comm, .beginUs = a, .endUs = e, .op = 2 * k + 1, .collective = index});
        cursor = std::max(cursor, e);
        last = cursor;
        lastDone = std::max(lastDone, k);
    }
    if (!std::isnan(first))
        run.iterations.push_back({first, last});
    if (mp.endsEarly[static_cast<size_t>(r)]) {
        HangReport h;
        h.lastCompleted.assign(static_cast<size_t>(n), -1);
        h.pending.assign(static_cast<size_t>(n), "");
        h.pendingMessages.assign(static_cast<size_t>(n), Message());
        h.lastCompleted[static_cast<size_t>(r)] = lastDone;
        h.pendingMessages[static_cast<size_t>(r)] = Message("profile.pending.record_ends");
        h.pending[static_cast<size_t>(r)] = english(h.pendingMessages[static_cast<size_t>(r)]);
        run.hang = std::move(h);
    }
    return part;
}

// Every rank's work from the first arrival of anyone: a rank that arrived late at the first
// collective was working (or starting up) until then. Returns that first arrival.
double addWorkBeforeFirstArrival(RunResult& run, int n)
{
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
            run.spans.push_back({.rank = r,
                                 .kind = SpanKind::Compute,
                                 .beginUs = t0,
                                 .endUs = firstBegin[static_cast<size_t>(r)],
                                 .op = firstOp[static_cast<size_t>(r)]});
    return t0;
}

// Canonical order: collective k at index k (the merge orders them by start), spans by step.
void putInCanonicalOrder(RunResult& run)
{
    std::vector<size_t> byOp(run.collectives.size());
    for (size_t i = 0; i < byOp.size(); ++i)
        byOp[i] = i;
    std::stable_sort(byOp.begin(), byOp.end(),
                     [&](size_t a, size_t b) { return run.collectives[a].op < run.collectives[b].op; });
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
}

// "2 communicators drawn: communicator 1 of 2: ranks 0,1 (...), 24 operations; ...", where the
// run draws more than one (the first 8 listed), numbered in the order of the result's notes.
std::optional<Message> communicatorsNote(const MatchedProfile& mp)
{
    std::map<int, int> opsOn;
    for (const MatchedOp& m : mp.ops)
        ++opsOn[m.comm];
    if (opsOn.size() <= 1)
        return std::nullopt;
    std::vector<Message> drawn;
    for (const auto& [ci, count] : opsOn) {
        const MatchedComm& c = mp.comms[static_cast<size_t>(ci)];
        std::string ranks;
        for (size_t i = 0; i < c.ranks.size(); ++i)
            ranks += (i ? "," : "") + std::to_string(c.ranks[i]);
        drawn.push_back(Message("profile.note.communicator")
                            .with("number", static_cast<int>(drawn.size()) + 1)
                            .with("count", static_cast<int>(opsOn.size()))
                            .with("ranks", ranks)
                            .with("hash", commHashText(c.hash))
                            .with("operations", count));
    }
    const bool more = drawn.size() > 8;
    drawn.resize(std::min<size_t>(drawn.size(), 8));
    Message list = std::move(drawn.back());
    for (size_t i = drawn.size() - 1; i-- > 0;)
        list =
            Message("profile.note.communicators_list").with("first", std::move(drawn[i])).with("rest", std::move(list));
    if (more)
        list = Message("profile.note.communicators_more").with("list", std::move(list));
    return Message("profile.note.communicators")
        .with("count", static_cast<int>(opsOn.size()))
        .with("list", std::move(list));
}

// The observed program: the `calls` operations from `firstCall` on, each after the work before it.
std::vector<Op> observedProgram(const MatchedProfile& mp, const CanonicalOrder& order, size_t firstCall,
                                size_t programCalls)
{
    const int n = mp.ranks;
    const std::vector<size_t>& byK = order.byK;
    std::vector<int> everyone(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r)
        everyone[static_cast<size_t>(r)] = r;
    std::vector<Op> program;
    for (size_t k = 0; k < programCalls; ++k) {
        const MatchedOp& m = mp.ops[byK[firstCall + k]];
        Op work;
        work.kind = OpKind::Compute;
        work.name = "work before #" + std::to_string(k);
        Op coll;
        coll.kind = m.kind;
        coll.bytes = m.bytes;
        if (m.kind == OpKind::SendRecv) {
            coll.root = m.root;
            coll.peer = m.peer;
            coll.name =
                "send_recv #" + std::to_string(k) + " (" + std::to_string(m.root) + "->" + std::to_string(m.peer) + ")";
        } else {
            if (m.root >= 0)
                coll.root = m.root;
            std::vector<int> sorted = m.group;
            std::sort(sorted.begin(), sorted.end());
            if (sorted != everyone)
                coll.group = m.group;
            coll.name = std::string(opName(coll.kind)) + " #" + std::to_string(k);
            if (sorted != everyone) {
                coll.name += " (ranks ";
                for (size_t g = 0; g < m.group.size(); ++g)
                    coll.name += (g ? "," : "") + std::to_string(m.group[g]);
                coll.name += ")";
            }
        }
        program.push_back(work);
        program.push_back(coll);
    }
    return program;
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
    auto matchedOr = matchProfile(files, options.recordsStillArriving, options.imported);
    if (!matchedOr)
        return matchedOr.error();
    const MatchedProfile& mp = *matchedOr;
    const int n = mp.ranks;
    if (mp.ops.empty())
        return badInput(Message("error.line.profile_nothing_drawn")
                            .with("piece_files", recordFilesPiece(files))
                            .with("piece_comm", commPiece(mp.comms.front())));

    // The program's steps: found in the finished run only (a run built while records still arrive
    // keeps the operations in order of time, collective k at op 2k+1, profile_live.h; the result
    // then replaces its timeline).
    std::optional<JobSteps> steps;
    if (!options.recordsStillArriving)
        steps = findJobSteps(mp, mp.incomplete);
    const CanonicalOrder order = canonicalOrder(mp, steps);

    std::vector<RankPart> parts;
    bool incomplete = mp.incomplete;
    for (int r = 0; r < n; ++r) {
        parts.push_back(rankPart(mp, files, order, r));
        incomplete = incomplete || mp.endsEarly[static_cast<size_t>(r)];
    }

    // Within the clocks' error, who came last is not known.
    MergeOptions merge;
    merge.tieUs = mp.worstClockNs / 1e3;
    auto merged = mergeRankParts(std::move(parts), merge);
    if (!merged)
        return merged.error();
    RunResult run = std::move(*merged);
    const double t0 = addWorkBeforeFirstArrival(run, n);
    putInCanonicalOrder(run);
    if (!run.iterations.empty() && std::isfinite(t0))
        run.iterations.front().beginUs = std::min(run.iterations.front().beginUs, t0);

    // How the clocks were put together.
    std::set<std::string> hosts;
    std::set<size_t> processFiles;
    for (int r = 0; r < n; ++r) {
        hosts.insert(files[mp.fileOfRank[static_cast<size_t>(r)]].host);
        processFiles.insert(mp.fileOfRank[static_cast<size_t>(r)]);
    }
    // Every note and the clock sentence as catalogue messages (profile.inc), the English beside them.
    if (mp.hostOnly)
        run.clockNote = Message("profile.clock.host_only");
    else
        run.clockNote =
            Message("profile.clock.gpu")
                .with("brackets", mp.brackets)
                .with("error", number("%.2f", mp.worstClockNs / 1e3))
                .with("hosts", Message(hosts.size() > 1 ? "profile.clock.hosts" : "profile.clock.one_host"));
    run.notes.clear();
    if (auto drawn = communicatorsNote(mp))
        run.notes.push_back(std::move(*drawn));
    if (mp.otherCommOps > 0)
        run.notes.push_back(Message("profile.note.other_communicators").with("count", mp.otherCommOps));
    for (const auto& [func, count] : mp.unmodelled)
        run.notes.push_back(Message("profile.note.unmodelled").with("count", count).with("function", func));
    std::uint64_t dropped = 0;
    for (const ProfileFile& f : files)
        dropped += f.dropped;
    if (dropped > 0)
        run.notes.push_back(Message("profile.note.dropped").with("count", std::to_string(dropped)));
    if (incomplete)
        run.notes.push_back(Message("profile.note.ends_early"));
    if (!options.programEnd.empty())
        run.notes.push_back(
            Message("profile.note.program_end").with("end", options.programEnd)); // error.line.program_*

    ProfiledRun out;
    out.launch = processFiles.size() == 1
                     ? "1 process driving " + std::to_string(n) + " GPUs"
                     : std::to_string(processFiles.size()) + " processes on " + std::to_string(hosts.size())
                           + (hosts.size() == 1 ? " host" : " hosts");
    // The observed program.
    Scenario observed;
    observed.name = options.name;
    observed.description = "The program as ShardLab's NCCL profiler observed it (" + out.launch + ").";
    observed.strategy = kObservedStrategy; // no one-GPU time and no memory to state (summary.h)
    observed.topology = options.machine ? *options.machine : defaultProfileMachine(n);
    if (observed.topology.rankCount() != n)
        return badInput(Message("error.line.profile_machine_given_size")
                            .with("gpus", observed.topology.rankCount())
                            .with("ranks", n));
    size_t firstCall = 0, programCalls = order.byK.size();
    if (steps) {
        // Records that end early: some rank's stop before the others' (the run's hang report, which
        // leaves the unfinished last step out of the step time, summary.h).
        if (steps->pattern.wrapUp > 0) {
            dropWrapUp(run, order.byK.size() - steps->pattern.wrapUp);
            run.notes.push_back(Message("profile.note.wrap_up").with("count", static_cast<int>(steps->pattern.wrapUp)));
        }
        if (steps->pattern.prefix > 0) {
            dropSetUp(run, steps->pattern.prefix);
            run.notes.push_back(Message("profile.note.set_up").with("count", static_cast<int>(steps->pattern.prefix)));
        }
        splitIntoSteps(run, steps->pattern);
        firstCall = steps->pattern.prefix;
        programCalls = steps->pattern.period;
        observed.iterations =
            static_cast<int>(std::clamp<size_t>(steps->pattern.steps, 1, 100000)); // validateScenario's limit
    }
    observed.program = observedProgram(mp, order, firstCall, programCalls);
    auto scenario = resimulationScenario(observed, run, observed.topology);
    if (!scenario)
        return scenario.error();
    out.scenario = std::move(*scenario);
    out.run = std::move(run);
    return out;
}

} // namespace shardlab
