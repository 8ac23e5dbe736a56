#include "shardlab/profile/profile_scenario.h"

#include "shardlab/model/presets.h"
#include "shardlab/sim/cost_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <tuple>
#include <vector>

namespace shardlab {

Topology defaultProfileMachine(int ranks) { return scaleOut(*preset("h200-nvswitch-8"), std::max(ranks, 1)); }

Result<Scenario> resimulationScenario(const Scenario& scenario, const RunResult& run, const Topology& topology)
{
    Scenario s = scenario;
    s.topology = topology;
    s.perturbations = {};
    const int n = run.ranks;
    if (topology.rankCount() != n)
        return badInput(Message("error.line.profile_machine_size").with("gpus", topology.rankCount()).with("ranks", n));
    const size_t ops = s.program.size();
    // Measured compute per (op, rank): its mean per step over the steps in which the rank reached
    // the collective after it (op + 1), its work before a collective that never completed (a step
    // cut short) left out; summed over all its spans where it reached that collective in no step
    // (a profile of one iteration whose records end early).
    std::set<std::tuple<int, int, int>> reachedIn; // (work op, rank, iteration)
    std::vector<std::vector<int>> reached(ops, std::vector<int>(static_cast<size_t>(n), 0));
    for (const CollectiveRecord& c : run.collectives) {
        if (c.op < 1 || static_cast<size_t>(c.op) >= ops)
            continue;
        for (size_t g = 0; g < c.group.size() && g < c.arrivalUs.size(); ++g)
            if (std::isfinite(c.arrivalUs[g]) && c.group[g] >= 0 && c.group[g] < n
                && reachedIn.emplace(c.op - 1, c.group[g], c.iteration).second)
                ++reached[static_cast<size_t>(c.op - 1)][static_cast<size_t>(c.group[g])];
    }
    std::vector<std::vector<double>> computeUs(ops, std::vector<double>(static_cast<size_t>(n), 0.0));
    std::vector<std::vector<double>> unreachedUs = computeUs;
    for (const Span& sp : run.spans) {
        if (sp.kind != SpanKind::Compute || sp.op < 0 || static_cast<size_t>(sp.op) >= ops || sp.rank < 0
            || sp.rank >= n)
            continue;
        auto& into = reachedIn.count({sp.op, sp.rank, sp.iteration}) ? computeUs : unreachedUs;
        into[static_cast<size_t>(sp.op)][static_cast<size_t>(sp.rank)] += sp.durationUs();
    }
    for (size_t i = 0; i < ops; ++i)
        for (size_t r = 0; r < static_cast<size_t>(n); ++r)
            computeUs[i][r] = reached[i][r] > 0 ? computeUs[i][r] / reached[i][r] : unreachedUs[i][r];
    CostModel model(topology);
    const double usPerFlop = model.computeUs(1.0, 0);
    for (size_t i = 0; i < ops; ++i) {
        Op& op = s.program[i];
        if (op.kind != OpKind::Compute)
            continue;
        op.item.clear();
        const std::vector<double>& t = computeUs[i];
        const double least = *std::min_element(t.begin(), t.end());
        op.flops = usPerFlop > 0 ? least / usPerFlop : 0;
        for (int r = 0; r < n; ++r) {
            const double extraMs = (t[static_cast<size_t>(r)] - least) / 1e3;
            // Said as what was measured, not as the scenario path it would break ($.perturbations...).
            if (extraMs > 1e6) {
                char seconds[32];
                std::snprintf(seconds, sizeof seconds, "%.1f", extraMs / 1e3);
                return badInput(Message("error.line.profile_delay_too_long")
                                    .with("rank", r)
                                    .with("seconds", std::string(seconds))
                                    .with("op", i + 1 < ops ? s.program[i + 1].name : op.name));
            }
            if (extraMs > 1e-6)
                s.perturbations.delays.push_back({r, static_cast<int>(i), -1, extraMs});
        }
    }
    if (Status ok = validateScenario(s); !ok)
        return ok.error();
    return s;
}

} // namespace shardlab
