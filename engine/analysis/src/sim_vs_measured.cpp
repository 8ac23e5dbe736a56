#include "shardlab/analysis/sim_vs_measured.h"

#include "shardlab/analysis/summary.h"

#include <map>
#include <tuple>
#include <utility>

namespace shardlab {

std::optional<double> relativeErrorPct(double measured, double simulated)
{
    if (!(measured > 0))
        return std::nullopt;
    return (simulated - measured) / measured * 100.0;
}

namespace {

struct Mean {
    double sumMs = 0;
    int count = 0;
    double value() const { return count ? sumMs / count : 0.0; }
};

// Mean instance time of every program step in one run (see compareRuns for what an instance is).
std::vector<Mean> phaseMeans(const Scenario& s, const RunResult& run)
{
    std::vector<Mean> means(s.program.size());
    // compute: (op, rank, iteration) -> summed time
    std::map<std::tuple<int, int, int>, double> compute;
    for (const Span& sp : run.spans) {
        if (sp.kind != SpanKind::Compute || sp.detail != SpanDetail::None || sp.op < 0
            || sp.op >= static_cast<int>(s.program.size()))
            continue;
        compute[{sp.op, sp.rank, sp.iteration}] += sp.durationUs() / 1e3;
    }
    for (const auto& [key, ms] : compute) {
        Mean& m = means[static_cast<size_t>(std::get<0>(key))];
        m.sumMs += ms;
        ++m.count;
    }
    for (const CollectiveRecord& rec : run.collectives) {
        if (rec.op < 0 || rec.op >= static_cast<int>(s.program.size()))
            continue;
        Mean& m = means[static_cast<size_t>(rec.op)];
        m.sumMs += rec.durationUs() / 1e3;
        ++m.count;
    }
    return means;
}

} // namespace

RunComparison compareRuns(const Scenario& s, const RunResult& measured, const RunResult& simulated)
{
    RunComparison cmp;
    const std::vector<Mean> meas = phaseMeans(s, measured);
    const std::vector<Mean> sim = phaseMeans(s, simulated);
    for (size_t i = 0; i < s.program.size(); ++i) {
        const Op& op = s.program[i];
        PhaseComparison p;
        p.op = static_cast<int>(i);
        p.name = op.name.empty() ? opName(op.kind) : op.name;
        p.kind = op.kind;
        p.measuredMs = meas[i].value();
        p.simulatedMs = sim[i].value();
        p.measuredCount = meas[i].count;
        p.simulatedCount = sim[i].count;
        if (p.measuredCount > 0)
            p.errorPct = relativeErrorPct(p.measuredMs, p.simulatedMs);
        cmp.phases.push_back(std::move(p));
    }
    cmp.measuredStepMs = summarize(s, measured).stepTimeMs;
    cmp.simulatedStepMs = summarize(s, simulated).stepTimeMs;
    cmp.stepErrorPct = relativeErrorPct(cmp.measuredStepMs, cmp.simulatedStepMs);
    return cmp;
}

} // namespace shardlab
