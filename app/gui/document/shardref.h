// What the diagram's drags carry, packed into mime data and back: shards (which item, which shard,
// and the GPU it was dragged from: -1 when it comes from the workload panel rather than from a GPU
// card), and a plan's TP group or pipeline stage (a plan's GPU card dragged onto another).
#pragma once

#include "shardlab/plan/plan_scenario.h"

#include <QList>
#include <QString>

#include <optional>

class QMimeData;

namespace shardlab::gui {

struct ShardRef {
    int item = -1;
    int shard = -1;
    int fromRank = -1;
    bool operator==(const ShardRef&) const = default;
};

inline constexpr char kShardMimeType[] = "application/x-shardlab-shards";

// Packs references into mime data ("item,shard,fromRank" per line) and back. Unpacking skips
// malformed lines, so a foreign drop never produces a bogus reference.
QMimeData* shardMimeData(const QList<ShardRef>& refs);
QList<ShardRef> shardRefsFrom(const QMimeData* mime);

// A plan's GPU card dragged onto another: its rank and whether its TP group or (Shift held) its
// pipeline stage moves (Edits::moveMeshUnit), as "RANK UNIT" (UNIT 0: TP group, 1: stage).
struct MeshUnitRef {
    int rank = -1;
    MeshUnit unit = MeshUnit::TensorGroup;
    bool operator==(const MeshUnitRef&) const = default;
};

inline constexpr char kMeshUnitMimeType[] = "application/x-shardlab-mesh-unit";

QMimeData* meshUnitMimeData(const MeshUnitRef& ref);
// nullopt for a foreign or malformed payload.
std::optional<MeshUnitRef> meshUnitFrom(const QMimeData* mime);

} // namespace shardlab::gui
