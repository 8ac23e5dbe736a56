// Edits of a scenario that keep every reference in it valid. The GUI's editor runs each as one
// undoable step; the rules live here so that the CLI, scripts and tests get the same behaviour.
//
// GPU r is rank r, and ranks appear in shards' owners, the program's groups, roots and peers, and
// the perturbations; program steps are referred to by index from the perturbations. Removing or
// moving either renumbers every reference.
#pragma once

#include "shardlab/model/scenario.h"

#include <string>
#include <vector>

namespace shardlab {

// ---- GPUs and topology ----

// A unique id "gpuN" for a new GPU (the smallest N not used by any vertex).
std::string newGpuId(const Topology& topology);
// Adds a copy of GPU `rank` (device, memory, speed, node, socket) joined to the same switches and
// GPUs by copies of its links. Returns the new rank (the last), or -1 when `rank` does not exist.
int addGpuLike(Scenario& scenario, int rank);
// Removes GPU `rank` and its links; higher ranks move down by one. The rank's ownership is
// dropped; program steps it cannot run without (a send/recv from or to it, a group of it alone)
// are removed; a root that was the rank falls back to the group's first rank; its slowdown, delays
// and mismatches go; a plan's mesh goes. Nothing happens when `rank` does not exist.
void removeRank(Scenario& scenario, int rank);
// Swaps the roles of GPUs `a` and `b`: every reference to rank a (shards' owners, the program's
// groups, roots and peers, slowdowns, delays, mismatches, the mesh's places) names b and the
// other way round; the machine stays as it is. So the same work runs on other GPUs, over other
// links: dragging a pipeline stage or a TP group onto other GPUs is one swap per member. A
// group keeps its order (the order of its places on the mesh). Nothing happens when either
// does not exist or they are the same.
void swapRanks(Scenario& scenario, int a, int b);
// Replaces the topology, keeping the workload and program. Ranks the new topology lacks are removed
// as removeRank does (from the last); new ranks own nothing.
void replaceTopology(Scenario& scenario, Topology topology);

// ---- workload items ----

// Gives `item` new shards (which must cover it end to end). Each new shard takes the owners of the
// old shard that held its first byte, so re-splitting never loses or invents a placement.
void resplitItem(WorkloadItem& item, std::vector<Shard> shards);
// Changes the item's size. Shards keep their share of the item (the last one absorbs rounding) and
// their owners; a shard that would shrink to nothing is merged into the next.
void resizeItem(WorkloadItem& item, Bytes size);
// Renames an item and every program step that refers to it. False when `to` is empty or taken.
bool renameItem(Scenario& scenario, const std::string& from, const std::string& to);
// Removes an item and the program steps that work on it. Returns how many steps were removed.
int removeItem(Scenario& scenario, const std::string& name);

// ---- program ----

// Inserts `op` before step `index` (clamped to the end); delays and mismatches keep their step.
void insertOp(Scenario& scenario, int index, Op op);
// Removes step `index` with the delays and mismatches that refer to it.
void removeOp(Scenario& scenario, int index);
// Moves step `from` to position `to`; delays and mismatches follow their step.
void moveOp(Scenario& scenario, int from, int to);

} // namespace shardlab
