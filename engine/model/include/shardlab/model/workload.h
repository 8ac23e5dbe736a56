// What the job holds (workload items) and who owns which bytes of it (shards and owners).
//
// An item is split into one or more shards that cover it without overlap. Each shard is owned by
// zero or more ranks: one owner means "split", several means "replicated". A rank's memory is the
// sum of the shards it owns; capacity is checked per rank, never against the sum of all GPUs.
#pragma once

#include "shardlab/base/units.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

enum class ItemKind { Parameters, Gradients, OptimizerState, Activations, Data };

const char* itemKindName(ItemKind kind); // "parameters", "gradients", "optimizer_state", "activations", "data"
std::optional<ItemKind> itemKindFromName(std::string_view name);

struct Shard {
    Bytes offset = 0;
    Bytes size = 0;
    std::vector<int> owners; // ranks, ascending, unique
    bool operator==(const Shard&) const = default;
};

struct WorkloadItem {
    std::string name; // unique
    ItemKind kind = ItemKind::Parameters;
    Bytes size = 0;
    std::vector<Shard> shards;
    std::string nameZh = {}; // its name in Chinese, where the file gives one ("name_zh"); see namedIn()
    bool operator==(const WorkloadItem&) const = default;

    // Bytes of this item that `rank` owns.
    Bytes ownedBy(int rank) const;
    // Fraction of the item's work that `rank` does when a compute phase runs over it.
    double workFraction(int rank) const;
};

struct Workload {
    std::vector<WorkloadItem> items;
    bool operator==(const Workload&) const = default;

    const WorkloadItem* find(const std::string& name) const;
    WorkloadItem* find(const std::string& name);
};

// Splits `size` into n nearly equal shards (the first size % n shards get one byte more).
std::vector<Shard> evenShards(Bytes size, int n);
// Shards of the given sizes, laid end to end; the sizes must add up to the item.
std::vector<Shard> customShards(const std::vector<Bytes>& sizes);

// Ownership edits used by the GUI and the strategies. All keep owners sorted and unique.
void assignShard(Shard& shard, int rank); // the shard moves to `rank` alone
void addOwner(Shard& shard, int rank);    // replicate onto `rank` too
void removeOwner(Shard& shard, int rank);

} // namespace shardlab
