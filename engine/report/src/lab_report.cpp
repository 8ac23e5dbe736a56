#include "shardlab/report/lab_report.h"

#include "shardlab/base/version.h"
#include "shardlab/live/live.h"
#include "shardlab/model/verification.h"
#include "shardlab/report/report_sentences.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

namespace shardlab {

std::vector<Bytes> defaultReportSizes(Bytes primary)
{
    const Bytes s = std::max<Bytes>(1, primary);
    std::vector<Bytes> sizes;
    // S/64, S/8, S, 4S; for tiny S (where S/64 rounds to one byte) larger multiples fill in, so
    // that there are always four distinct sizes.
    for (Bytes b : {s / 64, s / 8, s, 4 * s, 16 * s, 64 * s}) {
        b = std::clamp<Bytes>(b, 1, kMaxBytes);
        if (std::find(sizes.begin(), sizes.end(), b) == sizes.end() && sizes.size() < 4)
            sizes.push_back(b);
    }
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

Scenario withCollectivesScaled(const Scenario& scenario, double scale)
{
    Scenario s = scenario;
    const auto scaled = [scale](Bytes b) {
        return std::clamp<Bytes>(static_cast<Bytes>(std::llround(static_cast<double>(b) * scale)), 1, kMaxBytes);
    };
    for (Op& op : s.program)
        if (isCollective(op.kind))
            op.bytes = scaled(scenario.bytesOf(op));
    for (Mismatch& m : s.perturbations.mismatches)
        if (m.type == Mismatch::Type::WrongCount)
            m.bytes = scaled(m.bytes);
    return s;
}

Message operationWords(OpKind kind)
{
    if (kind == OpKind::AllGatherV)
        return Message("report.op.all_gather_v");
    return verbatim(opDisplayName(kind));
}

Message collectiveWords(const LabReport& r)
{
    if (!r.hasCollective)
        return verbatim(std::string());
    const Op& op = r.scenario.program[static_cast<size_t>(r.primaryOp)];
    return op.name.empty() ? operationWords(op.kind) : verbatim(op.name);
}

TopologySummary summarizeTopology(const Topology& topology, Message origin)
{
    TopologySummary t;
    t.origin = std::move(origin);
    t.topology = topology;
    t.pairs = classifyPairs(topology);
    t.fastDomain = sharesFastDomain(topology);
    // The worst path: the class furthest down nvidia-smi's list (NV# best, then PIX ... NET).
    int worstA = -1, worstB = -1;
    for (size_t a = 0; a < t.pairs.size(); ++a)
        for (size_t b = a + 1; b < t.pairs.size(); ++b)
            if (t.pairs[a][b].cls > t.slowestPath || worstA < 0) {
                t.slowestPath = t.pairs[a][b].cls;
                worstA = static_cast<int>(a);
                worstB = static_cast<int>(b);
            }
    const int n = topology.rankCount();
    if (n < 2)
        t.sentence = Message("report.topology.one_rank");
    else if (t.fastDomain)
        t.sentence = Message("report.topology.fast").with("ranks", n).with("path", pathClassLabel(t.pairs[0][1]));
    else
        t.sentence =
            Message("report.topology.slow")
                .with("ranks", n)
                .with("a", worstA)
                .with("b", worstB)
                .with("path", pathClassLabel(t.pairs[static_cast<size_t>(worstA)][static_cast<size_t>(worstB)]))
                .with("meaning", pathClassMeaning(t.slowestPath));
    return t;
}

namespace {

Message ownsText(const Scenario& s, int rank)
{
    std::vector<Message> parts;
    for (const WorkloadItem& item : s.workload.items) {
        const Bytes owned = item.ownedBy(rank);
        if (owned == 0)
            continue;
        int holders = 0;
        for (int r = 0; r < s.ranks(); ++r)
            holders += item.ownedBy(r) > 0 ? 1 : 0;
        if (owned == item.size)
            parts.push_back(Message(holders > 1 ? "report.owns.replicated" : "report.owns.all")
                                .with("item", item.name)
                                .with("size", formatBytes(owned)));
        else
            parts.push_back(Message("report.owns.part")
                                .with("item", item.name)
                                .with("owned", formatBytes(owned))
                                .with("total", formatBytes(item.size)));
    }
    if (parts.empty())
        return Message("report.owns.nothing");
    // "a; b; c" as ((a; b); c), each separator worded in the report's language.
    Message out = parts.front();
    for (size_t i = 1; i < parts.size(); ++i)
        out = Message("report.owns.join").with("first", std::move(out)).with("next", std::move(parts[i]));
    return out;
}

// Mean over iterations of the summed duration of the records of program step `op`.
std::optional<double> measuredOpUs(const RunResult& run, int op)
{
    std::map<int, double> perIteration;
    for (const CollectiveRecord& rec : run.collectives)
        if (rec.op == op)
            perIteration[rec.iteration] += rec.durationUs();
    if (perIteration.empty())
        return std::nullopt;
    double total = 0;
    for (const auto& [it, us] : perIteration)
        total += us;
    return total / static_cast<double>(perIteration.size());
}

void fillRankOutputs(LabReport& r, const LabReportOptions& options)
{
    const Scenario& s = r.scenario;
    const Op* op = r.hasCollective ? &s.program[static_cast<size_t>(r.primaryOp)] : nullptr;
    std::vector<VerifiedRank> verified;
    if (op) {
        auto v = verifyCollective(op->kind, r.group, options.verifyElements, op->root, op->peer);
        if (v)
            verified = std::move(*v);
        else
            r.notes.push_back(Message("report.note.verify_failed").with("error", messageOf(v.error())));
    }
    for (int rank = 0; rank < s.ranks(); ++rank) {
        RankOutput out;
        out.rank = rank;
        out.device = rank < static_cast<int>(r.run.devices.size()) ? r.run.devices[static_cast<size_t>(rank)]
                                                                   : s.topology.gpus[static_cast<size_t>(rank)].name;
        out.owns = ownsText(s, rank);
        const auto it =
            std::find_if(verified.begin(), verified.end(), [rank](const VerifiedRank& v) { return v.rank == rank; });
        out.inGroup = it != verified.end();
        if (!op) {
            out.verification = Message("report.verify.no_collective");
        } else if (!out.inGroup) {
            out.verification = Message("report.verify.not_in_group").with("collective", collectiveWords(r));
        } else {
            out.localInput = it->input;
            out.localResult = it->result;
            out.checkedElements = it->expected.size();
            if (r.run.hang) {
                out.verification = Message("report.verify.hung");
            } else if (options.recorded) { // its buffers were never seen: no values, no check
                out.localInput.clear();
                out.localResult.clear();
                out.checkedElements = 0;
                out.verification = Message("report.verify.recorded");
            } else if (r.mode == RunMode::Live) {
                // The device compared every element with the fill pattern's closed form; the run
                // carries its count of mismatches (#wrong) per collective.
                for (const CollectiveRecord& rec : r.run.collectives)
                    if (std::find(rec.group.begin(), rec.group.end(), rank) != rec.group.end()) {
                        out.wrongElements += static_cast<std::uint64_t>(std::max(0, rec.wrongElements));
                        ++out.checkedCollectives;
                    }
                out.verified = out.checkedCollectives > 0 && out.wrongElements == 0;
                out.verification =
                    out.checkedCollectives == 0
                        ? Message("report.verify.none_completed")
                        : Message(out.checkedCollectives == 1 ? "report.verify.live_one" : "report.verify.live")
                              .with("wrong", std::to_string(out.wrongElements))
                              .with("calls", out.checkedCollectives);
            } else {
                out.wrongElements = it->wrong;
                out.verified = it->wrong == 0;
                out.verification = Message("report.verify.simulated")
                                       .with("matching", std::to_string(out.checkedElements
                                                                        - std::min(out.checkedElements, it->wrong)))
                                       .with("checked", std::to_string(out.checkedElements));
            }
        }
        r.ranks.push_back(std::move(out));
    }
    const bool sum = op && (op->kind == OpKind::AllReduce || op->kind == OpKind::ReduceScatterAllGather);
    r.verificationMethod =
        Message("report.verify.method")
            .with("fill", Message("report.verify.fill"))
            .with("check", Message(sum ? "report.verify.sum" : "report.verify.closed_form"))
            .with(
                "how",
                r.mode == RunMode::Live
                    ? Message("report.verify.how_live")
                    : Message("report.verify.how_simulated").with("elements", std::to_string(options.verifyElements)));
    if (options.recorded)
        r.verificationMethod = Message("report.verify.method_recorded").with("command", "`shardlab profile`");
}

} // namespace

Result<LabReport> buildLabReport(const Scenario& scenario, const LabReportOptions& options)
{
    if (Status st = validateScenario(scenario); !st)
        return st.error();
    if (scenario.ranks() > kMaxReportGpus)
        return badInput(Message("error.at_path")
                            .with("path", "$.topology.gpus")
                            .with("what", Message("error.report.too_many_gpus")
                                              .with("count", std::to_string(scenario.ranks()))
                                              .with("max", std::to_string(kMaxReportGpus))
                                              .with("sim", "sim")
                                              .with("diagnose", "diagnose")
                                              .with("scale", "scale")
                                              .with("limit", std::to_string(kMaxTopologyGpus))));
    ScenarioRunner runner = options.runner;
    if (!runner) {
        if (options.mode == RunMode::Live)
            runner = [](const Scenario& sc) { return runLive(sc); };
        else
            runner = [](const Scenario& sc) { return simulate(sc); };
    }

    if (options.recorded) // nothing is run: the recorded run is the base, its own size the only row
        runner = [&options](const Scenario&) -> Result<RunResult> { return *options.recorded; };

    LabReport r;
    r.generator = std::string("ShardLab ") + kVersion;
    r.scenarioFile = options.scenarioFile;
    r.scenario = scenario;
    r.mode = options.recorded ? RunMode::Live : options.mode;
    r.language = options.language;
    auto base = runner(scenario);
    if (!base)
        return base.error();
    r.run = std::move(*base);
    r.summary = summarize(scenario, r.run);

    if (options.recorded) {
        std::string devices;
        for (const std::string& d : r.run.devices)
            devices += (devices.empty() ? "" : ", ") + d;
        r.modeSentence = Message("report.mode.recorded")
                             .with("devices", devices)
                             .with("clock", r.run.clockNote.empty()
                                                ? Message("report.mode.clock_aligned")
                                                : Message("report.mode.clock").with("note", reportClockNote(r.run)));
    } else if (r.mode == RunMode::Live) {
        std::string devices;
        for (const std::string& d : r.run.devices)
            devices += (devices.empty() ? "" : ", ") + d;
        r.modeSentence = Message("report.mode.live")
                             .with("devices", devices)
                             .with("clock", r.run.clockNote.empty()
                                                ? Message("report.mode.clock_aligned")
                                                : Message("report.mode.clock").with("note", reportClockNote(r.run)));
    } else {
        r.modeSentence = Message("report.mode.simulated")
                             .with("profile", scenario.costProfile.empty() ? Message("report.mode.profile_default")
                                                                           : verbatim(scenario.costProfile));
    }

    for (size_t i = 0; i < scenario.program.size(); ++i)
        if (isCollective(scenario.program[i].kind)) {
            const Op& op = scenario.program[i];
            r.hasCollective = true;
            r.primaryOp = static_cast<int>(i);
            r.collectiveKind = op.kind;
            r.collectiveName = op.name.empty() ? opDisplayName(op.kind) : op.name;
            r.collectiveBytes = scenario.bytesOf(op);
            r.group = scenario.groupOf(op);
            break;
        }
    if (r.run.sharedGpu > 0) // its times are not those of N GPUs: said before anything else
        r.notes.push_back(Message("live.note.shared_gpu").with("ranks", r.run.sharedGpu));
    if (!r.hasCollective)
        r.notes.push_back(Message("report.note.no_collective"));
    if (r.run.hang)
        r.notes.push_back(Message("report.note.hung").with("explanation", reportHangExplanation(*r.run.hang)));
    if (!r.summary.fits)
        r.notes.push_back(Message("report.note.capacity"));

    fillRankOutputs(r, options);

    if (r.mode == RunMode::Live && options.machineTopology)
        r.topology = summarizeTopology(*options.machineTopology, Message("report.origin.machine"));
    else
        r.topology = summarizeTopology(scenario.topology,
                                       Message("report.origin.scenario").with("topology", scenario.topology.name));

    // The timing table: every collective rescaled so that the primary one moves each size.
    std::vector<Bytes> sizes;
    if (r.hasCollective && options.recorded)
        sizes = {r.collectiveBytes};
    else if (r.hasCollective)
        sizes = options.sizes.empty() ? defaultReportSizes(r.collectiveBytes) : options.sizes;
    else
        sizes = {0};
    for (Bytes size : sizes) {
        const double scale =
            r.hasCollective ? static_cast<double>(size) / static_cast<double>(std::max<Bytes>(1, r.collectiveBytes))
                            : 1.0;
        Scenario scaled = r.hasCollective ? withCollectivesScaled(scenario, scale) : scenario;
        Result<RunResult> run = scale == 1.0 ? Result<RunResult>(r.run) : runner(scaled);
        if (!run)
            return Error(
                run.error().kind,
                Message("error.report.run_failed").with("size", formatBytes(size)).with("why", messageOf(run.error())));
        const Summary sum = summarize(scaled, *run);
        TimingRow row;
        row.bytes = r.hasCollective ? scaled.bytesOf(scaled.program[static_cast<size_t>(r.primaryOp)]) : 0;
        row.scale = scale;
        row.stepMs = sum.stepTimeMs;
        // Per-iteration means over ranks: (sum over ranks of each segment) / ranks.
        for (const RankBreakdown& rb : sum.perRank) {
            row.computeMs += rb.computeMs / static_cast<double>(sum.perRank.size());
            row.collectiveMs += rb.commMs / static_cast<double>(sum.perRank.size());
            row.waitMs += rb.waitMs / static_cast<double>(sum.perRank.size());
        }
        row.speedup = sum.speedup;
        row.efficiency = sum.efficiency;
        row.bottleneck = sum.bottleneck;
        if (r.hasCollective) {
            const Op& op = scaled.program[static_cast<size_t>(r.primaryOp)];
            const std::string label = op.name.empty() ? opName(op.kind) : op.name;
            for (const CollectiveFigures& f : sum.collectives)
                if (f.name == label && f.kind == op.kind) {
                    row.collectiveTimeMs = f.timeMs;
                    row.busbwGBps = f.busbwGBps;
                    break;
                }
        }
        r.timing.push_back(row);
    }
    if (r.hasCollective && options.recorded)
        r.timingNote = Message("report.timing.note_recorded")
                           .with("collective", collectiveWords(r))
                           .with("ranks", scenario.ranks());
    else if (r.hasCollective)
        r.timingNote =
            Message("report.timing.note").with("collective", collectiveWords(r)).with("ranks", scenario.ranks());

    r.limitingSegment = bottleneckName(r.summary.bottleneck);
    const char* limit = r.summary.bottleneck == Bottleneck::Communication ? "report.limit.communication"
                        : r.summary.bottleneck == Bottleneck::Wait        ? "report.limit.wait"
                        : r.summary.bottleneck == Bottleneck::Capacity    ? "report.limit.capacity"
                        : r.summary.bottleneck == Bottleneck::Hang        ? "report.limit.hang"
                                                                          : "report.limit.compute";
    const Message straggler = r.summary.straggler ? Message("report.limit.straggler").with("rank", *r.summary.straggler)
                                                  : verbatim(std::string());
    char times[32];
    std::snprintf(times, sizeof times, "%.2fx", r.summary.speedup);
    if (r.summary.hasSpeedup)
        r.limitingSentence = Message("report.limit.efficiency")
                                 .with("efficiency", formatPercent(r.summary.efficiency))
                                 .with("speedup", times);
    else
        r.limitingSentence = Message("report.limit.no_speedup").with("note", reportSpeedupNote(r.summary));
    r.limitingSentence.arg("ranks", r.summary.ranks);
    r.limitingSentence.arg("limit", Message(limit));
    r.limitingSentence.arg("straggler", straggler);
    r.limitingSentence.arg("summary", reportSummarySentence(r.summary));

    if (r.hasCollective && r.group.size() >= 2) {
        auto prof = loadProfile(scenario.costProfile);
        if (!prof)
            r.notes.push_back(Message("report.note.profile").with("error", messageOf(prof.error())));
        CostModel model(scenario.topology, prof ? *prof : CostProfile::defaults());
        CollectiveComparison c = compareAllReduceWithRsAg(model, r.group, r.collectiveBytes);
        r.comparisonTimeSource = Message("report.source.model");
        if (r.mode == RunMode::Live && r.collectiveKind == OpKind::AllReduce && !options.recorded) {
            // Measure the pair and reduce-scatter alone by running the scenario with the primary
            // collective replaced; keep the model's times where a variant does not run.
            Scenario pair = scenario, rsOnly = scenario;
            pair.program[static_cast<size_t>(r.primaryOp)].kind = OpKind::ReduceScatterAllGather;
            rsOnly.program[static_cast<size_t>(r.primaryOp)].kind = OpKind::ReduceScatter;
            auto pairRun = runner(pair);
            auto rsRun = runner(rsOnly);
            const auto ar = measuredOpUs(r.run, r.primaryOp);
            const auto pr = pairRun ? measuredOpUs(*pairRun, r.primaryOp) : std::nullopt;
            const auto rs = rsRun ? measuredOpUs(*rsRun, r.primaryOp) : std::nullopt;
            if (ar && pr && rs) {
                c.allReduce.timeUs = *ar;
                c.reduceScatterAllGather.timeUs = *pr;
                c.reduceScatterOnly.timeUs = *rs;
                r.comparisonTimeSource = Message("report.source.measured");
                c.sentence = describeComparison(c);
            } else {
                r.notes.push_back(Message("report.note.not_measured"));
            }
        }
        r.comparison = std::move(c);
    } else if (r.hasCollective) {
        r.notes.push_back(Message("report.note.single_rank"));
    }
    return r;
}

} // namespace shardlab
