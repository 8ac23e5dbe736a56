#include "shardlab/analysis/summary.h"

#include "shardlab/model/capacity.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace shardlab {

const char* bottleneckName(Bottleneck b)
{
    switch (b) {
    case Bottleneck::Compute: return "compute";
    case Bottleneck::Communication: return "communication";
    case Bottleneck::Wait: return "wait";
    case Bottleneck::Capacity: return "capacity";
    case Bottleneck::Hang: return "hang";
    }
    return "?";
}

Message bottleneckMessage(Bottleneck b) { return Message(std::string("summary.bottleneck.") + bottleneckName(b)); }

double oneGpuTimeMs(const Scenario& s, const CostProfile& profile)
{
    // Every compute op's whole work once (an item's compute counted once however it is split or
    // replicated), at rank 0's rate, without slowdown, jitter or communication.
    if (s.ranks() == 0)
        return 0;
    const Gpu& g = s.topology.gpus.front();
    double eff = 1.0;
    if (auto it = profile.computeEfficiency.find(g.name); it != profile.computeEfficiency.end())
        eff = it->second;
    double us = 0;
    for (const Op& op : s.program)
        if (op.kind == OpKind::Compute)
            us += op.flops / (g.tflops * 1e12 * eff) * 1e6;
    return us / 1e3;
}

namespace {

// A compute step over an item that no rank owns: every rank computes nothing for it, while the
// one-GPU time counts all of it.
const Op* unownedCompute(const Scenario& s)
{
    for (const Op& op : s.program) {
        if (op.kind != OpKind::Compute || op.item.empty() || op.flops <= 0)
            continue;
        const WorkloadItem* item = s.workload.find(op.item);
        if (!item)
            continue;
        // some rank of the topology owns a non-empty shard of it (one pass over the owners, not
        // ownedBy() per rank: that is O(ranks x shards), quadratic for a batch split over every rank)
        const bool owned = std::any_of(item->shards.begin(), item->shards.end(), [&](const Shard& sh) {
            return sh.size > 0
                   && std::any_of(sh.owners.begin(), sh.owners.end(), [&](int r) { return r >= 0 && r < s.ranks(); });
        });
        if (!owned)
            return &op;
    }
    return nullptr;
}

// Whether the speed-up and efficiency mean anything, and if not or if they look impossible, why
// (docs/cost-model.md, "What the summary means").
void explainSpeedup(const Scenario& s, Summary& sum)
{
    auto none = [&](Message why) {
        sum.hasSpeedup = false;
        sum.speedup = 0;
        sum.efficiency = 0;
        sum.speedupNoteMessage = std::move(why);
    };
    if (!sum.oneGpuKnown)
        none(Message("summary.no_speedup.observed"));
    else if (sum.hang)
        none(Message("summary.no_speedup.hung"));
    else if (sum.oneGpuMs <= 0)
        none(Message("summary.no_speedup.no_compute"));
    else if (sum.ranks == 1)
        none(Message("summary.no_speedup.one_gpu"));
    else if (const Op* op = unownedCompute(s))
        none(Message("summary.no_speedup.unowned").with("op", op->name).with("item", op->item));
    else if (sum.efficiency > 1.0 + 1e-9)
        sum.speedupNoteMessage = Message("summary.note.above_100");
}

// The summary's sentence: one whole sentence per case, so that each language words it whole.
Message sentenceFor(const Scenario& s, const Summary& sum, const RunResult& run)
{
    const int n = sum.ranks;
    if (sum.bottleneck == Bottleneck::Capacity) {
        const CapacityReport cap = capacityOf(s);
        for (const RankMemory& rm : cap.ranks)
            if (!rm.ownedFits()) {
                if (s.memoryMode == MemoryMode::Unified)
                    return Message("summary.capacity.paging")
                        .with("rank", rm.rank)
                        .with("owned", formatBytes(rm.owned))
                        .with("capacity", formatBytes(rm.capacity))
                        .with("ms", number("%.1f", run.pagingUs.size() > static_cast<size_t>(rm.rank)
                                                       ? run.pagingUs[static_cast<size_t>(rm.rank)] / 1e3
                                                       : 0.0));
                return Message("summary.capacity.owned")
                    .with("rank", rm.rank)
                    .with("owned", formatBytes(rm.owned))
                    .with("capacity", formatBytes(rm.capacity));
            }
        for (const RankMemory& rm : cap.ranks)
            if (!rm.fits())
                return Message("summary.capacity.buffer")
                    .with("rank", rm.rank)
                    .with("owned", formatBytes(rm.owned))
                    .with("capacity", formatBytes(rm.capacity))
                    .with("transient", formatBytes(rm.transient))
                    .with("peak", formatBytes(rm.peak()));
    }
    if (sum.bottleneck == Bottleneck::Wait && sum.straggler) {
        const int st = *sum.straggler;
        // what the straggler holds of the item its compute runs over
        const WorkloadItem* held = nullptr;
        for (const Op& op : s.program) {
            if (op.kind != OpKind::Compute || op.item.empty())
                continue;
            if ((held = s.workload.find(op.item)))
                break;
        }
        double lo = 1e300, hi = 0;
        for (const RankBreakdown& rb : sum.perRank)
            if (rb.rank != st) {
                lo = std::min(lo, rb.waitMs);
                hi = std::max(hi, rb.waitMs);
            }
        std::vector<Message> kinds;
        std::vector<OpKind> seen;
        for (const CollectiveFigures& c : sum.collectives)
            if (std::find(seen.begin(), seen.end(), c.kind) == seen.end()) {
                seen.push_back(c.kind);
                // the display names are the collectives' own (All-Reduce...), but one has English words
                kinds.push_back(c.kind == OpKind::AllGatherV ? Message("summary.op.all_gather_v")
                                                             : verbatim(opDisplayName(c.kind)));
            }
        const std::string wait = std::fabs(hi - lo) < 0.05
                                     ? number("%.1f ms", hi)
                                     : number("%.1f", lo) + "\xe2\x80\x93" + number("%.1f ms", hi);
        Message m(std::string("summary.wait.") + (held ? "holds" : "slowest") + (kinds.empty() ? "" : "_at"));
        m.arg("rank", st);
        if (held)
            m.arg("held", formatBytes(held->ownedBy(st))).arg("size", formatBytes(held->size)).arg("item", held->name);
        m.arg("wait", wait);
        if (!kinds.empty())
            m.arg("collectives", listOf(std::move(kinds)));
        return m;
    }
    if (sum.bottleneck == Bottleneck::Communication || sum.bottleneck == Bottleneck::Wait) {
        const CollectiveFigures* worst = nullptr;
        for (const CollectiveFigures& c : sum.collectives)
            if (!worst || c.timeMs * c.count > worst->timeMs * worst->count)
                worst = &c;
        Message m(std::string("summary.communication") + (worst ? ".worst" : "")
                  + (sum.hasSpeedup ? "" : ".no_speedup"));
        m.arg("share", formatPercent(sum.commShare));
        if (worst)
            m.arg("name", worst->name)
                .arg("bytes", formatBytes(worst->bytes))
                .arg("busbw", number("%.1f", worst->busbwGBps));
        if (sum.hasSpeedup)
            m.arg("gpus", n)
                .arg("speedup", number("%.2fx", sum.speedup))
                .arg("efficiency", formatPercent(sum.efficiency));
        else
            m.arg("why", sum.speedupNoteMessage);
        return m;
    }
    if (!sum.hasSpeedup)
        return Message("summary.compute.no_speedup")
            .with("compute", formatPercent(sum.computeShare))
            .with("comm", formatPercent(sum.commShare))
            .with("why", sum.speedupNoteMessage);
    return Message("summary.compute")
        .with("compute", formatPercent(sum.computeShare))
        .with("comm", formatPercent(sum.commShare))
        .with("speedup", number("%.2fx", sum.speedup))
        .with("gpus", n)
        .with("efficiency", formatPercent(sum.efficiency));
}

} // namespace

Summary summarize(const Scenario& s, const RunResult& run)
{
    Summary sum;
    sum.mode = run.mode;
    sum.ranks = run.ranks;
    const int n = run.ranks;
    int completed = 0;
    double total = 0;
    for (size_t i = 0; i < run.iterations.size(); ++i) {
        if (run.hang && i + 1 == run.iterations.size() && run.iterations.size() > 1)
            break; // the hung iteration never finished
        total += run.iterations[i].endUs - run.iterations[i].beginUs;
        ++completed;
    }
    const int iters = std::max(1, completed);
    sum.stepTimeMs = completed ? total / completed / 1e3 : 0;
    // One decision for what a profiled program leaves unknown (its memory, its time on one GPU).
    const bool observed = s.strategy == kObservedStrategy;
    sum.memoryKnown = !observed;
    sum.oneGpuKnown = !observed;
    sum.oneGpuMs = observed ? 0 : oneGpuTimeMs(s);
    sum.speedup = sum.stepTimeMs > 0 ? sum.oneGpuMs / sum.stepTimeMs : 0;
    sum.efficiency = n > 0 ? sum.speedup / n : 0;
    sum.hang = run.hang;
    explainSpeedup(s, sum);

    const CapacityReport cap = capacityOf(s);
    sum.perRank.resize(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        RankBreakdown& rb = sum.perRank[static_cast<size_t>(r)];
        rb.rank = r;
        rb.device = r < static_cast<int>(run.devices.size()) ? run.devices[static_cast<size_t>(r)] : "";
        rb.capacity = r < s.ranks() ? s.topology.gpus[static_cast<size_t>(r)].memory : 0;
        rb.peakMemory = r < static_cast<int>(run.peakMemory.size()) ? run.peakMemory[static_cast<size_t>(r)] : 0;
        if (r < static_cast<int>(cap.ranks.size())) {
            rb.owned = cap.ranks[static_cast<size_t>(r)].owned;
            rb.fits = cap.ranks[static_cast<size_t>(r)].fits();
        }
    }
    for (const Span& sp : run.spans) {
        if (sp.stream != 0 || sp.rank < 0 || sp.rank >= n)
            continue;
        if (run.hang && sp.iteration >= completed && completed > 0)
            continue;
        RankBreakdown& rb = sum.perRank[static_cast<size_t>(sp.rank)];
        const double ms = sp.durationUs() / 1e3;
        switch (sp.kind) {
        case SpanKind::Compute: rb.computeMs += ms; break;
        case SpanKind::Comm: rb.commMs += ms; break;
        case SpanKind::Wait: rb.waitMs += ms; break;
        }
    }
    double c = 0, m = 0, w = 0;
    for (RankBreakdown& rb : sum.perRank) {
        rb.computeMs /= iters;
        rb.commMs /= iters;
        rb.waitMs /= iters;
        c += rb.computeMs;
        m += rb.commMs;
        w += rb.waitMs;
        sum.fits = sum.fits && rb.fits;
    }
    // A job that does not fit in strict memory stops with out-of-memory on real GPUs: its
    // simulated step shows where the time would go, but it is no speed to compare with one GPU.
    if (!sum.fits && s.memoryMode == MemoryMode::Strict && sum.hasSpeedup && !sum.hang) {
        sum.hasSpeedup = false;
        sum.speedup = 0;
        sum.efficiency = 0;
        sum.speedupNoteMessage = Message("summary.no_speedup.does_not_fit");
    }
    const double rankTime = sum.stepTimeMs * n;
    if (rankTime > 0) {
        sum.computeShare = c / rankTime;
        sum.commShare = m / rankTime;
        sum.waitShare = w / rankTime;
    }

    // The straggler: the rank whose late arrivals cause the most waiting (the others' waits at the
    // collectives it reached last: their Wait spans that name it; ties: the one last most often),
    // if that waiting matters (at least 2% of the step, averaged over the other ranks). Counting how
    // often a rank is last alone named a rank last by hairs at many collectives over one late by
    // 400 ms at one per step. The waits, not the arrivals: a member whose part ended before the
    // last arrival (a profiled send or broadcast root that NCCL let go at once) waited only until
    // its own end (trace_merge.h), so the gap between the arrivals is not all waiting.
    std::vector<double> caused(static_cast<size_t>(n), 0.0);
    for (const CollectiveRecord& rec : run.collectives)
        if (rec.lastArrival >= 0)
            ++sum.perRank[static_cast<size_t>(rec.lastArrival)].timesLast;
    for (const Span& sp : run.spans) // at a collective (a hung run's wait for a mismatch is not a lateness)
        if (sp.kind == SpanKind::Wait && sp.collective >= 0 && sp.waitedFor >= 0 && sp.waitedFor < n)
            caused[static_cast<size_t>(sp.waitedFor)] += sp.durationUs();
    int top = -1;
    for (int r = 0; r < n; ++r)
        if (sum.perRank[static_cast<size_t>(r)].timesLast > 0
            && (top < 0 || caused[static_cast<size_t>(r)] > caused[static_cast<size_t>(top)]
                || (caused[static_cast<size_t>(r)] == caused[static_cast<size_t>(top)]
                    && sum.perRank[static_cast<size_t>(r)].timesLast
                           > sum.perRank[static_cast<size_t>(top)].timesLast)))
            top = r;
    if (top >= 0 && n > 1) {
        const double perIterMs = caused[static_cast<size_t>(top)] / (n - 1) / iters / 1e3;
        if (perIterMs >= 0.02 * sum.stepTimeMs)
            sum.straggler = top;
    }

    // Collective figures per program step and size.
    std::map<std::tuple<int, int, Bytes>, CollectiveFigures> figs;
    for (const CollectiveRecord& rec : run.collectives) {
        auto& f = figs[{rec.op, static_cast<int>(rec.kind), rec.bytes}];
        if (f.count == 0) {
            const Op& op = s.program[static_cast<size_t>(rec.op)];
            f.name = op.name.empty() ? opName(rec.kind) : op.name;
            f.kind = rec.kind;
            f.bytes = rec.bytes;
            f.ranks = static_cast<int>(rec.group.size());
        }
        f.timeMs += rec.durationUs() / 1e3;
        ++f.count;
    }
    for (auto& [key, f] : figs) {
        f.timeMs /= f.count;
        f.algbwGBps = f.timeMs > 0 ? static_cast<double>(f.bytes) / (f.timeMs / 1e3) / kGB : 0;
        f.busbwGBps = f.algbwGBps * busBandwidthFactor(f.kind, f.ranks);
        sum.collectives.push_back(f);
    }

    // The bottleneck: capacity first; otherwise the largest of mean compute, exposed
    // communication and wait. Within 1% counts as a tie, and ties go to wait, then communication:
    // when waiting costs as much as computing, the imbalance is what to fix.
    const bool paging = std::any_of(run.pagingUs.begin(), run.pagingUs.end(), [](double p) { return p > 0; });
    auto atLeast = [](double a, double b) { return a >= 0.99 * b; };
    if (!sum.fits && (s.memoryMode == MemoryMode::Strict || paging))
        sum.bottleneck = Bottleneck::Capacity;
    else if (w > 0 && atLeast(w, m) && atLeast(w, c))
        sum.bottleneck = Bottleneck::Wait;
    else if (m > 0 && atLeast(m, c))
        sum.bottleneck = Bottleneck::Communication;
    else
        sum.bottleneck = Bottleneck::Compute;
    if (run.hang)
        sum.bottleneck = Bottleneck::Hang;
    sum.sentenceMessage = sentenceFor(s, sum, run);
    if (sum.hasSpeedup && !sum.speedupNoteMessage.empty())
        sum.sentenceMessage =
            Message("summary.with_note").with("sentence", sum.sentenceMessage).with("note", sum.speedupNoteMessage);
    if (run.hang)
        sum.sentenceMessage = Message("summary.hung").with("explanation", run.hang->explanationMessage());
    return wordedIn(std::move(sum), Language::English);
}

Summary wordedIn(Summary summary, Language language)
{
    summary.sentence = render(summary.sentenceMessage, language);
    summary.speedupNote = render(summary.speedupNoteMessage, language);
    return summary;
}

std::string wordedSentence(const Summary& summary, Language language)
{
    return render(summary.sentenceMessage, language);
}

} // namespace shardlab
