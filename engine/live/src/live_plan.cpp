#include "shardlab/live/live_plan.h"

#include "shardlab/model/capacity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace shardlab {
namespace {

std::uint64_t elementsOf(Bytes bytes) { return std::max<std::uint64_t>(1, bytes / kLiveElementBytes); }

Bytes scaled(Bytes bytes, double scale)
{
    if (scale >= 1.0)
        return bytes;
    return std::max<Bytes>(kLiveElementBytes, static_cast<Bytes>(std::floor(static_cast<double>(bytes) * scale)));
}

// All-gather-v: each member contributes the bytes it owns of the item, rescaled to op.bytes when
// given (the simulator's rule), per bucket, scaled, in elements.
std::vector<std::uint64_t> piecesFor(const Scenario& s, const Op& op, const std::vector<int>& group, double scale)
{
    const WorkloadItem* item = s.workload.find(op.item);
    std::vector<Bytes> bytes;
    Bytes total = 0;
    for (int r : group) {
        bytes.push_back(item ? item->ownedBy(r) : 0);
        total += bytes.back();
    }
    if (op.bytes && total > 0 && *op.bytes != total)
        for (Bytes& b : bytes)
            b = static_cast<Bytes>(static_cast<double>(b) * static_cast<double>(*op.bytes)
                                   / static_cast<double>(total));
    std::vector<std::uint64_t> pieces;
    for (Bytes b : bytes) {
        const Bytes perBucket = b / static_cast<Bytes>(std::max(1, op.buckets));
        pieces.push_back(perBucket == 0 ? 0 : scaled(perBucket, scale) / kLiveElementBytes);
    }
    return pieces;
}

int memberOf(const std::vector<int>& group, int rank)
{
    const auto it = std::find(group.begin(), group.end(), rank);
    return it == group.end() ? -1 : static_cast<int>(it - group.begin());
}

double roundDown3(double x)
{
    if (x <= 0)
        return 0;
    const double p = std::pow(10.0, std::floor(std::log10(x)) - 2);
    return std::floor(x / p + 1e-9) * p; // 0.25 / 0.001 is 249.999... in binary
}

struct BufferNeed {
    Bytes send = 0, recv = 0;
    Bytes total() const { return send + recv; }
};

// Every call each rank may make (its normal calls and its mismatched ones), with sizes at `scale`.
std::vector<BufferNeed> buffersNeeded(const Scenario& s, const LivePlan& plan)
{
    std::vector<BufferNeed> need(static_cast<size_t>(s.ranks()));
    auto account = [&](int rank, const ProgramStep& st, int iteration) {
        const Op& op = s.program[static_cast<size_t>(st.op)];
        const std::vector<int>& group = plan.groups[static_cast<size_t>(plan.opGroup[static_cast<size_t>(st.op)])];
        const int member = memberOf(group, rank);
        if (member < 0)
            return;
        const LiveCall call = liveCall(s, plan, rank, st, iteration);
        if (call.skipped)
            return;
        const int root = op.kind == OpKind::SendRecv || op.kind == OpKind::Reduce || op.kind == OpKind::Broadcast
                             ? std::max(0, memberOf(group, op.root))
                             : 0;
        const CallShape shape = callShape(call.kind, call.bytes, static_cast<int>(group.size()), member, root,
                                          plan.pieces[static_cast<size_t>(st.op)]);
        BufferNeed& n = need[static_cast<size_t>(rank)];
        n.send = std::max(n.send, shape.sendCount * kLiveElementBytes);
        n.recv = std::max(n.recv, shape.recvCount * kLiveElementBytes);
    };
    for (int r = 0; r < s.ranks(); ++r)
        for (const ProgramStep& st : plan.steps)
            if (plan.opGroup[static_cast<size_t>(st.op)] >= 0)
                account(r, st, -1); // iteration -1: no mismatch applies
    for (const Mismatch& m : s.perturbations.mismatches)
        for (const ProgramStep& st : plan.steps)
            if (st.op == m.op && plan.opGroup[static_cast<size_t>(st.op)] >= 0 && m.rank >= 0 && m.rank < s.ranks())
                account(m.rank, st, m.iteration);
    return need;
}

} // namespace

CallShape callShape(OpKind kind, Bytes bytes, int members, int member, int rootMember,
                    const std::vector<std::uint64_t>& pieces)
{
    CallShape c;
    const auto n = static_cast<std::uint64_t>(std::max(1, members));
    const bool root = member == rootMember;
    switch (kind) {
    case OpKind::Compute: break;
    case OpKind::AllReduce: c.count = c.sendCount = c.recvCount = elementsOf(bytes); break;
    case OpKind::Reduce:
        c.count = c.sendCount = elementsOf(bytes);
        c.recvCount = root ? c.count : 0;
        break;
    case OpKind::Broadcast:
        c.count = c.recvCount = elementsOf(bytes);
        c.sendCount = root ? c.count : 0;
        break;
    case OpKind::AllGather:
        c.perRank = std::max<std::uint64_t>(1, bytes / kLiveElementBytes / n);
        c.count = c.recvCount = c.perRank * n;
        c.sendCount = c.perRank;
        break;
    case OpKind::AllGatherV:
        if (pieces.size() == n) {
            for (std::uint64_t p : pieces)
                c.count += p;
            c.sendCount = pieces[static_cast<size_t>(member)];
            c.perRank = c.sendCount;
        } else { // a mismatched call turned into all-gather-v: equal pieces
            c.perRank = c.sendCount = std::max<std::uint64_t>(1, bytes / kLiveElementBytes / n);
            c.count = c.perRank * n;
        }
        c.recvCount = c.count;
        break;
    case OpKind::ReduceScatter:
        c.perRank = std::max<std::uint64_t>(1, bytes / kLiveElementBytes / n);
        c.count = c.sendCount = c.perRank * n;
        c.recvCount = c.perRank;
        break;
    case OpKind::ReduceScatterAllGather:
        c.perRank = std::max<std::uint64_t>(1, bytes / kLiveElementBytes / n);
        c.count = c.sendCount = c.recvCount = c.perRank * n;
        break;
    case OpKind::SendRecv:
        c.count = elementsOf(bytes);
        c.sendCount = root ? c.count : 0;
        c.recvCount = root ? 0 : c.count;
        break;
    }
    return c;
}

LiveCall liveCall(const Scenario& s, const LivePlan& plan, int rank, const ProgramStep& st, int iteration)
{
    const Op& op = s.program[static_cast<size_t>(st.op)];
    LiveCall call;
    call.kind = op.kind;
    call.bytes = s.bytesOf(op) / static_cast<Bytes>(std::max(1, op.buckets));
    // The simulator's rules: a skip drops every bucket of the op; a wrong op or count changes bucket 0.
    for (const Mismatch& m : s.perturbations.mismatches) {
        if (m.rank != rank || m.op != st.op || m.iteration != iteration)
            continue;
        if (m.type == Mismatch::Type::Skip) {
            call.skipped = call.mismatched = true;
        } else if (st.bucket == 0 && m.type == Mismatch::Type::WrongOp) {
            call.kind = m.replacement;
            call.mismatched = true;
        } else if (st.bucket == 0 && m.type == Mismatch::Type::WrongCount) {
            call.bytes = m.bytes;
            call.mismatched = true;
        }
    }
    call.bytes = scaled(call.bytes, plan.scale);
    const auto& pieces = plan.pieces[static_cast<size_t>(st.op)];
    if (call.kind == OpKind::AllGatherV && !pieces.empty() && op.kind == OpKind::AllGatherV && !call.mismatched) {
        Bytes total = 0;
        for (std::uint64_t p : pieces)
            total += p * kLiveElementBytes;
        call.bytes = total;
    }
    return call;
}

Status checkLiveEvents(const Scenario& s, bool captureTimeline, std::uint64_t limit)
{
    if (!captureTimeline)
        return {};
    if (Status st = checkEventCount(s, limit); !st)
        return badInput(
            Message("error.live.or_no_timeline").with("reason", messageOf(st.error())).with("option", "--no-timeline"));
    return {};
}

Result<LivePlan> planLive(const Scenario& s, const std::vector<Bytes>& freeBytes, Bytes reservedBytes,
                          double memoryFraction, bool fitToMemory)
{
    if (Status st = validateScenario(s); !st)
        return st.error();
    const int n = s.ranks();
    if (static_cast<int>(freeBytes.size()) < n)
        return badInput(
            Message("error.live.plan_free_memory").with("gpus", static_cast<int>(freeBytes.size())).with("ranks", n));
    if (!(memoryFraction > 0 && memoryFraction <= 1))
        return badInput(Message("error.live.plan_fraction"));
    LivePlan plan;
    plan.computeShares = computeShares(s);
    plan.steps = expandSteps(s.program);
    plan.opGroup.assign(s.program.size(), -1);
    plan.pieces.assign(s.program.size(), {});
    std::map<std::vector<int>, int> ids;
    for (size_t i = 0; i < s.program.size(); ++i) {
        const Op& op = s.program[i];
        if (!isCollective(op.kind))
            continue;
        std::vector<int> g = s.groupOf(op);
        std::sort(g.begin(), g.end());
        g.erase(std::unique(g.begin(), g.end()), g.end());
        auto [it, inserted] = ids.emplace(g, static_cast<int>(plan.groups.size()));
        if (inserted)
            plan.groups.push_back(g);
        plan.opGroup[i] = it->second;
    }
    auto fillPieces = [&] {
        for (size_t i = 0; i < s.program.size(); ++i)
            if (s.program[i].kind == OpKind::AllGatherV)
                plan.pieces[i] =
                    piecesFor(s, s.program[i], plan.groups[static_cast<size_t>(plan.opGroup[i])], plan.scale);
    };
    fillPieces();
    std::vector<BufferNeed> need = buffersNeeded(s, plan);

    std::vector<double> budget(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        const Bytes f = freeBytes[static_cast<size_t>(r)];
        budget[static_cast<size_t>(r)] =
            memoryFraction * static_cast<double>(f > reservedBytes ? f - reservedBytes : 0);
    }
    int worst = -1;
    double factor = 1.0;
    for (int r = 0; r < n; ++r) {
        const double asked = static_cast<double>(need[static_cast<size_t>(r)].total());
        if (asked > budget[static_cast<size_t>(r)] && asked > 0) {
            const double f = budget[static_cast<size_t>(r)] / asked;
            if (f < factor) {
                factor = f;
                worst = r;
            }
        }
    }
    if (worst >= 0 && fitToMemory) {
        const Bytes asked = need[static_cast<size_t>(worst)].total();
        // Rounding to whole elements can add a few bytes: shrink until every rank fits.
        for (double f = roundDown3(factor); f > 0; f = roundDown3(f * 0.99)) {
            plan.scale = f;
            fillPieces();
            need = buffersNeeded(s, plan);
            bool fits = true;
            for (int r = 0; r < n; ++r)
                fits =
                    fits && static_cast<double>(need[static_cast<size_t>(r)].total()) <= budget[static_cast<size_t>(r)];
            if (fits)
                break;
        }
        plan.notes.push_back(Message("live.note.scaled")
                                 .with("scale", number("%.3g", plan.scale))
                                 .with("rank", worst)
                                 .with("need", formatBytes(asked))
                                 .with("free", formatBytes(freeBytes[static_cast<size_t>(worst)]))
                                 .with("percent", number("%.0f", memoryFraction * 100)));
    }
    plan.sendBytes.resize(static_cast<size_t>(n));
    plan.recvBytes.resize(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        plan.sendBytes[static_cast<size_t>(r)] = need[static_cast<size_t>(r)].send;
        plan.recvBytes[static_cast<size_t>(r)] = need[static_cast<size_t>(r)].recv;
    }
    // With a mismatch, a peer may write as much as its own (wrong) call says into this rank's
    // buffers (NCCL writes directly into peers' buffers within a process): every rank gets the
    // largest buffers any rank needs, so that a deliberate mistake hangs instead of corrupting memory.
    if (!s.perturbations.mismatches.empty()) {
        const Bytes send = *std::max_element(plan.sendBytes.begin(), plan.sendBytes.end());
        const Bytes recv = *std::max_element(plan.recvBytes.begin(), plan.recvBytes.end());
        plan.sendBytes.assign(static_cast<size_t>(n), send);
        plan.recvBytes.assign(static_cast<size_t>(n), recv);
    }
    if (s.memoryMode == MemoryMode::Unified && !capacityOf(s).allFit())
        plan.notes.push_back(Message("live.note.no_paging"));
    return plan;
}

double liveComputeUs(const Scenario& s, const LivePlan& plan, const CostModel& model, int rank, const ProgramStep& st,
                     int iteration)
{
    const Op& op = s.program[static_cast<size_t>(st.op)];
    if (op.kind != OpKind::Compute)
        return 0;
    const double fraction = plan.computeShares.at(static_cast<size_t>(st.op)).at(static_cast<size_t>(rank));
    return model.computeUs(op.flops * fraction / std::max(1, op.buckets), rank, s.perturbations.slowdownOf(rank))
           * s.perturbations.jitterFactor(rank, st.op, iteration, st.bucket);
}

namespace {
// A compute step whose GEMMs `rank` runs: it names some and the rank has a share of it (`shares`:
// the step's, by rank; empty for a collective). One condition for the run and the operand buffers
// reserved before it.
bool gemmsOf(const Op& op, const std::vector<double>& shares, int rank)
{
    return op.kind == OpKind::Compute && !op.gemms.empty() && shares.at(static_cast<size_t>(rank)) > 0;
}
} // namespace

bool runsGemms(const Scenario& s, const LivePlan& plan, int rank, const ProgramStep& st)
{
    return gemmsOf(s.program[static_cast<size_t>(st.op)], plan.computeShares.at(static_cast<size_t>(st.op)), rank);
}

double liveKernelUs(const Scenario& s, const LivePlan& plan, const CostModel& model, int rank, const ProgramStep& st,
                    int iteration, bool gemmsRun)
{
    const double us = liveComputeUs(s, plan, model, rank, st, iteration);
    if (!gemmsRun)
        return us;
    return us * (1 - std::clamp(s.program[static_cast<size_t>(st.op)].gemmShare, 0.0, 1.0));
}

GemmOperands gemmOperandsOf(const Scenario& s, const std::vector<std::vector<double>>& shares, int rank)
{
    GemmOperands most;
    for (size_t i = 0; i < s.program.size(); ++i) {
        const Op& op = s.program[i];
        if (!gemmsOf(op, shares.at(i), rank))
            continue;
        for (const OpGemm& g : op.gemms) {
            const auto m = static_cast<std::uint64_t>(g.shape.m), n = static_cast<std::uint64_t>(g.shape.n),
                       k = static_cast<std::uint64_t>(g.shape.k);
            most.a = std::max(most.a, m * k);
            most.b = std::max(most.b, k * n);
            most.c = std::max(most.c, m * n);
        }
    }
    return most;
}

double liveDelayUs(const Scenario& s, int rank, const ProgramStep& st, int iteration)
{
    double us = 0;
    for (const Delay& d : s.perturbations.delays)
        if (st.bucket == 0 && d.rank == rank && d.op == st.op && (d.iteration < 0 || d.iteration == iteration)
            && d.ms > 0)
            us += d.ms * 1e3;
    return us;
}

Message allocationFailure(int rank, int device, Message what, Bytes asked, Bytes freeBytes, Bytes totalBytes)
{
    return Message("error.line.rank_says")
        .with("rank", rank)
        .with("reason", Message("error.live.allocation_failed")
                            .with("bytes", formatBytes(asked))
                            .with("what", std::move(what))
                            .with("device", device)
                            .with("free", formatBytes(freeBytes))
                            .with("total", formatBytes(totalBytes)));
}

std::string allocationFailureMessage(int rank, int device, const std::string& what, Bytes asked, Bytes freeBytes,
                                     Bytes totalBytes)
{
    return english(allocationFailure(rank, device, verbatim(what), asked, freeBytes, totalBytes));
}

} // namespace shardlab
