// The handbook's three rules (diagnosis.h). Every number in a sentence comes from the run, its
// summary, the scenario or the cost model on the scenario's topology.
#include "shardlab/analysis/diagnosis.h"

#include "shardlab/analysis/collective_path.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/model/capacity.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/routing.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <numeric>

namespace shardlab {

const char* findingRuleName(FindingRule rule)
{
    switch (rule) {
    case FindingRule::NoSpeedup: return "no_speedup";
    case FindingRule::SameRankWaitedFor: return "same_rank_waited_for";
    case FindingRule::CollectiveHang: return "collective_hang";
    case FindingRule::CapacityExceeded: return "capacity_exceeded";
    case FindingRule::Paging: return "paging";
    }
    return "?";
}

const char* severityName(Severity severity) { return severity == Severity::Problem ? "problem" : "warning"; }

namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...)
{
    char buf[1024];
    va_list args;
    va_start(args, f);
    std::vsnprintf(buf, sizeof buf, f, args);
    va_end(args);
    return buf;
}

std::string pct(double share) { return fmt("%.0f%%", share * 100); }

// Each rank's share of the program's compute work: sum over compute ops of FLOP x the share of
// the op's item the rank owns (the whole op when it names no item), over the program's FLOP.
std::vector<double> workShares(const Scenario& s)
{
    const int n = s.ranks();
    std::vector<double> share(static_cast<size_t>(n), 0.0);
    double total = 0;
    for (const Op& op : s.program) {
        if (op.kind != OpKind::Compute || op.flops <= 0)
            continue;
        total += op.flops;
        const WorkloadItem* item = op.item.empty() ? nullptr : s.workload.find(op.item);
        for (int r = 0; r < n; ++r)
            share[static_cast<size_t>(r)] += op.flops * (item ? item->workFraction(r) : 1.0);
    }
    if (total > 0)
        for (double& x : share)
            x /= total;
    return share;
}

std::vector<RankEvidence> rankEvidence(const Scenario& s, const RunResult& run, const Summary& sum, CostModel& model)
{
    const int n = std::min(s.ranks(), static_cast<int>(sum.perRank.size()));
    const std::vector<double> work = workShares(s);
    const CapacityReport cap = capacityOf(s);
    std::vector<int> all(static_cast<size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    const std::vector<int> ring = n > 1 ? model.ringOrder(all) : all;
    std::vector<int> position(static_cast<size_t>(n), 0);
    for (size_t i = 0; i < ring.size(); ++i)
        position[static_cast<size_t>(ring[i])] = static_cast<int>(i);
    Router router(s.topology);
    const int iterations = std::max(1, s.iterations);
    std::vector<RankEvidence> out;
    for (int r = 0; r < n; ++r) {
        const RankBreakdown& rb = sum.perRank[static_cast<size_t>(r)];
        const Gpu& g = s.topology.gpus[static_cast<size_t>(r)];
        RankEvidence e;
        e.rank = r;
        e.device = rb.device.empty() ? g.name : rb.device;
        e.computeMs = rb.computeMs;
        e.commMs = rb.commMs;
        e.waitMs = rb.waitMs;
        e.timesLast = rb.timesLast;
        e.workShare = work[static_cast<size_t>(r)];
        e.owned = static_cast<size_t>(r) < cap.ranks.size() ? cap.ranks[static_cast<size_t>(r)].owned : 0;
        e.slowdown = s.perturbations.slowdownOf(r);
        for (const Delay& d : s.perturbations.delays)
            if (d.rank == r)
                e.delayMs += d.iteration < 0 ? d.ms : d.ms / iterations;
        e.gpuTflops = g.tflops;
        e.node = g.node;
        e.socket = g.socket;
        if (n > 1) {
            const int at = position[static_cast<size_t>(r)];
            const int prev = ring[static_cast<size_t>((at + n - 1) % n)], next = ring[static_cast<size_t>((at + 1) % n)];
            e.ringInGBps = router.route(prev, r).bottleneckGBps;
            e.ringOutGBps = router.route(r, next).bottleneckGBps;
        }
        if (run.hang && static_cast<size_t>(r) < run.hang->lastCompleted.size()) {
            e.lastCompleted = run.hang->lastCompleted[static_cast<size_t>(r)];
            e.state = run.hang->pending[static_cast<size_t>(r)];
        }
        out.push_back(e);
    }
    return out;
}

// alpha x beta of one collective on one group: the size above which bandwidth dominates.
double crossoverOf(CostModel& model, OpKind kind, const std::vector<int>& group)
{
    std::vector<SweepRow> rows;
    for (Bytes b = 8; b <= (1ULL << 30); b *= 4) {
        SweepRow r;
        r.bytes = b;
        r.timeUs = model.collective(kind, b, group).timeUs;
        rows.push_back(r);
    }
    const AlphaBeta ab = fitAlphaBeta(rows);
    return ab.valid ? std::max(0.0, ab.crossoverBytes()) : 0.0;
}

std::vector<CollectiveEvidence> collectiveEvidence(const Scenario& s, const RunResult& run, const Summary& sum,
                                                   CostModel& model)
{
    // summarize() lists figures per (op, kind, size) in that order; find a record of each.
    std::map<std::tuple<int, int, Bytes>, const CollectiveRecord*> first;
    for (const CollectiveRecord& rec : run.collectives)
        first.emplace(std::make_tuple(rec.op, static_cast<int>(rec.kind), rec.bytes), &rec);
    std::vector<CollectiveEvidence> out;
    size_t i = 0;
    for (const auto& [key, rec] : first) {
        if (i >= sum.collectives.size())
            break;
        const CollectiveFigures& f = sum.collectives[i++];
        CollectiveEvidence e;
        e.name = f.name;
        e.kind = f.kind;
        e.bytes = f.bytes;
        e.ranks = f.ranks;
        e.timeMs = f.timeMs;
        e.algbwGBps = f.algbwGBps;
        e.busbwGBps = f.busbwGBps;
        const Op& op = s.program[static_cast<size_t>(rec->op)];
        const CollectiveCost cost = model.collective(rec->kind, rec->bytes, rec->group, op.algorithm, op.root);
        if (cost.bottleneckLink >= 0) {
            e.bottleneckLink = describeLink(s.topology, cost.bottleneckLink);
            e.linkKind = s.topology.links[static_cast<size_t>(cost.bottleneckLink)].kind;
        }
        if (rec->group.size() > 1 && rec->kind != OpKind::SendRecv) {
            e.crossoverBytes = crossoverOf(model, rec->kind, rec->group);
            e.latencyBound = static_cast<double>(e.bytes) < e.crossoverBytes;
        }
        out.push_back(e);
    }
    return out;
}

std::string range(double lo, double hi, const char* unit)
{
    if (std::fabs(hi - lo) < 0.05 * std::max(std::fabs(hi), 1e-9))
        return fmt("%.3g %s", hi, unit);
    return fmt("%.3g-%.3g %s", lo, hi, unit);
}

// ---- rule 1: no speed-up after adding GPUs ----
void noSpeedup(const Scenario& s, const RunResult& run, const Summary& sum, const DiagnosisContext& ctx,
               CostModel& model, const std::vector<RankEvidence>& ranks, const std::vector<CollectiveEvidence>& colls,
               std::vector<Finding>& out)
{
    const int n = sum.ranks;
    if (n < 2 || run.hang || !sum.hasSpeedup || sum.bottleneck == Bottleneck::Capacity)
        return;
    const ScalingNote* slower = nullptr;
    if (ctx.scaling)
        for (const ScalingNote& note : ctx.scaling->notes)
            if (note.kind == ScalingNote::Kind::Slower && note.toGpus <= n)
                slower = &note;
    const bool waitDominated = sum.straggler && sum.waitShare > sum.commShare;
    if ((sum.efficiency >= kLowEfficiency && !slower) || waitDominated)
        return;
    Finding f;
    f.rule = FindingRule::NoSpeedup;
    f.severity = sum.speedup < kAlmostNoSpeedup || slower ? Severity::Problem : Severity::Warning;
    f.title = "Adding GPUs gives little speed-up";
    const auto path = dominantCollective(s, run, model);
    f.sentence = fmt("On %d GPUs the step takes %.3g ms against %.3g ms of work on one GPU: a speed-up of %.2fx "
                     "(efficiency %.0f%%). Communication takes %s of the rank-time",
                     n, sum.stepTimeMs, sum.oneGpuMs, sum.speedup, sum.efficiency * 100, pct(sum.commShare).c_str());
    if (path && path->linkKind)
        f.sentence += "; the " + path->name + " is limited by " + linkKindWords(*path->linkKind) + " ("
                      + fmt("%.3g GB/s bus bandwidth", path->busbwGBps) + ")";
    f.sentence += ".";

    double meanCompute = 0, maxCompute = 0, maxShare = 0;
    for (const RankEvidence& e : ranks) {
        meanCompute += e.computeMs / n;
        maxCompute = std::max(maxCompute, e.computeMs);
        maxShare = std::max(maxShare, e.workShare);
    }
    std::string compute = fmt("each rank computes %.3g ms per step (the busiest %.3g ms) of the %.3g ms that one GPU "
                              "needs; an even split would be %.3g ms",
                              meanCompute, maxCompute, sum.oneGpuMs, sum.oneGpuMs / n);
    if (maxShare > 0.99 && n > 1)
        compute += "; every rank does the whole compute: the work is replicated, not split";
    f.checks.push_back({"per-rank compute", compute});
    f.checks.push_back({"collective share", fmt("communication %s, waiting %s, compute %s of the rank-time",
                                                pct(sum.commShare).c_str(), pct(sum.waitShare).c_str(),
                                                pct(sum.computeShare).c_str())});
    const CollectiveEvidence* main = nullptr;
    for (const CollectiveEvidence& c : colls)
        if (path && c.name == path->name && c.bytes == path->bytes)
            main = &c;
    if (main) {
        std::string size = main->name + " moves " + formatBytes(main->bytes) + " per call ("
                           + formatBytes(main->bytes / static_cast<Bytes>(std::max(1, main->ranks))) + " per rank and ring step)";
        if (main->crossoverBytes > 0)
            size += std::string(main->latencyBound ? "; below" : "; above") + " the " + formatBytes(static_cast<Bytes>(main->crossoverBytes))
                    + " where this machine turns bandwidth-bound, so "
                    + (main->latencyBound ? "it is latency-bound: fewer, larger messages (bigger buckets) would help"
                                          : "it is bandwidth-bound: only fewer bytes or faster links help");
        f.checks.push_back({"message size", size});
        f.checks.push_back({"topology path", main->bottleneckLink.empty()
                                                 ? "no link limits it"
                                                 : "its bottleneck is " + main->bottleneckLink + "; it reaches "
                                                       + fmt("%.3g GB/s bus bandwidth", main->busbwGBps)
                                                       + (s.topology.nodeCount() > 1
                                                              ? fmt(" across %d nodes", s.topology.nodeCount())
                                                              : std::string())});
    }
    if (ctx.scaling) {
        // the note closest below this run's size: the step that brought the run here
        const ScalingNote* near = nullptr;
        for (const ScalingNote& note : ctx.scaling->notes)
            if (note.toGpus <= n && (!near || note.toGpus > near->toGpus))
                near = &note;
        const std::string curve = near ? near->sentence : std::string();
        f.checks.push_back({"scaling curve", curve.empty() ? "the curve shows no step where adding GPUs hurts" : curve});
        f.scaling = ctx.scaling->points;
    }
    f.evidenceNeeded = {"per-rank timeline", "communication bandwidth", "strong and weak scaling curves"};
    f.ranks = ranks;
    f.collectives = colls;
    out.push_back(f);
}

// ---- rule 2: the sync point always waits for the same card ----
void sameRank(const Scenario& s, const RunResult& run, const Summary& sum, const std::vector<RankEvidence>& ranks,
              const std::vector<CollectiveEvidence>& colls, std::vector<Finding>& out)
{
    if (!sum.straggler || run.hang || *sum.straggler >= static_cast<int>(ranks.size()))
        return;
    const int st = *sum.straggler;
    const int n = static_cast<int>(ranks.size());
    const RankEvidence& me = ranks[static_cast<size_t>(st)];
    double waitLo = 1e300, waitHi = 0, shareOthers = 0, tflopsOthers = 1e300, inLo = 1e300, inHi = 0;
    for (const RankEvidence& e : ranks) {
        if (e.rank == st)
            continue;
        waitLo = std::min(waitLo, e.waitMs);
        waitHi = std::max(waitHi, e.waitMs);
        shareOthers += e.workShare / (n - 1);
        tflopsOthers = std::min(tflopsOthers, e.gpuTflops);
        inLo = std::min(inLo, std::min(e.ringInGBps, e.ringOutGBps));
        inHi = std::max(inHi, std::min(e.ringInGBps, e.ringOutGBps));
    }
    int blocking = 0;
    for (const CollectiveRecord& rec : run.collectives)
        blocking += rec.lastArrival >= 0 ? 1 : 0;
    Finding f;
    f.rule = FindingRule::SameRankWaitedFor;
    f.severity = sum.waitShare >= 0.10 ? Severity::Problem : Severity::Warning;
    f.title = fmt("Every sync point waits for rank %d", st);
    f.rank = st;
    std::string cause;
    if (me.workShare > 1.05 * shareOthers)
        cause = fmt("it does %.0f%% of the compute work where each other rank does %.0f%% on average", me.workShare * 100,
                    shareOthers * 100);
    else if (me.slowdown > 1.0 + 1e-9)
        cause = fmt("it runs %.2fx slower than the others (slowdown factor: thermal throttling or a slower card)", me.slowdown);
    else if (me.delayMs > 0)
        cause = fmt("it is delayed by %.3g ms every step", me.delayMs);
    else if (me.gpuTflops < tflopsOthers * 0.99)
        cause = fmt("its GPU is rated %.3g TFLOP/s against at least %.3g for the others", me.gpuTflops, tflopsOthers);
    else
        cause = "its compute matches the others', so look at what precedes the collective: its links and NUMA placement";
    f.sentence = fmt("Rank %d arrives last at %d of %d collectives; the others wait %s per step for it (%s of the "
                     "rank-time): ",
                     st, me.timesLast, blocking, range(waitLo, waitHi, "ms").c_str(), pct(sum.waitShare).c_str())
                 + cause + ".";

    const CapacityReport cap = capacityOf(s);
    f.checks.push_back({"shard sizes", fmt("rank %d owns %s; the mean is %s (the largest rank holds %.0f%% more than the mean)",
                                           st, formatBytes(me.owned).c_str(),
                                           formatBytes(static_cast<Bytes>(cap.meanOwned)).c_str(), cap.imbalancePct)});
    std::string input = fmt("rank %d does %.0f%% of the compute work (an even split is %.0f%%)", st, me.workShare * 100,
                            100.0 / n);
    for (const Op& op : s.program)
        if (op.kind == OpKind::Compute && !op.item.empty())
            if (const WorkloadItem* item = s.workload.find(op.item)) {
                input += "; it holds " + formatBytes(item->ownedBy(st)) + " of " + formatBytes(item->size) + " " + item->name;
                break;
            }
    f.checks.push_back({"input distribution", input});
    std::string slow = me.slowdown > 1.0 + 1e-9 ? fmt("slowdown factor %.2f on rank %d", me.slowdown, st)
                                                : fmt("no slowdown set for rank %d", st);
    if (me.delayMs > 0)
        slow += fmt("; an injected delay of %.3g ms per step", me.delayMs);
    if (s.perturbations.jitterPct > 0)
        slow += fmt("; every rank's compute jitters by up to %.3g%%", s.perturbations.jitterPct);
    f.checks.push_back({"thermal throttling", slow});
    std::vector<int> sameSocket;
    for (const RankEvidence& e : ranks)
        if (e.node == me.node && e.socket == me.socket)
            sameSocket.push_back(e.rank);
    f.checks.push_back({"NUMA and link differences",
                        fmt("rank %d is on node %d, socket %d with %zu of the %d ranks; its ring links carry %.3g GB/s in "
                            "and %.3g GB/s out; the others' slowest ring links: %s",
                            st, me.node, me.socket, sameSocket.size(), n, me.ringInGBps, me.ringOutGBps,
                            range(inLo, inHi, "GB/s").c_str())});
    f.evidenceNeeded = {"per-rank compute, communication and wait (not the global mean)"};
    f.ranks = ranks;
    f.collectives = colls;
    out.push_back(f);
}

// ---- rule 3: a collective hangs ----
void hang(const Scenario& s, const RunResult& run, const std::vector<RankEvidence>& ranks, std::vector<Finding>& out)
{
    if (!run.hang)
        return;
    const HangReport& h = *run.hang;
    const int iteration = std::max(0, static_cast<int>(run.iterations.size()) - 1);
    Finding f;
    f.rule = FindingRule::CollectiveHang;
    f.severity = Severity::Problem;
    f.title = "A collective hangs";
    if (h.firstMismatchRank >= 0)
        f.rank = h.firstMismatchRank;
    std::string order, count, left;
    auto opLabel = [&](int op) {
        const Op& o = s.program[static_cast<size_t>(op)];
        return (o.name.empty() ? std::string(opName(o.kind)) : o.name) + fmt(" (program step %d)", op + 1);
    };
    for (const Mismatch& m : s.perturbations.mismatches) {
        if (m.iteration != iteration || m.op < 0 || m.op >= static_cast<int>(s.program.size()))
            continue;
        const Op& op = s.program[static_cast<size_t>(m.op)];
        if (m.type == Mismatch::Type::WrongOp)
            order += fmt("%srank %d called %s where the others called %s at ", order.empty() ? "" : "; ", m.rank,
                         opName(m.replacement), opName(op.kind))
                     + opLabel(m.op);
        else if (m.type == Mismatch::Type::WrongCount)
            count += fmt("%srank %d passed %s where the others passed %s at ", count.empty() ? "" : "; ", m.rank,
                         formatBytes(m.bytes).c_str(), formatBytes(s.bytesOf(op) / static_cast<Bytes>(op.buckets)).c_str())
                     + opLabel(m.op);
        else
            left += fmt("%srank %d skipped ", left.empty() ? "" : "; ", m.rank) + opLabel(m.op)
                    + ", finished the iteration and left while the others wait for it";
    }
    for (const RankEvidence& e : ranks)
        if (e.state.find("left") != std::string::npos && left.find(fmt("rank %d ", e.rank)) == std::string::npos)
            left += fmt("%srank %d ", left.empty() ? "" : "; ", e.rank) + e.state;
    std::string last;
    for (const RankEvidence& e : ranks)
        last += fmt("%srank %d ", last.empty() ? "" : ", ", e.rank)
                + (e.lastCompleted < 0 ? std::string("none yet") : fmt("#%d", e.lastCompleted));
    std::string blocked;
    for (const RankEvidence& e : ranks)
        if (e.state.rfind("blocked", 0) == 0) {
            blocked = e.state;
            break;
        }
    const std::string cause = !order.empty() ? order : !count.empty() ? count : !left.empty() ? left : h.explanation;
    f.sentence = fmt("The run hangs in iteration %d: ", iteration + 1) + cause
                 + (blocked.empty() ? std::string() : "; the others stay " + blocked) + ".";
    f.checks.push_back({"same order on every rank", order.empty() ? "every rank called the collectives in the program's order" : order});
    f.checks.push_back({"count and type", count.empty() && order.empty() ? "counts and types agree" : (count.empty() ? order : count)});
    f.checks.push_back({"a rank that left", left.empty() ? "no rank left early" : left});
    f.checks.push_back({"last completed collective", last});
    f.evidenceNeeded = {"per-rank log", "NCCL debug log (live runs: NCCL_DEBUG=INFO)", "last successful collective number"};
    f.ranks = ranks;
    out.push_back(f);
}

// What each rank owns against its GPU, and which items are replicated: the course's capacity
// exercise ("four 16 GB GPUs, a 24 GB model replicated: why does 64 GB in total not fit?").
void capacityChecks(const Scenario& s, const CapacityReport& cap, Finding& f)
{
    std::string owned;
    for (const RankMemory& rm : cap.ranks)
        owned += fmt("%srank %d %s of %s", owned.empty() ? "" : ", ", rm.rank, formatBytes(rm.owned).c_str(),
                     formatBytes(rm.capacity).c_str());
    std::string replicated;
    for (const WorkloadItem& item : s.workload.items)
        for (const Shard& sh : item.shards)
            if (sh.owners.size() > 1 && sh.size > 0) {
                replicated += fmt("%s%s (%s on %zu ranks)", replicated.empty() ? "" : ", ", item.name.c_str(),
                                  formatBytes(sh.size).c_str(), sh.owners.size());
                break;
            }
    std::string peak;
    for (const RankMemory& rm : cap.ranks)
        if (rm.transient > 0)
            peak += fmt("%srank %d %s", peak.empty() ? "" : ", ", rm.rank, formatBytes(rm.peak()).c_str());
    f.checks.push_back({"what each rank owns against what its GPU holds", owned});
    f.checks.push_back({"peak with the largest collective buffer", peak.empty() ? "no collective adds a buffer" : peak});
    f.checks.push_back({"what is replicated", replicated.empty() ? "nothing: every shard has one owner" : replicated});
    f.evidenceNeeded = {"per-rank memory: owned and peak against capacity", "the placement of every item"};
}

// A rank that owns more than its GPU holds. Strict memory: the job does not run as placed.
void capacity(const Scenario& s, const std::vector<RankEvidence>& ranks, std::vector<Finding>& out)
{
    if (s.memoryMode != MemoryMode::Strict)
        return;
    const CapacityReport cap = capacityOf(s);
    const RankMemory* worst = nullptr;
    int over = 0, peakOver = 0; // ranks whose ownership / only whose peak exceeds the GPU
    for (const RankMemory& rm : cap.ranks) {
        if (rm.fits())
            continue;
        ++(rm.ownedFits() ? peakOver : over);
        // a rank that owns too much comes before one whose buffer alone is too much
        if (!worst || (worst->ownedFits() && !rm.ownedFits())
            || (worst->ownedFits() == rm.ownedFits() && rm.peakExcess() > worst->peakExcess()))
            worst = &rm;
    }
    if (!worst)
        return;
    Finding f;
    f.rule = FindingRule::CapacityExceeded;
    f.severity = Severity::Problem;
    f.title = "The job does not fit in GPU memory as placed";
    if (over > 0)
        f.sentence = fmt("%d of %d ranks own more than their GPU holds; rank %d owns %s on a %s GPU (%s too much). The "
                         "machine's total memory does not help: each rank must hold what it owns. Split the largest items "
                         "(ZeRO-3, tensor or pipeline parallel) instead of replicating them.",
                         over, s.ranks(), worst->rank, formatBytes(worst->owned).c_str(), formatBytes(worst->capacity).c_str(),
                         formatBytes(worst->excess()).c_str());
    else
        f.sentence = fmt("What each rank owns fits, but on %d of %d ranks a collective's buffer does not: rank %d owns %s "
                         "and receives %s more, a peak of %s on a %s GPU (%s too much). Send the collective in buckets "
                         "(each bucket needs only its share of the buffer) or shard its item further.",
                         peakOver, s.ranks(), worst->rank, formatBytes(worst->owned).c_str(),
                         formatBytes(worst->transient).c_str(), formatBytes(worst->peak()).c_str(),
                         formatBytes(worst->capacity).c_str(), formatBytes(worst->peakExcess()).c_str());
    capacityChecks(s, cap, f);
    f.ranks = ranks;
    f.rank = worst->rank;
    out.push_back(f);
}

// Unified memory: the excess pages over the host link every iteration.
void paging(const Scenario& s, const RunResult& run, const Summary& sum, const std::vector<RankEvidence>& ranks,
            std::vector<Finding>& out)
{
    int worst = -1;
    for (size_t r = 0; r < run.pagingUs.size(); ++r)
        if (run.pagingUs[r] > 0 && (worst < 0 || run.pagingUs[r] > run.pagingUs[static_cast<size_t>(worst)]))
            worst = static_cast<int>(r);
    if (worst < 0)
        return;
    const CapacityReport cap = capacityOf(s);
    const RankMemory& rm = cap.ranks[static_cast<size_t>(worst)];
    const double ms = run.pagingUs[static_cast<size_t>(worst)] / 1e3;
    Finding f;
    f.rule = FindingRule::Paging;
    f.severity = sum.stepTimeMs > 0 && ms >= 0.5 * sum.stepTimeMs ? Severity::Problem : Severity::Warning;
    f.title = "Unified memory pages over the host link every iteration";
    f.sentence = fmt("Rank %d owns %s on a %s GPU: unified memory moves the %s excess out and back in over the host "
                     "link, %.1f ms of every iteration",
                     worst, formatBytes(rm.owned).c_str(), formatBytes(rm.capacity).c_str(), formatBytes(rm.excess()).c_str(), ms);
    if (sum.stepTimeMs > 0)
        f.sentence += fmt(" (%.0f%% of the %.3g ms step)", 100 * ms / sum.stepTimeMs, sum.stepTimeMs);
    f.sentence += ". The run completes, but at the host link's speed; splitting the items so that every rank fits "
                  "removes the paging.";
    capacityChecks(s, cap, f);
    f.checks.push_back({"paging per iteration", fmt("rank %d: %.1f ms", worst, ms)});
    f.ranks = ranks;
    f.rank = worst;
    out.push_back(f);
}

} // namespace

std::vector<Finding> diagnose(const Scenario& s, const RunResult& run, const Summary& sum, const DiagnosisContext& ctx)
{
    std::vector<Finding> out;
    if (s.ranks() == 0 || sum.perRank.empty())
        return out;
    CostProfile profile = CostProfile::defaults();
    if (ctx.profile)
        profile = *ctx.profile;
    else if (!s.costProfile.empty())
        if (auto loaded = loadProfile(s.costProfile))
            profile = *loaded;
    CostModel model(s.topology, profile);
    const std::vector<RankEvidence> ranks = rankEvidence(s, run, sum, model);
    const std::vector<CollectiveEvidence> colls = collectiveEvidence(s, run, sum, model);
    hang(s, run, ranks, out);
    capacity(s, ranks, out);
    paging(s, run, sum, ranks, out);
    noSpeedup(s, run, sum, ctx, model, ranks, colls, out);
    sameRank(s, run, sum, ranks, colls, out);
    return out;
}

} // namespace shardlab
