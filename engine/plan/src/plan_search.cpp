#include "shardlab/plan/plan_search.h"

#include <algorithm>
#include <map>

namespace shardlab {

namespace {

std::vector<int> divisorsOf(int n, int most)
{
    std::vector<int> out;
    for (int d = 1; d <= n && d <= most; ++d)
        if (n % d == 0)
            out.push_back(d);
    return out;
}

std::vector<ParallelPlan> candidates(const TransformerModel& model, const TrainingSettings& settings, int gpus)
{
    std::vector<ParallelPlan> out;
    for (int tp : divisorsOf(gpus, 64))
        for (int cp = 1; cp <= 32 && gpus / tp % cp == 0; cp *= 2) {
            if (cp > 1 && settings.seq < 16384) // ring attention pays off for long sequences only
                break;
            for (int pp : divisorsOf(gpus / tp / cp, model.layers)) {
                const int dp = gpus / tp / cp / pp;
                std::vector<int> eps{1};
                if (model.moe())
                    eps = divisorsOf(dp, model.experts);
                for (int ep : eps) {
                    std::vector<ZeroStage> zeros{ZeroStage::None};
                    if (dp * cp > 1) {
                        zeros.push_back(ZeroStage::Optimizer);
                        zeros.push_back(pp == 1 ? ZeroStage::Weights : ZeroStage::Fsdp);
                    }
                    std::vector<PipelineSchedule> schedules{{ScheduleKind::OneFOneB, 1}};
                    if (pp > 1)
                        for (int v : {2, 4})
                            if (model.layers % (pp * v) == 0)
                                schedules.push_back({ScheduleKind::Interleaved, v});
                    for (ZeroStage zero : zeros)
                        for (const PipelineSchedule& schedule : schedules) {
                            ParallelPlan plan;
                            plan.tp = tp;
                            plan.cp = cp;
                            plan.pp = pp;
                            plan.dp = dp;
                            plan.ep = ep;
                            plan.zero = zero;
                            plan.schedule = schedule;
                            out.push_back(plan);
                        }
                }
            }
        }
    return out;
}

} // namespace

PlanSearch searchPlans(const TransformerModel& model, const TrainingSettings& base, PlanPricer& pricer,
                       const PlanSearchOptions& options)
{
    PlanSearch out;
    const int gpus = options.gpus > 0 ? options.gpus : pricer.topology().rankCount();
    TrainingSettings fixed = base;
    if (fixed.globalBatch <= 0)
        fixed.globalBatch = gpus; // one sequence per GPU, the same for every plan so that steps compare
    std::vector<int> microBatches{base.microBatch};
    if (base.microBatch <= 0)
        microBatches = options.microBatches;

    std::map<std::string, DroppedPlans> dropped;
    auto drop = [&](Message reason, const ParallelPlan& plan) {
        auto [it, added] = dropped.try_emplace(reason.id, DroppedPlans{std::move(reason), 0});
        if (added)
            it->second.reason.arg("plan", planText(plan));
        ++it->second.count;
    };
    std::vector<std::pair<ParallelPlan, TrainingSettings>> runnable;
    for (const ParallelPlan& plan : candidates(model, fixed, gpus))
        for (int mb : microBatches) {
            TrainingSettings settings = fixed;
            settings.microBatch = mb;
            ++out.considered;
            const std::vector<Message> problems = planProblems(model, settings, plan, pricer.topology());
            if (!problems.empty()) {
                drop(problems.front(), plan);
                continue;
            }
            double peak = 0;
            for (const PlanMemory& m : stageMemory(model, settings, plan))
                peak = std::max(peak, m.peak());
            double capacity = static_cast<double>(pricer.topology().gpus.front().memory);
            if (peak > capacity) {
                drop(Message("plan.drop.memory"), plan);
                continue;
            }
            runnable.emplace_back(plan, settings);
        }
    const int total = static_cast<int>(runnable.size());
    for (int i = 0; i < total; ++i) {
        out.plans.push_back(estimatePlan(model, runnable[static_cast<size_t>(i)].second,
                                         runnable[static_cast<size_t>(i)].first, pricer));
        if (options.progress && !options.progress(i + 1, total))
            break;
    }
    std::stable_sort(out.plans.begin(), out.plans.end(),
                     [](const PlanEstimate& a, const PlanEstimate& b) { return a.stepUs < b.stepUs; });
    for (auto& [id, d] : dropped)
        out.dropped.push_back(std::move(d));
    std::stable_sort(out.dropped.begin(), out.dropped.end(),
                     [](const DroppedPlans& a, const DroppedPlans& b) { return a.count > b.count; });
    return out;
}

} // namespace shardlab
