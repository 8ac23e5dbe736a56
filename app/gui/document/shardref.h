// A reference to one shard, as drag and drop carries it: which item, which shard, and the GPU it
// was dragged from (-1 when it comes from the workload panel rather than from a GPU card).
#pragma once

#include <QList>
#include <QString>

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

} // namespace shardlab::gui
