// Per-rank memory: what each rank owns, its peak (owned + the largest transient buffer of its
// collectives), and what its GPU holds. The peak decides whether a rank fits (docs/cost-model.md §5).
#pragma once

#include "shardlab/model/scenario.h"

#include "shardlab/text/message.h"

#include <string>
#include <vector>

namespace shardlab {

struct RankMemory {
    int rank = 0;
    Bytes owned = 0; // sum of owned shards
    // The largest buffer a collective of the program adds on this rank: the result bytes it
    // receives beyond what it already owns of the op's item, per bucket.
    Bytes transient = 0;
    Bytes capacity = 0;   // the GPU's memory
    Bytes byKind[5] = {}; // owned bytes by ItemKind
    // owned + transient: what the rank holds at its fullest. It decides "fits".
    Bytes peak() const { return owned + transient; }
    bool fits() const { return peak() <= capacity; }
    bool ownedFits() const { return owned <= capacity; }
    // Owned bytes beyond the capacity (what unified memory pages every iteration).
    Bytes excess() const { return owned > capacity ? owned - capacity : 0; }
    // Peak bytes beyond the capacity.
    Bytes peakExcess() const { return peak() > capacity ? peak() - capacity : 0; }
    // Share of the GPU's memory in use: owned / capacity * 100 (above 100 when it does not fit).
    double usedPct() const;
};

struct CapacityReport {
    std::vector<RankMemory> ranks;
    Bytes totalOwned = 0;  // with replicas counted once per holder
    Bytes totalUnique = 0; // sum of item sizes
    double meanOwned = 0;
    double imbalancePct = 0; // (max - mean) / mean * 100
    int largestRank = -1;
    bool allFit() const;
    // Plain-language findings: overflows first, then imbalance; empty when all is well.
    std::vector<std::string> warnings;
    std::vector<Message> warningMessages; // the same, as data (one per warning, in order)
    // How far a rank's ownership is from the mean: (owned - mean) / mean * 100; 0 when nothing is owned.
    double deviationPct(int rank) const;
};

// `imbalanceThresholdPct`: ownership more unbalanced than this produces a warning.
CapacityReport capacityOf(const Scenario& scenario, double imbalanceThresholdPct = 10.0);

// Bytes of the workload that no rank owns, and one plain-language line per item with such bytes
// ("No rank owns 'batch' (2 GB)." / "2 of 8 shards of 'batch' (500 MB) have no owner.").
struct OwnershipGaps {
    Bytes unowned = 0;
    std::vector<std::string> messages;
    std::vector<Message> wordings; // the same, as data
};
OwnershipGaps ownershipGaps(const Scenario& scenario);

} // namespace shardlab
