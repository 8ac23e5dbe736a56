#include "shardlab/model/capacity.h"

#include "shardlab/model/collectives.h"

#include <algorithm>
#include <map>
#include <string>
#include <cstdio>

namespace shardlab {

bool CapacityReport::allFit() const
{
    return std::all_of(ranks.begin(), ranks.end(), [](const RankMemory& r) { return r.fits(); });
}

namespace {

// Every collective of the program as it is written (no mismatches): the largest transient buffer
// per rank (RankMemory::transient). What each rank owns of an op's item is counted in one
// pass over the item's shards (ownedBy() per rank would be ranks x shards: 65,536 GPUs each
// owning a shard of one item took seconds). A scenario being edited may name ranks outside the
// topology; those are skipped.
void addTransients(const Scenario& scenario, CapacityReport& rep)
{
    const int n = scenario.ranks();
    std::map<std::string, std::vector<Bytes>> ownedOf; // item name -> bytes each rank owns of it
    for (const Op& op : scenario.program) {
        if (!isCollective(op.kind))
            continue;
        const std::vector<int> group = scenario.groupOf(op);
        const Bytes buckets = static_cast<Bytes>(std::max(op.buckets, 1));
        const Bytes bytes = scenario.bytesOf(op) / buckets;
        const std::vector<Bytes>* owned = nullptr;
        if (const WorkloadItem* item = scenario.workload.find(op.item)) {
            auto [it, added] = ownedOf.try_emplace(item->name);
            if (added) {
                it->second.assign(static_cast<size_t>(n), 0);
                for (const Shard& sh : item->shards)
                    for (int o : sh.owners)
                        if (o >= 0 && o < n)
                            it->second[static_cast<size_t>(o)] += sh.size;
            }
            owned = &it->second;
        }
        for (int rank : group) {
            if (rank < 0 || rank >= n)
                continue;
            const Bytes result = resultBytesPerRank(op.kind, bytes, static_cast<int>(group.size()), rank == op.root);
            const Bytes mine = owned ? (*owned)[static_cast<size_t>(rank)] / buckets : 0;
            Bytes& t = rep.ranks[static_cast<size_t>(rank)].transient;
            t = std::max(t, result > mine ? result - mine : 0);
        }
    }
}

} // namespace

CapacityReport capacityOf(const Scenario& scenario, double imbalanceThresholdPct)
{
    CapacityReport rep;
    const int n = scenario.ranks();
    rep.ranks.resize(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        rep.ranks[static_cast<size_t>(r)].rank = r;
        rep.ranks[static_cast<size_t>(r)].capacity = scenario.topology.gpus[static_cast<size_t>(r)].memory;
    }
    for (const WorkloadItem& item : scenario.workload.items) {
        rep.totalUnique += item.size;
        for (const Shard& sh : item.shards)
            for (int owner : sh.owners) {
                if (owner < 0 || owner >= n)
                    continue;
                RankMemory& rm = rep.ranks[static_cast<size_t>(owner)];
                rm.owned += sh.size;
                rm.byKind[static_cast<int>(item.kind)] += sh.size;
                rep.totalOwned += sh.size;
            }
    }
    if (n == 0)
        return rep;
    addTransients(scenario, rep);
    Bytes largest = 0;
    for (const RankMemory& rm : rep.ranks)
        if (rm.owned > largest || rep.largestRank < 0) {
            largest = rm.owned;
            rep.largestRank = rm.rank;
        }
    rep.meanOwned = static_cast<double>(rep.totalOwned) / n;
    rep.imbalancePct = rep.meanOwned > 0 ? (static_cast<double>(largest) - rep.meanOwned) / rep.meanOwned * 100.0 : 0.0;

    char buf[256];
    std::vector<int> over;
    std::vector<int> peakOnly; // owns what fits, but a collective's buffer takes it over
    for (const RankMemory& rm : rep.ranks)
        if (!rm.ownedFits())
            over.push_back(rm.rank);
        else if (!rm.fits())
            peakOnly.push_back(rm.rank);
    if (!over.empty()) {
        if (static_cast<int>(over.size()) == n && n > 1)
            std::snprintf(buf, sizeof buf, "No rank fits: every rank owns more than its GPU holds (rank %d owns %s of %s).",
                          over[0], formatBytes(rep.ranks[static_cast<size_t>(over[0])].owned).c_str(),
                          formatBytes(rep.ranks[static_cast<size_t>(over[0])].capacity).c_str());
        else
            std::snprintf(buf, sizeof buf, "Rank %d does not fit: it owns %s but its GPU holds %s (%s too much).", over[0],
                          formatBytes(rep.ranks[static_cast<size_t>(over[0])].owned).c_str(),
                          formatBytes(rep.ranks[static_cast<size_t>(over[0])].capacity).c_str(),
                          formatBytes(rep.ranks[static_cast<size_t>(over[0])].excess()).c_str());
        rep.warnings.push_back(buf);
        if (over.size() > 1 && static_cast<int>(over.size()) < n) {
            std::string others;
            for (size_t i = 1; i < over.size(); ++i)
                others += (i > 1 ? ", " : "") + std::to_string(over[i]);
            rep.warnings.push_back("Ranks " + others + " do not fit either.");
        }
        if (rep.totalUnique <= [&] {
                Bytes sum = 0;
                for (const RankMemory& rm : rep.ranks)
                    sum += rm.capacity;
                return sum;
            }())
            rep.warnings.push_back("Together the GPUs could hold the workload once: split the largest items instead of "
                                   "replicating them.");
    }
    if (!peakOnly.empty()) {
        const RankMemory& rm = rep.ranks[static_cast<size_t>(peakOnly[0])];
        std::snprintf(buf, sizeof buf,
                      "Rank %d owns %s, but a collective's buffer of %s brings its peak to %s on a %s GPU (%s too much): "
                      "send the collective in buckets or shard its item further.",
                      rm.rank, formatBytes(rm.owned).c_str(), formatBytes(rm.transient).c_str(),
                      formatBytes(rm.peak()).c_str(), formatBytes(rm.capacity).c_str(), formatBytes(rm.peakExcess()).c_str());
        rep.warnings.push_back(buf);
        if (peakOnly.size() > 1) {
            std::string others;
            for (size_t i = 1; i < peakOnly.size(); ++i)
                others += (i > 1 ? ", " : "") + std::to_string(peakOnly[i]);
            rep.warnings.push_back("The peaks of ranks " + others + " do not fit either.");
        }
    }
    if (n > 1 && rep.imbalancePct > imbalanceThresholdPct) {
        std::snprintf(buf, sizeof buf,
                      "Ownership is unbalanced: rank %d owns %s, %.0f%% above the mean of %s; the others will wait for it.",
                      rep.largestRank, formatBytes(largest).c_str(), rep.imbalancePct,
                      formatBytes(static_cast<Bytes>(rep.meanOwned)).c_str());
        rep.warnings.push_back(buf);
    }
    return rep;
}

double RankMemory::usedPct() const
{
    return capacity == 0 ? 0.0 : static_cast<double>(owned) / static_cast<double>(capacity) * 100.0;
}

double CapacityReport::deviationPct(int rank) const
{
    if (rank < 0 || rank >= static_cast<int>(ranks.size()) || meanOwned <= 0)
        return 0.0;
    return (static_cast<double>(ranks[static_cast<size_t>(rank)].owned) - meanOwned) / meanOwned * 100.0;
}

OwnershipGaps ownershipGaps(const Scenario& scenario)
{
    OwnershipGaps gaps;
    for (const WorkloadItem& item : scenario.workload.items) {
        Bytes unowned = item.shards.empty() ? item.size : 0;
        int shards = 0;
        for (const Shard& sh : item.shards)
            if (sh.owners.empty()) {
                unowned += sh.size;
                ++shards;
            }
        if (unowned == 0)
            continue;
        gaps.unowned += unowned;
        if (unowned == item.size)
            gaps.messages.push_back("No rank owns '" + item.name + "' (" + formatBytes(unowned) + ").");
        else
            gaps.messages.push_back(std::to_string(shards) + " of " + std::to_string(item.shards.size()) + " shards of '"
                                    + item.name + "' (" + formatBytes(unowned) + ") have no owner.");
    }
    return gaps;
}

} // namespace shardlab
