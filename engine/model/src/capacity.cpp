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

    // Each warning as data (warningMessages) and in English (warnings).
    const auto warn = [&rep](Message m) {
        rep.warnings.push_back(english(m));
        rep.warningMessages.push_back(std::move(m));
    };
    const auto rankList = [](const std::vector<int>& ranks) {
        std::vector<Message> items;
        for (size_t i = 1; i < ranks.size(); ++i)
            items.push_back(verbatim(std::to_string(ranks[i])));
        return listOf(std::move(items));
    };
    std::vector<int> over;
    std::vector<int> peakOnly; // owns what fits, but a collective's buffer takes it over
    for (const RankMemory& rm : rep.ranks)
        if (!rm.ownedFits())
            over.push_back(rm.rank);
        else if (!rm.fits())
            peakOnly.push_back(rm.rank);
    if (!over.empty()) {
        const RankMemory& first = rep.ranks[static_cast<size_t>(over[0])];
        if (static_cast<int>(over.size()) == n && n > 1)
            warn(Message("warnings.no_rank_fits")
                     .with("rank", over[0])
                     .with("owned", formatBytes(first.owned))
                     .with("capacity", formatBytes(first.capacity)));
        else
            warn(Message("warnings.rank_does_not_fit")
                     .with("rank", over[0])
                     .with("owned", formatBytes(first.owned))
                     .with("capacity", formatBytes(first.capacity))
                     .with("excess", formatBytes(first.excess())));
        if (over.size() > 1 && static_cast<int>(over.size()) < n)
            warn(Message("warnings.others_do_not_fit").with("ranks", rankList(over)));
        if (rep.totalUnique <= [&] {
                Bytes sum = 0;
                for (const RankMemory& rm : rep.ranks)
                    sum += rm.capacity;
                return sum;
            }())
            warn(Message("warnings.together_fits"));
    }
    if (!peakOnly.empty()) {
        const RankMemory& rm = rep.ranks[static_cast<size_t>(peakOnly[0])];
        warn(Message("warnings.peak")
                 .with("rank", rm.rank)
                 .with("owned", formatBytes(rm.owned))
                 .with("transient", formatBytes(rm.transient))
                 .with("peak", formatBytes(rm.peak()))
                 .with("capacity", formatBytes(rm.capacity))
                 .with("excess", formatBytes(rm.peakExcess())));
        if (peakOnly.size() > 1)
            warn(Message("warnings.other_peaks").with("ranks", rankList(peakOnly)));
    }
    if (n > 1 && rep.imbalancePct > imbalanceThresholdPct)
        warn(Message("warnings.unbalanced")
                 .with("rank", rep.largestRank)
                 .with("owned", formatBytes(largest))
                 .with("pct", formatPercent(rep.imbalancePct / 100))
                 .with("mean", formatBytes(static_cast<Bytes>(rep.meanOwned))));
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
        Message m = unowned == item.size
                        ? Message("warnings.unowned_item").with("item", item.name).with("bytes", formatBytes(unowned))
                        : Message("warnings.unowned_shards")
                              .with("shards", shards)
                              .with("of", static_cast<int>(item.shards.size()))
                              .with("item", item.name)
                              .with("bytes", formatBytes(unowned));
        gaps.messages.push_back(english(m));
        gaps.wordings.push_back(std::move(m));
    }
    return gaps;
}

} // namespace shardlab
