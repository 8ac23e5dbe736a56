// The editor's edits, each one undoable step on a Document with a name users read in the Edit
// menu ("Move 'batch' #2 to GPU 3"). The rules are the engine's (workload.h, scenario_edit.h,
// strategies.h); these only pick the right one and name the step.
#pragma once

#include "document/shardref.h"
#include "shardlab/base/result.h"
#include "shardlab/plan/plan_scenario.h"
#include "shardlab/model/scenario.h"
#include "shardlab/model/strategies.h"

#include <QCoreApplication>
#include <QList>

#include <vector>

namespace shardlab::gui {

class Document;

class Edits {
    Q_DECLARE_TR_FUNCTIONS(Edits)
public:
    // ---- ownership ----
    // Drops shards on GPU `toRank`. `copy` (Ctrl-drag) adds the GPU as one more owner (replicate);
    // otherwise a shard dragged from a GPU moves from that GPU to this one, and a shard dragged from
    // the workload panel goes to this GPU alone.
    static Status dropShards(Document& doc, const QList<ShardRef>& refs, int toRank, bool copy);
    // A plan's scenario: the TP group (or, `unit` Stage, the pipeline stage) GPU `fromRank` plays
    // swaps places with the one GPU `toRank` plays (meshUnitSwaps, plan_scenario.h), as one
    // undoable step; nothing happens when both are in the same one.
    static Status moveMeshUnit(Document& doc, int fromRank, int toRank, MeshUnit unit);
    // Takes shards off the GPU they were picked from (or off every GPU when picked in the panel).
    static Status releaseShards(Document& doc, const QList<ShardRef>& refs);
    static Result<StrategyOutcome> placeByStrategy(Document& doc, Strategy strategy);
    // New shards for an item; each keeps the owners of the old shard holding its first byte.
    static Status splitItem(Document& doc, int item, std::vector<Shard> shards);

    // ---- workload items ----
    static Status addItem(Document& doc, const WorkloadItem& item);
    static Status removeItem(Document& doc, int item);
    static Status renameItem(Document& doc, int item, const QString& name);
    static Status setItemKind(Document& doc, int item, ItemKind kind);
    static Status setItemSize(Document& doc, int item, Bytes size);

    // ---- topology ----
    static Status addGpuLike(Document& doc, int rank);
    static Status removeGpu(Document& doc, int rank);
    static Status setGpuName(Document& doc, int rank, const QString& name);
    static Status setGpuMemory(Document& doc, int rank, Bytes memory);
    static Status setGpuTflops(Document& doc, int rank, double tflops);
    static Status addLink(Document& doc, const Link& link);
    static Status removeLink(Document& doc, int link);
    static Status setLinkBandwidth(Document& doc, int link, double gbps);
    static Status setLinkCount(Document& doc, int link, int count);
    // A new machine (a preset or a cluster built from one). When the ownership came from a
    // strategy, the strategy is applied again on the new ranks.
    static Status useTopology(Document& doc, Topology topology);

    // ---- program ----
    static Status insertOp(Document& doc, int index, const Op& op);
    static Status removeOp(Document& doc, int index);
    static Status moveOp(Document& doc, int from, int to);
    // Replaces step `index`; `field` names what changed so that typing merges into one undo step.
    static Status setOp(Document& doc, int index, const Op& op, const QString& field);
    static Status setIterations(Document& doc, int iterations);
};

} // namespace shardlab::gui
