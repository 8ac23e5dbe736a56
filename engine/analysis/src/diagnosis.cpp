// The handbook's five rules (diagnosis.h: FindingRule). Every number in a sentence comes from the run, its
// summary, the scenario or the cost model on the scenario's topology.
#include "shardlab/analysis/diagnosis.h"

#include "shardlab/analysis/collective_path.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/model/capacity.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/routing.h"

#include <algorithm>
#include <limits>
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

// Each rank's share of the program's compute work: sum over compute ops of FLOP x the rank's share
// of the op (computeShares: of the item it owns or gathered; the whole op when it names no item),
// over the program's FLOP.
std::vector<double> workShares(const Scenario& s)
{
    const int n = s.ranks();
    std::vector<double> share(static_cast<size_t>(n), 0.0);
    double total = 0;
    forEachComputeShare(s, [&](size_t i, const std::vector<double>& opShare) {
        const Op& op = s.program[i];
        if (op.flops <= 0)
            return;
        total += op.flops;
        for (int r = 0; r < n; ++r)
            share[static_cast<size_t>(r)] += op.flops * opShare[static_cast<size_t>(r)];
    });
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
            const int prev = ring[static_cast<size_t>((at + n - 1) % n)],
                      next = ring[static_cast<size_t>((at + 1) % n)];
            e.ringInGBps = router.route(prev, r).bottleneckGBps;
            e.ringOutGBps = router.route(r, next).bottleneckGBps;
        }
        if (run.hang && static_cast<size_t>(r) < run.hang->lastCompleted.size()) {
            e.lastCompleted = run.hang->lastCompleted[static_cast<size_t>(r)];
            e.state = run.hang->pending[static_cast<size_t>(r)];
            e.stateMessage = run.hang->pendingMessage(static_cast<size_t>(r));
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
        // A recorded program's machine is the one it was said to run on (default: assumed), its
        // links never observed: no link is named as the limit.
        if (cost.bottleneckLink >= 0 && s.strategy != kObservedStrategy) {
            e.bottleneckLinkMessage = linkDescription(s.topology, cost.bottleneckLink);
            e.bottleneckLink = english(e.bottleneckLinkMessage);
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

Check check(const char* whatId, Message shows)
{
    Check c;
    c.whatMessage = Message(whatId);
    c.showsMessage = std::move(shows);
    return c;
}

// Clauses of one kind joined by "; " (English) or "；" (Chinese).
Message clausesOf(std::vector<Message> clauses)
{
    if (clauses.empty())
        return {};
    Message out = std::move(clauses.back());
    for (size_t i = clauses.size() - 1; i-- > 0;)
        out = Message("diagnosis.clauses").with("first", std::move(clauses[i])).with("rest", std::move(out));
    return out;
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
    f.titleMessage = Message("diagnosis.no_speedup.title");
    const auto path = dominantCollective(s, run, model);
    const bool limited = path && path->linkKind;
    f.sentenceMessage = Message(limited ? "diagnosis.no_speedup.sentence.limited" : "diagnosis.no_speedup.sentence")
                            .with("gpus", n)
                            .with("step", fmt("%.3g", sum.stepTimeMs))
                            .with("one", fmt("%.3g", sum.oneGpuMs))
                            .with("speedup", fmt("%.2fx", sum.speedup))
                            .with("efficiency", formatPercent(sum.efficiency))
                            .with("comm", formatPercent(sum.commShare));
    if (limited)
        f.sentenceMessage.arg("collective", path->name)
            .arg("link", linkKindMessage(*path->linkKind))
            .arg("busbw", fmt("%.3g", path->busbwGBps));

    double meanCompute = 0, maxCompute = 0, maxShare = 0;
    for (const RankEvidence& e : ranks) {
        meanCompute += e.computeMs / n;
        maxCompute = std::max(maxCompute, e.computeMs);
        maxShare = std::max(maxShare, e.workShare);
    }
    f.checks.push_back(check(
        "diagnosis.check.per_rank_compute",
        Message(maxShare > 0.99 && n > 1 ? "diagnosis.no_speedup.compute.replicated" : "diagnosis.no_speedup.compute")
            .with("mean", fmt("%.3g", meanCompute))
            .with("max", fmt("%.3g", maxCompute))
            .with("one", fmt("%.3g", sum.oneGpuMs))
            .with("even", fmt("%.3g", sum.oneGpuMs / n))));
    f.checks.push_back(
        check("diagnosis.check.collective_share", Message("diagnosis.no_speedup.shares")
                                                      .with("comm", formatPercent(sum.commShare))
                                                      .with("wait", formatPercent(sum.waitShare))
                                                      .with("compute", formatPercent(sum.computeShare))));
    const CollectiveEvidence* main = nullptr;
    for (const CollectiveEvidence& c : colls)
        if (path && c.name == path->name && c.bytes == path->bytes)
            main = &c;
    if (main) {
        Message size(main->crossoverBytes <= 0 ? "diagnosis.no_speedup.size"
                     : main->latencyBound      ? "diagnosis.no_speedup.size.latency"
                                               : "diagnosis.no_speedup.size.bandwidth");
        size.arg("name", main->name)
            .arg("bytes", formatBytes(main->bytes))
            .arg("per_rank", formatBytes(main->bytes / static_cast<Bytes>(std::max(1, main->ranks))));
        if (main->crossoverBytes > 0)
            size.arg("crossover", formatBytes(static_cast<Bytes>(main->crossoverBytes)));
        f.checks.push_back(check("diagnosis.check.message_size", size));
        Message pathText;
        if (main->bottleneckLink.empty())
            pathText = Message("diagnosis.no_speedup.path.none");
        else if (s.topology.nodeCount() > 1)
            pathText = Message("diagnosis.no_speedup.path.nodes").with("nodes", s.topology.nodeCount());
        else
            pathText = Message("diagnosis.no_speedup.path");
        if (!main->bottleneckLink.empty())
            pathText.arg("link", main->bottleneckLinkMessage).arg("busbw", fmt("%.3g", main->busbwGBps));
        f.checks.push_back(check("diagnosis.check.topology_path", pathText));
    }
    if (ctx.scaling) {
        // the note closest below this run's size: the step that brought the run here
        const ScalingNote* near = nullptr;
        for (const ScalingNote& note : ctx.scaling->notes)
            if (note.toGpus <= n && (!near || note.toGpus > near->toGpus))
                near = &note;
        f.checks.push_back(check("diagnosis.check.scaling_curve", near && !near->sentence.empty()
                                                                      ? near->message()
                                                                      : Message("diagnosis.no_speedup.curve.none")));
        f.scaling = ctx.scaling->points;
    }
    f.evidenceMessages = {Message("diagnosis.evidence.timeline"), Message("diagnosis.evidence.bandwidth"),
                          Message("diagnosis.evidence.scaling")};
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
    f.titleMessage = Message("diagnosis.same_rank.title").with("rank", st);
    f.rank = st;
    // A recorded program (profiled or imported): its shards, input split, slowdowns and links were
    // not seen, only each rank's measured work between collectives (summary.h).
    const bool observed = s.strategy == kObservedStrategy;
    double othersMs = std::numeric_limits<double>::infinity();
    for (const RankEvidence& e : ranks)
        if (e.rank != st)
            othersMs = std::min(othersMs, e.computeMs);
    Message cause;
    if (observed)
        cause = Message("diagnosis.same_rank.cause.observed").with("ms", fmt("%.3g", me.computeMs - othersMs));
    else if (me.workShare > 1.05 * shareOthers)
        cause = Message("diagnosis.same_rank.cause.work")
                    .with("share", formatPercent(me.workShare))
                    .with("others", formatPercent(shareOthers));
    else if (me.slowdown > 1.0 + 1e-9)
        cause = Message("diagnosis.same_rank.cause.slowdown").with("factor", fmt("%.2fx", me.slowdown));
    else if (me.delayMs > 0)
        cause = Message("diagnosis.same_rank.cause.delay").with("ms", fmt("%.3g", me.delayMs));
    else if (me.gpuTflops < tflopsOthers * 0.99)
        cause = Message("diagnosis.same_rank.cause.gpu")
                    .with("tflops", fmt("%.3g", me.gpuTflops))
                    .with("others", fmt("%.3g", tflopsOthers));
    else
        cause = Message("diagnosis.same_rank.cause.links");
    f.sentenceMessage = Message("diagnosis.same_rank.sentence")
                            .with("rank", st)
                            .with("last", me.timesLast)
                            .with("blocking", blocking)
                            .with("wait", range(waitLo, waitHi, "ms"))
                            .with("share", formatPercent(sum.waitShare))
                            .with("cause", cause);

    f.evidenceMessages = {Message("diagnosis.evidence.per_rank")};
    f.ranks = ranks;
    f.collectives = colls;
    if (observed) {
        f.checks.push_back(check("diagnosis.check.observed_work", Message("diagnosis.same_rank.observed")
                                                                      .with("rank", st)
                                                                      .with("mine", fmt("%.3g", me.computeMs))
                                                                      .with("others", fmt("%.3g", othersMs))));
        out.push_back(f);
        return;
    }
    const CapacityReport cap = capacityOf(s);
    f.checks.push_back(
        check("diagnosis.check.shard_sizes", Message("diagnosis.same_rank.shards")
                                                 .with("rank", st)
                                                 .with("owned", formatBytes(me.owned))
                                                 .with("mean", formatBytes(static_cast<Bytes>(cap.meanOwned)))
                                                 .with("more", formatPercent(cap.imbalancePct / 100))));
    Message input = Message("diagnosis.same_rank.input")
                        .with("rank", st)
                        .with("share", formatPercent(me.workShare))
                        .with("even", formatPercent(1.0 / n));
    for (const Op& op : s.program)
        if (op.kind == OpKind::Compute && !op.item.empty())
            if (const WorkloadItem* item = s.workload.find(op.item)) {
                input = Message("diagnosis.same_rank.input.holds")
                            .with("input", input)
                            .with("held", formatBytes(item->ownedBy(st)))
                            .with("size", formatBytes(item->size))
                            .with("item", item->name);
                break;
            }
    f.checks.push_back(check("diagnosis.check.input_distribution", input));
    Message slow =
        me.slowdown > 1.0 + 1e-9
            ? Message("diagnosis.same_rank.slow.factor").with("factor", fmt("%.2f", me.slowdown)).with("rank", st)
            : Message("diagnosis.same_rank.slow.none").with("rank", st);
    if (me.delayMs > 0)
        slow = Message("diagnosis.same_rank.slow.delay").with("before", slow).with("ms", fmt("%.3g", me.delayMs));
    if (s.perturbations.jitterPct > 0)
        slow = Message("diagnosis.same_rank.slow.jitter")
                   .with("before", slow)
                   .with("pct", fmt("%.3g%%", s.perturbations.jitterPct));
    f.checks.push_back(check("diagnosis.check.thermal", slow));
    int sameSocket = 0;
    for (const RankEvidence& e : ranks)
        if (e.node == me.node && e.socket == me.socket)
            ++sameSocket;
    f.checks.push_back(check("diagnosis.check.numa", Message("diagnosis.same_rank.numa")
                                                         .with("rank", st)
                                                         .with("node", me.node)
                                                         .with("socket", me.socket)
                                                         .with("same", sameSocket)
                                                         .with("ranks", n)
                                                         .with("in", fmt("%.3g", me.ringInGBps))
                                                         .with("out", fmt("%.3g", me.ringOutGBps))
                                                         .with("slowest", range(inLo, inHi, "GB/s"))));
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
    f.titleMessage = Message("diagnosis.hang.title");
    if (h.firstMismatchRank >= 0)
        f.rank = h.firstMismatchRank;
    std::vector<Message> order, count, left;
    std::vector<int> leftRanks;
    auto opLabel = [&](int op) {
        const Op& o = s.program[static_cast<size_t>(op)];
        return Message("diagnosis.hang.op")
            .with("op", o.name.empty() ? std::string(opName(o.kind)) : o.name)
            .with("step", op + 1);
    };
    for (const Mismatch& m : s.perturbations.mismatches) {
        if (m.iteration != iteration || m.op < 0 || m.op >= static_cast<int>(s.program.size()))
            continue;
        const Op& op = s.program[static_cast<size_t>(m.op)];
        if (m.type == Mismatch::Type::WrongOp)
            order.push_back(Message("diagnosis.hang.wrong_op")
                                .with("rank", m.rank)
                                .with("called", opName(m.replacement))
                                .with("expected", opName(op.kind))
                                .with("op", opLabel(m.op)));
        else if (m.type == Mismatch::Type::WrongCount)
            count.push_back(Message("diagnosis.hang.wrong_count")
                                .with("rank", m.rank)
                                .with("bytes", formatBytes(m.bytes))
                                .with("expected", formatBytes(s.bytesOf(op) / static_cast<Bytes>(op.buckets)))
                                .with("op", opLabel(m.op)));
        else {
            left.push_back(Message("diagnosis.hang.skipped").with("rank", m.rank).with("op", opLabel(m.op)));
            leftRanks.push_back(m.rank);
        }
    }
    for (const RankEvidence& e : ranks)
        if (e.state.find("left") != std::string::npos
            && std::find(leftRanks.begin(), leftRanks.end(), e.rank) == leftRanks.end())
            left.push_back(Message("diagnosis.hang.rank_state").with("rank", e.rank).with("state", e.stateMessage));
    std::vector<Message> last;
    for (const RankEvidence& e : ranks)
        last.push_back(e.lastCompleted < 0
                           ? Message("diagnosis.hang.last.none").with("rank", e.rank)
                           : Message("diagnosis.hang.last").with("rank", e.rank).with("number", e.lastCompleted));
    const Message* blocked = nullptr;
    for (const RankEvidence& e : ranks)
        if (e.state.rfind("blocked", 0) == 0) {
            blocked = &e.stateMessage;
            break;
        }
    const Message orderText = clausesOf(order), countText = clausesOf(count), leftText = clausesOf(left);
    const Message cause = !order.empty()   ? orderText
                          : !count.empty() ? countText
                          : !left.empty()  ? leftText
                                           : h.explanationMessage();
    f.sentenceMessage = blocked
                            ? Message("diagnosis.hang.sentence.blocked")
                                  .with("iteration", iteration + 1)
                                  .with("cause", cause)
                                  .with("blocked", *blocked)
                            : Message("diagnosis.hang.sentence").with("iteration", iteration + 1).with("cause", cause);
    f.checks.push_back(
        check("diagnosis.check.same_order", order.empty() ? Message("diagnosis.hang.order.ok") : orderText));
    f.checks.push_back(check("diagnosis.check.count_type", count.empty() && order.empty()
                                                               ? Message("diagnosis.hang.count.ok")
                                                               : (count.empty() ? orderText : countText)));
    f.checks.push_back(check("diagnosis.check.left", left.empty() ? Message("diagnosis.hang.left.none") : leftText));
    f.checks.push_back(check("diagnosis.check.last_completed", listOf(std::move(last))));
    f.evidenceMessages = {Message("diagnosis.evidence.log"), Message("diagnosis.evidence.nccl_debug"),
                          Message("diagnosis.evidence.last_collective")};
    f.ranks = ranks;
    out.push_back(f);
}

// What each rank owns against its GPU, and which items are replicated: the course's capacity
// exercise ("four 16 GB GPUs, a 24 GB model replicated: why does 64 GB in total not fit?").
void capacityChecks(const Scenario& s, const CapacityReport& cap, Finding& f)
{
    std::vector<Message> owned;
    for (const RankMemory& rm : cap.ranks)
        owned.push_back(Message("diagnosis.capacity.owned_of")
                            .with("rank", rm.rank)
                            .with("owned", formatBytes(rm.owned))
                            .with("capacity", formatBytes(rm.capacity)));
    std::vector<Message> replicated;
    for (const WorkloadItem& item : s.workload.items)
        for (const Shard& sh : item.shards)
            if (sh.owners.size() > 1 && sh.size > 0) {
                replicated.push_back(Message("diagnosis.capacity.replicated_item")
                                         .with("item", item.name)
                                         .with("size", formatBytes(sh.size))
                                         .with("ranks", static_cast<int>(sh.owners.size())));
                break;
            }
    std::vector<Message> peak;
    for (const RankMemory& rm : cap.ranks)
        if (rm.transient > 0)
            peak.push_back(
                Message("diagnosis.capacity.peak_of").with("rank", rm.rank).with("peak", formatBytes(rm.peak())));
    f.checks.push_back(check("diagnosis.check.owned_vs_capacity", listOf(std::move(owned))));
    f.checks.push_back(check("diagnosis.check.peak",
                             peak.empty() ? Message("diagnosis.capacity.peak.none") : listOf(std::move(peak))));
    f.checks.push_back(check("diagnosis.check.replicated", replicated.empty()
                                                               ? Message("diagnosis.capacity.replicated.none")
                                                               : listOf(std::move(replicated))));
    f.evidenceMessages = {Message("diagnosis.evidence.memory"), Message("diagnosis.evidence.placement")};
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
    f.titleMessage = Message("diagnosis.capacity.title");
    if (over > 0)
        f.sentenceMessage = Message("diagnosis.capacity.sentence.owned")
                                .with("over", over)
                                .with("ranks", s.ranks())
                                .with("rank", worst->rank)
                                .with("owned", formatBytes(worst->owned))
                                .with("capacity", formatBytes(worst->capacity))
                                .with("excess", formatBytes(worst->excess()));
    else
        f.sentenceMessage = Message("diagnosis.capacity.sentence.buffer")
                                .with("over", peakOver)
                                .with("ranks", s.ranks())
                                .with("rank", worst->rank)
                                .with("owned", formatBytes(worst->owned))
                                .with("transient", formatBytes(worst->transient))
                                .with("peak", formatBytes(worst->peak()))
                                .with("capacity", formatBytes(worst->capacity))
                                .with("excess", formatBytes(worst->peakExcess()));
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
    f.titleMessage = Message("diagnosis.paging.title");
    f.sentenceMessage = Message(sum.stepTimeMs > 0 ? "diagnosis.paging.sentence.share" : "diagnosis.paging.sentence")
                            .with("rank", worst)
                            .with("owned", formatBytes(rm.owned))
                            .with("capacity", formatBytes(rm.capacity))
                            .with("excess", formatBytes(rm.excess()))
                            .with("ms", fmt("%.1f", ms));
    if (sum.stepTimeMs > 0)
        f.sentenceMessage.arg("share", formatPercent(ms / sum.stepTimeMs)).arg("step", fmt("%.3g", sum.stepTimeMs));
    capacityChecks(s, cap, f);
    f.checks.push_back(
        check("diagnosis.check.paging",
              Message("diagnosis.paging.per_iteration").with("rank", worst).with("ms", fmt("%.1f", ms))));
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
    return wordedIn(std::move(out), Language::English);
}

Finding wordedIn(Finding f, Language language)
{
    f.title = render(f.titleMessage, language);
    f.sentence = render(f.sentenceMessage, language);
    for (Check& c : f.checks) {
        c.what = render(c.whatMessage, language);
        c.shows = render(c.showsMessage, language);
    }
    f.evidenceNeeded.clear();
    for (const Message& m : f.evidenceMessages)
        f.evidenceNeeded.push_back(render(m, language));
    for (RankEvidence& e : f.ranks)
        if (!e.stateMessage.empty())
            e.state = render(e.stateMessage, language);
    for (CollectiveEvidence& c : f.collectives)
        if (!c.bottleneckLinkMessage.empty())
            c.bottleneckLink = render(c.bottleneckLinkMessage, language);
    return f;
}

std::vector<Finding> wordedIn(std::vector<Finding> findings, Language language)
{
    for (Finding& f : findings)
        f = wordedIn(std::move(f), language);
    return findings;
}

std::string severityWord(Severity severity, Language language)
{
    return render(Message(std::string("diagnosis.severity.") + severityName(severity)), language);
}

} // namespace shardlab
