#include "shardlab/analysis/summary.h"

#include "shardlab/model/capacity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
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
    auto none = [&](std::string why) {
        sum.hasSpeedup = false;
        sum.speedup = 0;
        sum.efficiency = 0;
        sum.speedupNote = std::move(why);
    };
    if (sum.hang)
        none("the run hung, so it has no finished step to compare with one GPU");
    else if (sum.oneGpuMs <= 0)
        none("the program has no compute, so there is nothing to speed up");
    else if (sum.ranks == 1)
        none("a run on one GPU has no one-GPU run to be compared with");
    else if (const Op* op = unownedCompute(s))
        none("compute step '" + op->name + "' runs over '" + op->item
             + "', which no rank owns: no GPU does that work here, while one GPU would do all of it (give the item an"
               " owner)");
    else if (sum.efficiency > 1.0 + 1e-9)
        sum.speedupNote = "the efficiency is above 100% because 'one GPU' is rank 0's GPU, and other ranks compute faster"
                          " (faster GPUs or slowdowns below 1)";
}

std::string fmt(const char* f, double a) { char b[64]; std::snprintf(b, sizeof b, f, a); return b; }

std::string sentenceFor(const Scenario& s, const Summary& sum, const RunResult& run)
{
    const int n = sum.ranks;
    char buf[512];
    if (sum.bottleneck == Bottleneck::Capacity) {
        const CapacityReport cap = capacityOf(s);
        for (const RankMemory& rm : cap.ranks)
            if (!rm.ownedFits()) {
                std::snprintf(buf, sizeof buf,
                              "Rank %d owns %s but its GPU holds %s: the job does not fit as placed; split the largest "
                              "items (ZeRO-3, tensor or pipeline parallel) instead of replicating them.",
                              rm.rank, formatBytes(rm.owned).c_str(), formatBytes(rm.capacity).c_str());
                if (s.memoryMode == MemoryMode::Unified)
                    std::snprintf(buf, sizeof buf,
                                  "Rank %d owns %s on a %s GPU; unified memory pages the excess over the host link, "
                                  "costing %.1f ms every iteration.",
                                  rm.rank, formatBytes(rm.owned).c_str(), formatBytes(rm.capacity).c_str(),
                                  run.pagingUs.size() > static_cast<size_t>(rm.rank) ? run.pagingUs[static_cast<size_t>(rm.rank)] / 1e3 : 0.0);
                return buf;
            }
        for (const RankMemory& rm : cap.ranks)
            if (!rm.fits()) {
                std::snprintf(buf, sizeof buf,
                              "Rank %d owns %s, which fits its %s GPU, but a collective's %s buffer brings its peak to "
                              "%s: send the collective in buckets or shard its item further.",
                              rm.rank, formatBytes(rm.owned).c_str(), formatBytes(rm.capacity).c_str(),
                              formatBytes(rm.transient).c_str(), formatBytes(rm.peak()).c_str());
                return buf;
            }
    }
    if (sum.bottleneck == Bottleneck::Wait && sum.straggler) {
        const int st = *sum.straggler;
        // what the straggler holds of the item its compute runs over
        std::string holds;
        for (const Op& op : s.program) {
            if (op.kind != OpKind::Compute || op.item.empty())
                continue;
            if (const WorkloadItem* item = s.workload.find(op.item)) {
                holds = " holds " + formatBytes(item->ownedBy(st)) + " of " + formatBytes(item->size) + " " + item->name;
                break;
            }
        }
        double lo = 1e300, hi = 0;
        for (const RankBreakdown& rb : sum.perRank)
            if (rb.rank != st) {
                lo = std::min(lo, rb.waitMs);
                hi = std::max(hi, rb.waitMs);
            }
        std::string kinds;
        for (const CollectiveFigures& c : sum.collectives)
            if (kinds.find(opDisplayName(c.kind)) == std::string::npos)
                kinds += std::string(kinds.empty() ? "" : ", ") + opDisplayName(c.kind);
        std::snprintf(buf, sizeof buf, "Rank %d%s; the others wait %s for it every iteration%s%s.", st,
                      holds.empty() ? " is the slowest" : holds.c_str(),
                      std::fabs(hi - lo) < 0.05 ? fmt("%.1f ms", hi).c_str()
                                                : (fmt("%.1f", lo) + "\xe2\x80\x93" + fmt("%.1f ms", hi)).c_str(),
                      kinds.empty() ? "" : " at ", kinds.c_str());
        return buf;
    }
    if (sum.bottleneck == Bottleneck::Communication || sum.bottleneck == Bottleneck::Wait) {
        const CollectiveFigures* worst = nullptr;
        for (const CollectiveFigures& c : sum.collectives)
            if (!worst || c.timeMs * c.count > worst->timeMs * worst->count)
                worst = &c;
        std::snprintf(buf, sizeof buf, "Communication takes %.0f%% of the step%s; ", sum.commShare * 100,
                      worst ? (std::string(": ") + worst->name + " of " + formatBytes(worst->bytes) + " reaches "
                               + fmt("%.1f", worst->busbwGBps) + " GB/s bus bandwidth")
                                  .c_str()
                            : "");
        std::string out = buf;
        if (sum.hasSpeedup) {
            std::snprintf(buf, sizeof buf, "on %d GPUs the speed-up is %.2fx (efficiency %.0f%%).", n, sum.speedup,
                          sum.efficiency * 100);
            return out + buf;
        }
        return out + "there is no speed-up: " + sum.speedupNote + ".";
    }
    std::snprintf(buf, sizeof buf, "Compute takes %.0f%% of the step and communication %.0f%%", sum.computeShare * 100,
                  sum.commShare * 100);
    std::string out = buf;
    if (!sum.hasSpeedup)
        return out + "; there is no speed-up: " + sum.speedupNote + ".";
    std::snprintf(buf, sizeof buf, ": %.2fx faster than one GPU on %d GPUs (efficiency %.0f%%).", sum.speedup, n,
                  sum.efficiency * 100);
    return out + buf;
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
    sum.oneGpuMs = oneGpuTimeMs(s);
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
        sum.speedupNote = "the job does not fit in its GPUs' memory, so on real GPUs it stops with out-of-memory; the "
                          "simulated step only shows where its time would go";
    }
    const double rankTime = sum.stepTimeMs * n;
    if (rankTime > 0) {
        sum.computeShare = c / rankTime;
        sum.commShare = m / rankTime;
        sum.waitShare = w / rankTime;
    }

    // The straggler: the rank that arrives last most often, if the waiting it causes matters
    // (at least 2% of the step, averaged over the other ranks).
    std::vector<double> caused(static_cast<size_t>(n), 0.0);
    for (const CollectiveRecord& rec : run.collectives) {
        if (rec.lastArrival < 0)
            continue;
        ++sum.perRank[static_cast<size_t>(rec.lastArrival)].timesLast;
        for (double a : rec.arrivalUs)
            caused[static_cast<size_t>(rec.lastArrival)] += rec.startUs - a;
    }
    int top = -1;
    for (int r = 0; r < n; ++r)
        if (sum.perRank[static_cast<size_t>(r)].timesLast > 0
            && (top < 0 || sum.perRank[static_cast<size_t>(r)].timesLast > sum.perRank[static_cast<size_t>(top)].timesLast))
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
    sum.sentence = sentenceFor(s, sum, run);
    if (sum.hasSpeedup && !sum.speedupNote.empty())
        sum.sentence += " Note: " + sum.speedupNote + ".";
    if (run.hang)
        sum.sentence = "The run hung: " + run.hang->explanation + ".";
    return sum;
}

} // namespace shardlab
