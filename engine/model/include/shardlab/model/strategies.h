// One-click ownership by parallel strategy. Each generator rewrites the shards of every item
// and says in words what it replicated and what it split.
#pragma once

#include "shardlab/model/scenario.h"
#include "shardlab/text/message.h"

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
    Message summary;                     // one sentence (strategy.summary.*)
    std::vector<Message> programChanges; // what adaptProgram changed, where the caller asked for it
};

// Applies the strategy's placement to every item of the scenario over all its ranks. The
// program is not touched (the scenario reader places items this way): adaptProgram does that.
StrategyOutcome applyStrategy(Scenario& scenario, Strategy strategy);

// Gives the program the communication the strategy needs (strategy_program.cpp, with the volumes
// of the ZeRO paper): data parallel all-reduces the gradients; ZeRO-1 and ZeRO-2 reduce-scatter
// them and all-gather the updated parameters after the step; ZeRO-3 reduce-scatters them and
// all-gathers the parameters before the forward and again before the backward pass, so a compute
// step on the parameters becomes a forward (a third of its work) and a backward (two thirds).
// A gradient synchronisation is an all-reduce or reduce-scatter of a gradients item on every
// rank; the parameters gathered are the largest parameters item. Tensor and pipeline parallel
// leave the program as it is (strategy.program.kept). Steps it adds are named in `language`.
// Returns what changed, one message a change (strategy.program.*); nothing when the program
// already had that communication.
std::vector<Message> adaptProgram(Scenario& scenario, Strategy strategy, Language language);

} // namespace shardlab
