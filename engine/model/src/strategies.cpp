#include "shardlab/model/strategies.h"

#include <numeric>

namespace shardlab {

namespace {
struct Info {
    Strategy s;
    const char* name;
};
constexpr Info kStrategies[] = {
    {Strategy::Replicate, "replicate"},
    {Strategy::DataParallel, "data_parallel"},
    {Strategy::Zero1, "zero1"},
    {Strategy::Zero2, "zero2"},
    {Strategy::Zero3, "zero3"},
    {Strategy::TensorParallel, "tensor_parallel"},
    {Strategy::PipelineParallel, "pipeline_parallel"},
};

enum class Placement { Replicated, Split, FirstRank };

Placement placementFor(Strategy s, ItemKind k)
{
    const bool modelState = k == ItemKind::Parameters || k == ItemKind::Gradients || k == ItemKind::OptimizerState;
    switch (s) {
    case Strategy::Replicate: return Placement::Replicated;
    case Strategy::DataParallel: return modelState ? Placement::Replicated : Placement::Split;
    case Strategy::Zero1:
        return k == ItemKind::Parameters || k == ItemKind::Gradients ? Placement::Replicated : Placement::Split;
    case Strategy::Zero2: return k == ItemKind::Parameters ? Placement::Replicated : Placement::Split;
    case Strategy::Zero3: return Placement::Split;
    case Strategy::TensorParallel:
        // every rank of a tensor-parallel group sees the same batch
        return k == ItemKind::Data ? Placement::Replicated : Placement::Split;
    case Strategy::PipelineParallel:
        // stage i owns layers i; the input batch enters at the first stage
        return k == ItemKind::Data ? Placement::FirstRank : Placement::Split;
    }
    return Placement::Replicated;
}

// strategy.summary.<name> (catalogue/strategy.inc)
Message sentence(Strategy s) { return Message(std::string("strategy.summary.") + strategyName(s)); }
} // namespace

const char* strategyName(Strategy strategy)
{
    for (const Info& i : kStrategies)
        if (i.s == strategy)
            return i.name;
    return "?";
}

std::optional<Strategy> strategyFromName(std::string_view name)
{
    for (const Info& i : kStrategies)
        if (name == i.name)
            return i.s;
    return std::nullopt;
}

std::vector<Strategy> allStrategies()
{
    std::vector<Strategy> out;
    for (const Info& i : kStrategies)
        out.push_back(i.s);
    return out;
}

StrategyOutcome applyStrategy(Scenario& scenario, Strategy strategy)
{
    StrategyOutcome out;
    const int n = scenario.ranks();
    std::vector<int> all(static_cast<size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    for (WorkloadItem& item : scenario.workload.items) {
        switch (placementFor(strategy, item.kind)) {
        case Placement::Replicated:
            item.shards = {Shard{0, item.size, all}};
            out.replicated.push_back(item.name);
            break;
        case Placement::Split:
            item.shards = evenShards(item.size, n);
            for (int r = 0; r < n; ++r)
                item.shards[static_cast<size_t>(r)].owners = {r};
            out.split.push_back(item.name);
            break;
        case Placement::FirstRank:
            item.shards = {Shard{0, item.size, {0}}};
            out.split.push_back(item.name);
            break;
        }
    }
    scenario.strategy = strategyName(strategy);
    out.summary = sentence(strategy);
    return out;
}

} // namespace shardlab
