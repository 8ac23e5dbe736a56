// One-click ownership by parallel strategy. Each generator rewrites the shards of every item
// and says in words what it replicated and what it split.
#pragma once

#include "shardlab/model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

enum class Strategy {
    Replicate,        // every rank holds everything
    DataParallel,     // model state replicated, data/activations split by batch
    Zero1,            // + optimizer state sharded
    Zero2,            // + gradients sharded
    Zero3,            // + parameters sharded (FSDP)
    TensorParallel,   // every tensor split by width across the group
    PipelineParallel, // layers split by depth: each stage owns a contiguous slice of the model
};

const char* strategyName(Strategy strategy); // "replicate", "data_parallel", "zero1", ...
std::optional<Strategy> strategyFromName(std::string_view name);
std::vector<Strategy> allStrategies();

struct StrategyOutcome {
    std::vector<std::string> replicated; // item names
    std::vector<std::string> split;
    std::string summary;                 // one sentence
};

// Applies the strategy to every item of the scenario over all its ranks.
StrategyOutcome applyStrategy(Scenario& scenario, Strategy strategy);

} // namespace shardlab
