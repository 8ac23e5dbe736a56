// All-gather-v's per-member pieces: shared by the simulator (what it prices) and the playback
// activity (what it draws), so both see the same sizes.
#pragma once

#include "shardlab/model/scenario.h"

#include <vector>

namespace shardlab {

// The piece each member of `group` (ascending) contributes to an all_gather_v of `op`: the bytes
// of op's item that it owns, rescaled to op.bytes when that is given, keeping the proportions.
// For the whole op (all buckets).
inline std::vector<Bytes> allGatherPieces(const Scenario& s, const Op& op, const std::vector<int>& group)
{
    std::vector<Bytes> pieces;
    const WorkloadItem* item = s.workload.find(op.item);
    Bytes total = 0;
    for (int r : group) {
        const Bytes b = item ? item->ownedBy(r) : 0;
        pieces.push_back(b);
        total += b;
    }
    if (op.bytes && total > 0 && *op.bytes != total) {
        for (Bytes& b : pieces)
            b = static_cast<Bytes>(static_cast<double>(b) * static_cast<double>(*op.bytes)
                                   / static_cast<double>(total));
    }
    return pieces;
}

} // namespace shardlab
