// The collective algorithms the cost model knows, one row each: which algorithm, whether NCCL's
// tuner (Auto) considers it, where it applies and what it costs. CostModel::collective() prices
// every row that applies and keeps the fastest, as NCCL's tuner does. Adding an algorithm is one
// estimate function and one row (collective_algorithms.cpp); docs/cost-model.md gives the formulas.
#pragma once

#include "collective_context.h"

#include <span>

namespace shardlab::detail {

struct AlgorithmRow {
    Algorithm algorithm;
    bool tunerPicks; // considered under Auto; otherwise only when asked for by name
    bool (*applies)(const CollectiveContext&);
    CollectiveCost (*estimate)(CollectiveContext&);
};

// In the order they are tried: on equal times the earlier row wins.
std::span<const AlgorithmRow> collectiveAlgorithms();

} // namespace shardlab::detail
