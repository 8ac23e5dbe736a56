// A stated plan priced: the GPU count settled from the sizes, the machine grown to it, the plan
// refused with planProblems()' reasons or priced with estimatePlan().
#include "shardlab/plan/plan_request.h"

#include "shardlab/plan/transformer.h"

#include <algorithm>

namespace shardlab {

long long PlanRequest::gpuCount() const
{
    if (gpus > 0)
        return gpus;
    return static_cast<long long>(plan.tp) * plan.cp * plan.pp * std::max(plan.dp, 1);
}

Result<std::optional<ComputeCalibration>> planCompute(const std::string& computeFile, const Gpu& gpu)
{
    std::optional<ComputeCalibration> measured;
    if (!computeFile.empty()) {
        auto file = loadComputeCalibration(computeFile);
        if (!file)
            return file.error();
        measured = std::move(*file);
    }
    return planComputeCalibration(gpu, std::move(measured));
}

Result<PlanPricing> pricePlan(const PlanRequest& request, const CostProfile& profile)
{
    auto model = loadModel(request.model);
    if (!model)
        return model.error();
    const ParallelPlan& asked = request.plan;
    const long long fixed = static_cast<long long>(asked.tp) * asked.cp * asked.pp;
    const long long gpus = request.gpuCount();
    if (gpus < 1 || gpus > kMaxTopologyGpus) {
        PlanPricing refused;
        refused.problems.push_back(
            Message("plan.refuse.gpu_count").with("gpus", std::to_string(gpus)).with("max", kMaxTopologyGpus));
        return refused;
    }
    ParallelPlan plan = asked;
    if (plan.dp <= 0) {
        if (gpus % fixed != 0) {
            PlanPricing refused;
            refused.problems.push_back(
                Message("plan.refuse.gpus_not_multiple").with("gpus", gpus).with("product", fixed));
            return refused;
        }
        plan.dp = static_cast<int>(gpus / fixed);
    }
    auto topology = planMachine(request.machine, static_cast<int>(gpus));
    if (!topology)
        return topology.error();
    PlanPricing out;
    out.problems = planProblems(*model, request.settings, plan, *topology);
    if (!out.problems.empty())
        return out;
    auto compute = planCompute(request.computeFile, topology->gpus.front());
    if (!compute)
        return compute.error();
    PlanPricer pricer(*topology, profile, std::move(*compute));
    PlanEstimate estimate = estimatePlan(*model, request.settings, plan, pricer);
    out.priced = PricedPlan{std::move(*model), request.settings, std::move(*topology), std::move(estimate)};
    return out;
}

} // namespace shardlab
