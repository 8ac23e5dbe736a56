#include "shardlab/analysis/scaling.h"

#include "shardlab/analysis/collective_path.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/scenario_edit.h"
#include "shardlab/model/topology.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>

namespace shardlab {

const char* scalingModeName(ScalingMode mode) { return mode == ScalingMode::Strong ? "strong" : "weak"; }

const ScalingPoint* ScalingCurve::find(int gpus) const
{
    for (const ScalingPoint& p : points)
        if (p.gpus == gpus)
            return &p;
    return nullptr;
}

std::vector<int> defaultGpuCounts(int maxGpus)
{
    std::vector<int> counts;
    const int top = std::max(1, maxGpus);
    for (int n = 1; n <= std::min(16, top); ++n)
        counts.push_back(n);
    for (int base = 16; base < top; base *= 2)
        for (int k = 1; k <= 4; ++k)
            if (const int n = base + base * k / 4; n < top)
                counts.push_back(n);
    if (counts.back() != top)
        counts.push_back(top);
    return counts;
}

Topology scalingTemplate(const Topology& topology)
{
    const auto cut = topology.name.find(" (first ");
    if (cut == std::string::npos)
        return topology;
    auto whole = preset(topology.name.substr(0, cut));
    if (!whole || whole->rankCount() < topology.rankCount())
        return topology;
    // the same GPUs in the same order: otherwise the user edited the machine, which then wins
    for (int r = 0; r < topology.rankCount(); ++r)
        if (!(whole->gpus[static_cast<size_t>(r)] == topology.gpus[static_cast<size_t>(r)]))
            return topology;
    return *whole;
}

namespace {

enum class Holding { Replicated, Split, Single };

// How the base holds an item (see the file comment of scaling.h).
Holding holdingOf(const WorkloadItem& item, int n0, bool* uneven)
{
    *uneven = false;
    if (n0 > 1 && !item.shards.empty()) {
        bool everyone = true, single = true;
        std::set<int> owners;
        for (const Shard& sh : item.shards) {
            everyone = everyone && static_cast<int>(sh.owners.size()) == n0;
            single = single && sh.owners.size() == 1;
            owners.insert(sh.owners.begin(), sh.owners.end());
        }
        if (everyone)
            return Holding::Replicated;
        if (single && owners.size() == 1)
            return Holding::Single;
        if (single) {
            Bytes lo = item.size, hi = 0;
            for (int r = 0; r < n0; ++r) {
                lo = std::min(lo, item.ownedBy(r));
                hi = std::max(hi, item.ownedBy(r));
            }
            *uneven = hi - lo > item.size / static_cast<Bytes>(n0) / 100 + 1;
            return Holding::Split;
        }
    }
    return item.kind == ItemKind::Data || item.kind == ItemKind::Activations ? Holding::Split : Holding::Replicated;
}

// A rescaling decision, once: its English in `notes`, the Message in `messages` (either may be null).
struct RescaleNotes {
    std::vector<std::string>* notes = nullptr;
    std::vector<Message>* messages = nullptr;
};

void addNote(const RescaleNotes& to, Message note)
{
    if (to.messages) {
        const std::string text = english(note);
        if (std::any_of(to.messages->begin(), to.messages->end(), [&](const Message& m) { return english(m) == text; }))
            return;
        if (to.notes)
            to.notes->push_back(text);
        to.messages->push_back(std::move(note));
        return;
    }
    const std::string text = english(note);
    if (to.notes && std::find(to.notes->begin(), to.notes->end(), text) == to.notes->end())
        to.notes->push_back(text);
}

std::string num(const char* f, double v)
{
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

} // namespace

Result<Scenario> rescaleScenario(const Scenario& base, const Topology& tpl, int gpus, ScalingMode mode,
                                 std::vector<std::string>* englishNotes, std::vector<Message>* messages)
{
    const RescaleNotes notes{englishNotes, messages};
    const int n0 = base.ranks();
    if (gpus < 1 || gpus > kMaxTopologyGpus)
        return badInput(Message("scaling.error.point_gpus").with("max", kMaxTopologyGpus).with("gpus", gpus));
    if (n0 < 1 || tpl.rankCount() < 1)
        return badInput(Message("scaling.error.no_gpu"));
    Scenario s = base;
    s.topology = scaleOut(tpl, gpus);
    if (s.topology.rankCount() != gpus)
        return badInput(Message("scaling.error.cannot_widen").with("topology", tpl.name).with("gpus", gpus));
    // Weak scaling: work per rank fixed, so what is split grows with the ranks.
    const double grow = mode == ScalingMode::Weak ? static_cast<double>(gpus) / n0 : 1.0;
    std::vector<int> all(static_cast<size_t>(gpus));
    std::iota(all.begin(), all.end(), 0);
    std::set<std::string> split;
    for (WorkloadItem& item : s.workload.items) {
        bool uneven = false;
        const Holding h = holdingOf(item, n0, &uneven);
        if (uneven)
            addNote(notes, Message("scaling.rescale.uneven").with("item", item.name));
        if (h == Holding::Split) {
            split.insert(item.name);
            const double scaled = std::round(static_cast<double>(item.size) * grow);
            item.size = static_cast<Bytes>(std::max(1.0, scaled));
            if (item.size < static_cast<Bytes>(gpus))
                return badInput(Message("scaling.error.cannot_split")
                                    .with("item", item.name)
                                    .with("size", formatBytes(item.size))
                                    .with("ranks", gpus));
            item.shards = evenShards(item.size, gpus);
            for (int r = 0; r < gpus; ++r)
                item.shards[static_cast<size_t>(r)].owners = {r};
        } else if (h == Holding::Replicated) {
            item.shards = {Shard{0, item.size, all}};
        } else {
            int owner = item.shards.front().owners.front();
            if (owner >= gpus) {
                addNote(notes, Message("scaling.rescale.owner").with("item", item.name).with("rank", owner));
                owner = 0;
            }
            item.shards = {Shard{0, item.size, {owner}}};
        }
    }
    std::vector<int> baseRanks(static_cast<size_t>(n0));
    std::iota(baseRanks.begin(), baseRanks.end(), 0);
    for (size_t i = 0; i < s.program.size(); ++i) {
        Op& op = s.program[i];
        const std::string path = "$.program[" + std::to_string(i) + "]";
        const bool overSplit = split.count(op.item) > 0;
        if (op.kind == OpKind::Compute) {
            if (overSplit)
                op.flops *= grow;
            continue;
        }
        if (op.kind == OpKind::SendRecv)
            return badInput(Message("scaling.error.send_recv").with("path", path));
        if (!op.group.empty()) {
            std::vector<int> g = op.group;
            std::sort(g.begin(), g.end());
            if (g != baseRanks)
                return badInput(
                    Message("scaling.error.partial_group").with("path", path + ".group").with("group", "group"));
            op.group.clear();
        }
        if ((op.kind == OpKind::Reduce || op.kind == OpKind::Broadcast) && op.root >= gpus) {
            addNote(notes, Message("scaling.rescale.root").with("path", path).with("rank", op.root));
            op.root = 0;
        }
        if (op.bytes && overSplit)
            op.bytes = static_cast<Bytes>(std::max(1.0, std::round(static_cast<double>(*op.bytes) * grow)));
    }
    Perturbations& p = s.perturbations;
    if (p.slowdown.size() > static_cast<size_t>(gpus))
        p.slowdown.resize(static_cast<size_t>(gpus));
    std::erase_if(p.delays, [gpus](const Delay& d) { return d.rank >= gpus; });
    if (!p.mismatches.empty()) {
        addNote(notes, Message("scaling.rescale.mismatches"));
        p.mismatches.clear();
    }
    // One GPU exchanges nothing: a program written for one GPU calls no collective, so the
    // one-GPU point is the compute alone, the one-GPU time every speed-up is measured against
    // (Summary::oneGpuMs). (A one-rank NCCL call would still copy its buffer on the GPU: the cost
    // model prices that for a scenario that really has one rank.)
    if (gpus == 1
        && std::any_of(s.program.begin(), s.program.end(), [](const Op& op) { return isCollective(op.kind); })) {
        addNote(notes, Message("scaling.rescale.one_gpu"));
        for (size_t i = s.program.size(); i-- > 0;)
            if (isCollective(s.program[i].kind))
                removeOp(s, static_cast<int>(i));
    }
    if (Status st = validateScenario(s); !st)
        return badInput(
            Message("scaling.error.rescaled_invalid").with("gpus", gpus).with("reason", messageOf(st.error())));
    return s;
}

namespace {

int classRank(std::optional<LinkKind> k)
{
    if (!k)
        return -1;
    switch (*k) {
    case LinkKind::NvLink: return 0;
    case LinkKind::Pcie: return 1;
    case LinkKind::CrossSocket: return 2;
    case LinkKind::Network: return 3;
    }
    return 0;
}

// "; the gradient all-reduce now crosses the network (a - b ...), reaching 42 GB/s bus bandwidth instead of 355 GB/s
// over NVLink": a clause that follows a sentence's main clause (empty when the path does not change)
Message pathChange(const ScalingPoint& a, const ScalingPoint& b)
{
    if (!b.linkKind || classRank(b.linkKind) <= classRank(a.linkKind))
        return {};
    Message m(a.linkKind ? "scaling.clause.crosses.instead" : "scaling.clause.crosses");
    m.arg("collective", b.collective)
        .arg("link", linkKindMessage(*b.linkKind))
        .arg("description", b.linkMessage.empty() ? verbatim(b.linkText) : b.linkMessage)
        .arg("busbw", num("%.3g", b.busbwGBps));
    if (a.linkKind)
        m.arg("before", num("%.3g", a.busbwGBps)).arg("before_link", linkKindMessage(*a.linkKind));
    return m;
}

// "; the ring moves 1.60 instead of 1.50 times the buffer per rank"
Message trafficChange(const ScalingPoint& a, const ScalingPoint& b)
{
    const OpKind k = b.collectiveKind;
    if (b.collective.empty() || a.collective != b.collective
        || !(k == OpKind::AllReduce || k == OpKind::AllGather || k == OpKind::ReduceScatter))
        return {};
    const double fa = busBandwidthFactor(k, a.gpus), fb = busBandwidthFactor(k, b.gpus);
    if (fb <= fa + 1e-9)
        return {};
    return Message("scaling.clause.traffic")
        .with("now", num("%.2f", fb))
        .with("before", num("%.2f", fa))
        .with("formula", k == OpKind::AllReduce ? "2(n-1)/n" : "(n-1)/n");
}

ScalingNote scalingNote(int from, int to, ScalingNote::Kind kind, Message wording)
{
    ScalingNote note;
    note.fromGpus = from;
    note.toGpus = to;
    note.kind = kind;
    note.sentence = english(wording);
    note.wording = std::move(wording);
    return note;
}

// The one sentence of the NetworkTakesOver note (kept in one place for the message catalogue):
// "From 96 GPUs on the network sets the pace: the gradient all-reduce over the network takes
// 11.7 ms per step against 9.95 ms of compute (bus bandwidth 338 GB/s), so no number of GPUs
// brings the step below about 11.7 ms."
Message networkTakesOverSentence(const ScalingPoint& b)
{
    return Message("scaling.note.network_takes_over")
        .with("gpus", b.gpus)
        .with("collective", b.collective)
        .with("collective_ms", num("%.2f", b.collectiveMs))
        .with("compute_ms", num("%.2f", b.computeMs))
        .with("busbw", num("%.3g", b.busbwGBps));
}

std::vector<ScalingNote> explain(const ScalingCurve& c)
{
    std::vector<ScalingNote> notes;
    for (size_t i = 1; i < c.points.size(); ++i) {
        const ScalingPoint& a = c.points[i - 1];
        const ScalingPoint& b = c.points[i];
        const Message path = pathChange(a, b), traffic = trafficChange(a, b);
        // Small rises (the ring's 2(n-1)/n creeping up) are left to the table; a note needs 2%.
        if (c.mode == ScalingMode::Strong
            && (b.stepTimeMs > a.stepTimeMs * 1.02 || (b.stepTimeMs > a.stepTimeMs && !path.empty()))) {
            notes.push_back(scalingNote(a.gpus, b.gpus, ScalingNote::Kind::Slower,
                                        Message("scaling.note.slower")
                                            .with("from", a.gpus)
                                            .with("to", b.gpus)
                                            .with("step_before", num("%.2f", a.stepTimeMs))
                                            .with("step_after", num("%.2f", b.stepTimeMs))
                                            .with("compute_before", num("%.2f", a.computeMs))
                                            .with("compute_after", num("%.2f", b.computeMs))
                                            .with("comm_before", num("%.2f", a.commMs + a.waitMs))
                                            .with("comm_after", num("%.2f", b.commMs + b.waitMs))
                                            .with("path", path)
                                            .with("traffic", traffic)));
        } else if (!path.empty() && a.linkKind) {
            notes.push_back(scalingNote(a.gpus, b.gpus, ScalingNote::Kind::CrossesLink,
                                        Message("scaling.note.crosses")
                                            .with("from", a.gpus)
                                            .with("to", b.gpus)
                                            .with("eff_before", formatPercent(a.efficiency))
                                            .with("eff_after", formatPercent(b.efficiency))
                                            .with("path", path)
                                            .with("comm_before", num("%.2f", a.commMs))
                                            .with("comm_after", num("%.2f", b.commMs))));
        } else if (b.efficiency < a.efficiency - (c.mode == ScalingMode::Strong ? 0.15 : 0.10)) {
            notes.push_back(scalingNote(a.gpus, b.gpus, ScalingNote::Kind::EfficiencyDrop,
                                        Message("scaling.note.efficiency")
                                            .with("from", a.gpus)
                                            .with("to", b.gpus)
                                            .with("eff_before", formatPercent(a.efficiency))
                                            .with("eff_after", formatPercent(b.efficiency))
                                            .with("comm_before", num("%.2f", a.commMs + a.waitMs))
                                            .with("comm_after", num("%.2f", b.commMs + b.waitMs))
                                            .with("compute_before", num("%.2f", a.computeMs))
                                            .with("compute_after", num("%.2f", b.computeMs))
                                            .with("traffic", traffic)));
        }
    }
    // Where the network takes over: the first point whose costliest collective runs over the
    // network and costs more than compute, after a point where it did not.
    for (size_t i = 1; i < c.points.size(); ++i) {
        const ScalingPoint& a = c.points[i - 1];
        const ScalingPoint& b = c.points[i];
        const auto overNetwork = [](const ScalingPoint& p) {
            return p.linkKind && *p.linkKind == LinkKind::Network && !p.collective.empty()
                   && p.collectiveMs > p.computeMs;
        };
        if (overNetwork(b) && !overNetwork(a)) {
            notes.push_back(
                scalingNote(b.gpus, b.gpus, ScalingNote::Kind::NetworkTakesOver, networkTakesOverSentence(b)));
            break;
        }
    }
    // in GPU order, the note about a point after the notes that lead to it
    std::stable_sort(notes.begin(), notes.end(),
                     [](const ScalingNote& x, const ScalingNote& y) { return x.toGpus < y.toGpus; });
    return notes;
}

} // namespace

Result<ScalingCurve> scalingCurve(const Scenario& base, const ScalingOptions& o)
{
    if (Status st = validateScenario(base); !st)
        return st.error();
    const int maxGpus = o.maxGpus > 0 ? o.maxGpus : base.ranks();
    std::vector<int> counts = o.gpuCounts.empty() ? defaultGpuCounts(maxGpus) : o.gpuCounts;
    counts.push_back(1);
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    if (counts.front() < 1 || counts.back() > kMaxTopologyGpus)
        return badInput(Message("scaling.error.counts_range").with("max", kMaxTopologyGpus));
    CostProfile profile = CostProfile::defaults();
    if (o.profile)
        profile = *o.profile;
    else if (!base.costProfile.empty()) {
        auto loaded = loadProfile(base.costProfile);
        if (!loaded)
            return loaded.error();
        profile = *loaded;
    }
    ScalingCurve curve;
    curve.mode = o.mode;
    curve.scenarioName = base.name;
    curve.baseGpus = base.ranks();
    const Topology tpl = scalingTemplate(base.topology);
    curve.topologyName = tpl.name;
    std::vector<double> oneGpuMs; // each point's Summary::oneGpuMs
    for (size_t i = 0; i < counts.size(); ++i) {
        if (o.cancel && o.cancel->load())
            return Error(ErrorKind::Cancelled, Message("error.analysis.scaling_cancelled"));
        const int n = counts[i];
        auto s = rescaleScenario(base, tpl, n, o.mode, &curve.rescaleNotes, &curve.rescaleMessages);
        if (!s)
            return s.error();
        CostModel model(s->topology, profile);
        SimulationOptions so;
        so.cancel = o.cancel;
        auto run = simulate(*s, model, so);
        if (!run)
            return run.error();
        const Summary sum = summarize(*s, *run);
        oneGpuMs.push_back(sum.oneGpuMs);
        ScalingPoint pt;
        pt.gpus = n;
        pt.nodes = s->topology.nodeCount();
        pt.stepTimeMs = sum.stepTimeMs;
        for (const RankBreakdown& rb : sum.perRank) {
            pt.computeMs += rb.computeMs / n;
            pt.commMs += rb.commMs / n;
            pt.waitMs += rb.waitMs / n;
            pt.maxComputeMs = std::max(pt.maxComputeMs, rb.computeMs);
        }
        pt.idleMs = std::max(0.0, pt.stepTimeMs - pt.computeMs - pt.commMs - pt.waitMs);
        pt.bottleneck = sum.bottleneck;
        pt.fits = sum.fits;
        pt.hung = run->hang.has_value();
        if (auto path = dominantCollective(*s, *run, model)) {
            pt.collective = path->name;
            pt.collectiveKind = path->kind;
            pt.collectiveBytes = path->bytes;
            pt.collectiveMs = path->msPerStep;
            pt.busbwGBps = path->busbwGBps;
            pt.algorithm = path->cost.algorithm;
            pt.linkKind = path->linkKind;
            pt.linkText = path->linkText;
            pt.linkMessage = path->linkMessage;
            pt.patternGBps = path->cost.patternGBps;
        }
        curve.points.push_back(pt);
        if (o.progress && !o.progress(static_cast<int>(i) + 1, static_cast<int>(counts.size())))
            return Error(ErrorKind::Cancelled, Message("error.analysis.scaling_cancelled"));
    }
    // Strong: speed-up = T(1)/T(n), efficiency = speed-up/n, with T(1) the one-GPU time of the run
    // summary (Summary::oneGpuMs: the whole work at one GPU's rate, no communication), so that a
    // point and the run page of the same scenario show the same digits. Weak: efficiency =
    // T(1)/T(n) with T(1) the one-GPU point's step (the work per rank is fixed, so ideal is a
    // flat step time), speed-up = n x efficiency (scaled speed-up).
    const double t1 = curve.points.front().stepTimeMs;
    for (size_t i = 0; i < curve.points.size(); ++i) {
        ScalingPoint& p = curve.points[i];
        if (o.mode == ScalingMode::Strong) {
            p.speedup = p.stepTimeMs > 0 ? oneGpuMs[i] / p.stepTimeMs : 0;
            p.efficiency = p.speedup / p.gpus;
        } else {
            const double ratio = p.stepTimeMs > 0 ? t1 / p.stepTimeMs : 0;
            p.efficiency = ratio;
            p.speedup = ratio * p.gpus;
        }
    }
    curve.notes = explain(curve);
    return curve;
}

} // namespace shardlab
