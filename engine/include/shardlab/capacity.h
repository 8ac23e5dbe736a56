// Per-rank memory: what each rank owns against what its GPU holds.
#pragma once

#include "shardlab/scenario.h"

#include <string>
#include <vector>

namespace shardlab {

struct RankMemory {
    int rank = 0;
    Bytes owned = 0;      // sum of owned shards
    Bytes capacity = 0;   // the GPU's memory
    Bytes byKind[5] = {}; // owned bytes by ItemKind
    bool fits() const { return owned <= capacity; }
    Bytes excess() const { return owned > capacity ? owned - capacity : 0; }
};

struct CapacityReport {
    std::vector<RankMemory> ranks;
    Bytes totalOwned = 0;      // with replicas counted once per holder
    Bytes totalUnique = 0;     // sum of item sizes
    double meanOwned = 0;
    double imbalancePct = 0;   // (max - mean) / mean * 100
    int largestRank = -1;
    bool allFit() const;
    // Plain-language findings: overflows first, then imbalance; empty when all is well.
    std::vector<std::string> warnings;
};

// `imbalanceThresholdPct`: ownership more unbalanced than this produces a warning.
CapacityReport capacityOf(const Scenario& scenario, double imbalanceThresholdPct = 10.0);

} // namespace shardlab
