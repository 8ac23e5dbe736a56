#include "shardlab/model/workload.h"

#include <algorithm>

namespace shardlab {

const char* itemKindName(ItemKind kind)
{
    switch (kind) {
    case ItemKind::Parameters: return "parameters";
    case ItemKind::Gradients: return "gradients";
    case ItemKind::OptimizerState: return "optimizer_state";
    case ItemKind::Activations: return "activations";
    case ItemKind::Data: return "data";
    }
    return "?";
}

std::optional<ItemKind> itemKindFromName(std::string_view name)
{
    for (ItemKind k :
         {ItemKind::Parameters, ItemKind::Gradients, ItemKind::OptimizerState, ItemKind::Activations, ItemKind::Data})
        if (name == itemKindName(k))
            return k;
    return std::nullopt;
}

Bytes WorkloadItem::ownedBy(int rank) const
{
    Bytes total = 0;
    for (const Shard& s : shards)
        if (std::binary_search(s.owners.begin(), s.owners.end(), rank))
            total += s.size;
    return total;
}

double WorkloadItem::workFraction(int rank) const
{
    return size == 0 ? 0.0 : static_cast<double>(ownedBy(rank)) / static_cast<double>(size);
}

const WorkloadItem* Workload::find(const std::string& name) const
{
    for (const WorkloadItem& item : items)
        if (item.name == name)
            return &item;
    return nullptr;
}

WorkloadItem* Workload::find(const std::string& name)
{
    return const_cast<WorkloadItem*>(static_cast<const Workload*>(this)->find(name));
}

std::vector<Shard> evenShards(Bytes size, int n)
{
    std::vector<Shard> shards;
    if (n <= 0)
        return shards;
    const Bytes base = size / static_cast<Bytes>(n), extra = size % static_cast<Bytes>(n);
    Bytes offset = 0;
    for (int i = 0; i < n; ++i) {
        const Bytes s = base + (static_cast<Bytes>(i) < extra ? 1 : 0);
        shards.push_back({offset, s, {}});
        offset += s;
    }
    return shards;
}

std::vector<Shard> customShards(const std::vector<Bytes>& sizes)
{
    std::vector<Shard> shards;
    Bytes offset = 0;
    for (Bytes s : sizes) {
        shards.push_back({offset, s, {}});
        offset += s;
    }
    return shards;
}

void assignShard(Shard& shard, int rank) { shard.owners = {rank}; }

void addOwner(Shard& shard, int rank)
{
    auto it = std::lower_bound(shard.owners.begin(), shard.owners.end(), rank);
    if (it == shard.owners.end() || *it != rank)
        shard.owners.insert(it, rank);
}

void removeOwner(Shard& shard, int rank) { std::erase(shard.owners, rank); }

} // namespace shardlab
