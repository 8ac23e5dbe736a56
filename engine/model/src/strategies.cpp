#include "shardlab/model/strategies.h"

#include <numeric>

namespace shardlab {

namespace {
struct Info { Strategy s; const char* name; };
constexpr Info kStrategies[] = {
    {Strategy::Replicate, "replicate"},   {Strategy::DataParallel, "data_parallel"},
    {Strategy::Zero1, "zero1"},           {Strategy::Zero2, "zero2"},
    {Strategy::Zero3, "zero3"},           {Strategy::TensorParallel, "tensor_parallel"},
    {Strategy::PipelineParallel, "pipeline_parallel"},
};

enum class Placement { Replicated, Split, FirstRank };

Placement placementFor(Strategy s, ItemKind k)
{
    const bool modelState = k == ItemKind::Parameters || k == ItemKind::Gradients || k == ItemKind::OptimizerState;
    switch (s) {
    case Strategy::Replicate:
        return Placement::Replicated;
    case Strategy::DataParallel:
        return modelState ? Placement::Replicated : Placement::Split;
    case Strategy::Zero1:
        return k == ItemKind::Parameters || k == ItemKind::Gradients ? Placement::Replicated : Placement::Split;
    case Strategy::Zero2:
        return k == ItemKind::Parameters ? Placement::Replicated : Placement::Split;
    case Strategy::Zero3:
        return Placement::Split;
    case Strategy::TensorParallel:
        // every rank of a tensor-parallel group sees the same batch
        return k == ItemKind::Data ? Placement::Replicated : Placement::Split;
    case Strategy::PipelineParallel:
        // stage i owns layers i; the input batch enters at the first stage
        return k == ItemKind::Data ? Placement::FirstRank : Placement::Split;
    }
    return Placement::Replicated;
}

const char* sentence(Strategy s)
{
    switch (s) {
    case Strategy::Replicate:
        return "Every rank holds a full copy of everything: simple, but each GPU needs the whole job's memory.";
    case Strategy::DataParallel:
        return "Data parallel: the model state is replicated on every rank and the batch is split, so memory per rank "
               "does not shrink for the model; gradients must be all-reduced every step.";
    case Strategy::Zero1:
        return "ZeRO-1: like data parallel, but each rank keeps only its slice of the optimizer state.";
    case Strategy::Zero2:
        return "ZeRO-2: optimizer state and gradients are sharded (gradients are reduce-scattered); parameters stay "
               "replicated.";
    case Strategy::Zero3:
        return "ZeRO-3 / FSDP: parameters, gradients and optimizer state are all sharded; parameters are all-gathered "
               "just before they are used.";
    case Strategy::TensorParallel:
        return "Tensor parallel: every tensor is split by width across the ranks, which all see the same batch; "
               "activations are combined with all-reduce inside each layer.";
    case Strategy::PipelineParallel:
        return "Pipeline parallel: the model is split by depth into stages, one per rank; activations pass from stage "
               "to stage with send/recv and the input enters at the first stage.";
    }
    return "";
}
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
