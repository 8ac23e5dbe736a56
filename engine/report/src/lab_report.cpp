#include "shardlab/report/lab_report.h"

#include "shardlab/base/version.h"
#include "shardlab/live/live.h"
#include "shardlab/model/verification.h"
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

namespace {

// "Connection traversing ..." without nvidia-smi's "PIX  = " legend prefix.
std::string pathMeaning(PathClass cls)
{
    const std::string legend = pathClassDescription(cls);
    const size_t eq = legend.find("= ");
    std::string meaning = eq == std::string::npos ? legend : legend.substr(eq + 2);
    if (!meaning.empty())
        meaning[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(meaning[0])));
    return meaning;
}

} // namespace

TopologySummary summarizeTopology(const Topology& topology, const std::string& origin)
{
    TopologySummary t;
    t.origin = origin;
    t.matrix = formatTopoMatrix(topology);
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
    char buf[512];
    if (n < 2)
        std::snprintf(buf, sizeof buf, "One rank: there is no interconnect between ranks to use.");
    else if (t.fastDomain)
        std::snprintf(buf, sizeof buf,
            "The %d ranks share one fast interconnect domain: every pair is joined by NVLink (%s between "
            "ranks 0 and 1), so collectives never leave the NVLink/NVSwitch fabric.",
            n, pathClassLabel(t.pairs[0][1]).c_str());
    else
        std::snprintf(buf, sizeof buf,
            "The %d ranks do not share a fast interconnect domain: ranks %d and %d are joined through %s "
            "(%s), so every ring or tree that includes both crosses it.",
            n, worstA, worstB,
            pathClassLabel(t.pairs[static_cast<size_t>(worstA)][static_cast<size_t>(worstB)]).c_str(),
            pathMeaning(t.slowestPath).c_str());
    t.sentence = buf;
    return t;
}

namespace {

std::string ownsText(const Scenario& s, int rank)
{
    std::string out;
    for (const WorkloadItem& item : s.workload.items) {
        const Bytes owned = item.ownedBy(rank);
        if (owned == 0)
            continue;
        int holders = 0;
        for (int r = 0; r < s.ranks(); ++r)
            holders += item.ownedBy(r) > 0 ? 1 : 0;
        std::string what = item.name + ": ";
        if (owned == item.size)
            what += formatBytes(owned) + (holders > 1 ? " (replicated)" : " (all of it)");
        else
            what += formatBytes(owned) + " of " + formatBytes(item.size);
        out += (out.empty() ? "" : "; ") + what;
    }
    return out.empty() ? "nothing" : out;
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
            r.notes.push_back("The results could not be verified: " + v.error().message + ".");
    }
    for (int rank = 0; rank < s.ranks(); ++rank) {
        RankOutput out;
        out.rank = rank;
        out.device = rank < static_cast<int>(r.run.devices.size()) ? r.run.devices[static_cast<size_t>(rank)]
                                                                   : s.topology.gpus[static_cast<size_t>(rank)].name;
        out.owns = ownsText(s, rank);
        const auto it
            = std::find_if(verified.begin(), verified.end(), [rank](const VerifiedRank& v) { return v.rank == rank; });
        out.inGroup = it != verified.end();
        if (!op) {
            out.verification = "no collective to verify";
        } else if (!out.inGroup) {
            out.verification = std::string("not in the group of ") + r.collectiveName;
        } else {
            out.localInput = it->input;
            out.localResult = it->result;
            out.checkedElements = it->expected.size();
            if (r.run.hang) {
                out.verification = "not verified: the run hung (see the notes)";
            } else if (r.mode == RunMode::Live) {
                // The device compared every element with the fill pattern's closed form; the run
                // carries its count of mismatches (#wrong) per collective.
                for (const CollectiveRecord& rec : r.run.collectives)
                    if (std::find(rec.group.begin(), rec.group.end(), rank) != rec.group.end()) {
                        out.wrongElements += static_cast<std::uint64_t>(std::max(0, rec.wrongElements));
                        ++out.checkedCollectives;
                    }
                out.verified = out.checkedCollectives > 0 && out.wrongElements == 0;
                out.verification = out.checkedCollectives == 0
                    ? std::string("not verified: no collective completed")
                    : std::to_string(out.wrongElements) + " wrong elements in " + std::to_string(out.checkedCollectives)
                        + " collective call" + (out.checkedCollectives == 1 ? "" : "s") + " (checked on the GPU)";
            } else {
                out.wrongElements = it->wrong;
                out.verified = it->wrong == 0;
                out.verification = std::to_string(out.checkedElements - std::min(out.checkedElements, it->wrong))
                    + " of " + std::to_string(out.checkedElements) + " elements match the expected value";
            }
        }
        r.ranks.push_back(std::move(out));
    }
    const bool sum = op && (op->kind == OpKind::AllReduce || op->kind == OpKind::ReduceScatterAllGather);
    r.verificationMethod = std::string("Rank r fills element j of its buffer with (r + 1) + (j mod 16)/16. ")
        + (sum ? "After the all-reduce (sum) over n ranks every element j must equal n(n + 1)/2 + n(j mod 16)/16. "
               : "Each element of the result is compared with the closed form of what the collective must leave. ")
        + (r.mode == RunMode::Live
                ? "The live run checked every element on the GPU and counted the mismatches (#wrong)."
                : "In this simulated report the result is computed with the collective's semantics on "
                    + std::to_string(options.verifyElements) + " elements per rank.");
}

} // namespace

Result<LabReport> buildLabReport(const Scenario& scenario, const LabReportOptions& options)
{
    if (Status st = validateScenario(scenario); !st)
        return st.error();
    if (scenario.ranks() > kMaxReportGpus)
        return badInput("$.topology.gpus: " + std::to_string(scenario.ranks()) + " GPUs (expected at most "
                        + std::to_string(kMaxReportGpus) + " for a lab report, which lists the path between every pair of"
                          " GPUs; sim, diagnose and scale take up to " + std::to_string(kMaxTopologyGpus) + ")");
    ScenarioRunner runner = options.runner;
    if (!runner) {
        if (options.mode == RunMode::Live)
            runner = [](const Scenario& sc) { return runLive(sc); };
        else
            runner = [](const Scenario& sc) { return simulate(sc); };
    }

    LabReport r;
    r.generator = std::string("ShardLab ") + kVersion;
    r.scenarioFile = options.scenarioFile;
    r.scenario = scenario;
    r.mode = options.mode;
    auto base = runner(scenario);
    if (!base)
        return base.error();
    r.run = std::move(*base);
    r.summary = summarize(scenario, r.run);

    const std::string profile = scenario.costProfile.empty() ? "default" : scenario.costProfile;
    if (r.mode == RunMode::Live) {
        std::string devices;
        for (const std::string& d : r.run.devices)
            devices += (devices.empty() ? "" : ", ") + d;
        r.modeSentence = "Measured live on this machine's GPUs (" + devices
            + ") with CUDA kernels and NCCL collectives; "
            + (r.run.clockNote.empty() ? std::string("per-rank clocks aligned by the live engine.")
                                       : r.run.clockNote + ".");
    } else {
        r.modeSentence = "Simulated with ShardLab's analytic cost model (profile " + profile
            + ") on the scenario's topology; no GPU was used.";
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
    if (!r.hasCollective)
        r.notes.push_back("The scenario has no collective: there is nothing to verify, no message size to vary and no "
                          "all-reduce to compare; the timing table has the scenario's own run only.");
    if (r.run.hang)
        r.notes.push_back("The run hung: " + r.run.hang->explanation + ".");
    if (!r.summary.fits)
        r.notes.push_back("At least one rank owns more than its GPU holds; see the capacity sentence below.");

    fillRankOutputs(r, options);

    if (r.mode == RunMode::Live && options.machineTopology)
        r.topology = summarizeTopology(*options.machineTopology, "this machine's GPUs, discovered with NVML");
    else
        r.topology = summarizeTopology(scenario.topology, "the scenario's topology (" + scenario.topology.name + ")");

    // The timing table: every collective rescaled so that the primary one moves each size.
    std::vector<Bytes> sizes;
    if (r.hasCollective)
        sizes = options.sizes.empty() ? defaultReportSizes(r.collectiveBytes) : options.sizes;
    else
        sizes = {0};
    for (Bytes size : sizes) {
        const double scale = r.hasCollective
            ? static_cast<double>(size) / static_cast<double>(std::max<Bytes>(1, r.collectiveBytes))
            : 1.0;
        Scenario scaled = r.hasCollective ? withCollectivesScaled(scenario, scale) : scenario;
        Result<RunResult> run = scale == 1.0 ? Result<RunResult>(r.run) : runner(scaled);
        if (!run)
            return Error {run.error().kind, "the run at " + formatBytes(size) + " failed: " + run.error().message};
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
    if (r.hasCollective)
        r.timingNote = "Each row runs the whole scenario again with every collective scaled so that " + r.collectiveName
            + " moves the given size; compute is unchanged. Times are per iteration, averaged over the "
            + std::to_string(scenario.ranks())
            + " ranks; \"collective alone\" is the collective's own duration (last arrival to end) and busbw its "
              "bus bandwidth. Read the trend across sizes: one size alone does not predict another.";

    r.limitingSegment = bottleneckName(r.summary.bottleneck);
    const char* limit = r.summary.bottleneck == Bottleneck::Communication ? "communication (the collectives)"
                        : r.summary.bottleneck == Bottleneck::Wait        ? "waiting at the synchronisation points"
                        : r.summary.bottleneck == Bottleneck::Capacity    ? "capacity (memory)"
                        : r.summary.bottleneck == Bottleneck::Hang        ? "a hang"
                                                                          : "compute";
    const std::string straggler =
        r.summary.straggler ? ": the straggler is rank " + std::to_string(*r.summary.straggler) : std::string();
    char buf[640];
    if (r.summary.hasSpeedup)
        std::snprintf(buf, sizeof buf, "Scaling efficiency is %.0f%% on %d GPUs (%.2fx speed-up), limited by %s%s. ",
                      r.summary.efficiency * 100, r.summary.ranks, r.summary.speedup, limit, straggler.c_str());
    else
        std::snprintf(buf, sizeof buf, "On %d GPUs there is no speed-up figure (%s); the run is limited by %s%s. ",
                      r.summary.ranks, r.summary.speedupNote.c_str(), limit, straggler.c_str());
    r.limitingSentence = buf + r.summary.sentence;

    if (r.hasCollective && r.group.size() >= 2) {
        auto prof = loadProfile(scenario.costProfile);
        if (!prof)
            r.notes.push_back("The comparison uses the built-in cost profile: " + prof.error().message + ".");
        CostModel model(scenario.topology, prof ? *prof : CostProfile::defaults());
        CollectiveComparison c = compareAllReduceWithRsAg(model, r.group, r.collectiveBytes);
        r.comparisonTimeSource = "the cost model";
        if (r.mode == RunMode::Live && r.collectiveKind == OpKind::AllReduce) {
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
                r.comparisonTimeSource = "measured on this machine";
                c.sentence = describeComparison(c);
            } else {
                r.notes.push_back("Reduce-scatter + all-gather could not be measured live; the comparison's times come "
                                  "from the cost model.");
            }
        }
        r.comparison = std::move(c);
    } else if (r.hasCollective) {
        r.notes.push_back("The collective has a single rank: there is nothing to compare.");
    }
    return r;
}

} // namespace shardlab
