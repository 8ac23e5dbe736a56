#include "document/edits.h"

#include "document/document.h"
#include "common/labels.h"
#include "i18n/language.h"
#include "shardlab/model/scenario_edit.h"
#include "shardlab/model/strategies.h"
#include "shardlab/model/workload.h"
#include "shardlab/plan/plan_scenario.h"

namespace shardlab::gui {

namespace {

Shard* shardAt(Scenario& s, const ShardRef& r)
{
    if (r.item < 0 || r.item >= static_cast<int>(s.workload.items.size()))
        return nullptr;
    auto& shards = s.workload.items[static_cast<size_t>(r.item)].shards;
    if (r.shard < 0 || r.shard >= static_cast<int>(shards.size()))
        return nullptr;
    return &shards[static_cast<size_t>(r.shard)];
}

bool validItem(const Document& doc, int item)
{
    return item >= 0 && item < static_cast<int>(doc.scenario().workload.items.size());
}

bool validRank(const Document& doc, int rank) { return rank >= 0 && rank < doc.scenario().ranks(); }

Status noSuch(const QString& what) { return badInput(i18n::appWorded(what)); }

} // namespace

Status Edits::dropShards(Document& doc, const QList<ShardRef>& refs, int toRank, bool copy)
{
    if (!validRank(doc, toRank))
        return noSuch(tr("There is no GPU %1.").arg(toRank));
    const ShardRef first = refs.value(0);
    QString text;
    const bool moving = !copy && first.fromRank >= 0;
    if (refs.size() == 1) {
        const QString name = Labels::shard(doc.scenario(), first.item, first.shard);
        text = copy     ? tr("Replicate %1 onto %2").arg(name, Labels::gpu(toRank))
               : moving ? tr("Move %1 from %2 to %3").arg(name, Labels::gpu(first.fromRank), Labels::gpu(toRank))
                        : tr("Give %1 to %2").arg(name, Labels::gpu(toRank));
    } else {
        text = copy ? tr("Replicate %n shard(s) onto %1", nullptr, int(refs.size())).arg(Labels::gpu(toRank))
                    : tr("Move %n shard(s) to %1", nullptr, int(refs.size())).arg(Labels::gpu(toRank));
    }
    return doc.apply(text, [&](Scenario& s) {
        bool changed = false;
        for (const ShardRef& r : refs) {
            Shard* sh = shardAt(s, r);
            if (!sh)
                continue;
            const Shard before = *sh;
            if (copy)
                addOwner(*sh, toRank);
            else if (r.fromRank >= 0) {
                if (r.fromRank == toRank)
                    continue;
                removeOwner(*sh, r.fromRank);
                addOwner(*sh, toRank);
            } else
                assignShard(*sh, toRank);
            changed = changed || !(before == *sh);
        }
        if (changed)
            s.strategy.clear(); // the placement is the user's now, no longer the strategy's
    });
}

Status Edits::moveMeshUnit(Document& doc, int fromRank, int toRank, MeshUnit unit)
{
    if (!validRank(doc, fromRank))
        return noSuch(tr("There is no GPU %1.").arg(fromRank));
    if (!validRank(doc, toRank))
        return noSuch(tr("There is no GPU %1.").arg(toRank));
    const Scenario& sc = doc.scenario();
    if (!sc.mesh || sc.mesh->ranks() != sc.ranks())
        return noSuch(tr("Only a plan's GPUs move as TP groups or pipeline stages (File > New from a transformer "
                         "plan)."));
    const auto pairs = meshUnitSwaps(*sc.mesh, fromRank, toRank, unit);
    if (pairs.empty())
        return {}; // the same group or stage
    const QString text = unit == MeshUnit::Stage ? tr("Swap the pipeline stage of %1 with that of %2")
                                                 : tr("Swap the TP group of %1 with that of %2");
    return doc.apply(text.arg(Labels::gpu(fromRank), Labels::gpu(toRank)), [&](Scenario& s) {
        for (const auto& [a, b] : pairs)
            swapRanks(s, a, b);
    });
}

Status Edits::releaseShards(Document& doc, const QList<ShardRef>& refs)
{
    const ShardRef first = refs.value(0);
    const QString text =
        refs.size() == 1
            ? (first.fromRank >= 0
                   ? tr("Take %1 off %2")
                         .arg(Labels::shard(doc.scenario(), first.item, first.shard), Labels::gpu(first.fromRank))
                   : tr("Take %1 off every GPU").arg(Labels::shard(doc.scenario(), first.item, first.shard)))
            : tr("Take %n shard(s) off their GPUs", nullptr, int(refs.size()));
    return doc.apply(text, [&](Scenario& s) {
        for (const ShardRef& r : refs)
            if (Shard* sh = shardAt(s, r)) {
                if (r.fromRank >= 0)
                    removeOwner(*sh, r.fromRank);
                else
                    sh->owners.clear();
                s.strategy.clear();
            }
    });
}

Result<StrategyOutcome> Edits::placeByStrategy(Document& doc, Strategy strategy)
{
    StrategyOutcome outcome;
    Status st = doc.apply(tr("Place by strategy: %1").arg(Labels::strategy(strategy)), [&](Scenario& s) {
        outcome = applyStrategy(s, strategy);
        outcome.programChanges = adaptProgram(s, strategy, i18n::engineLanguage());
    });
    if (!st)
        return st.error();
    return outcome;
}

Status Edits::splitItem(Document& doc, int item, std::vector<Shard> shards)
{
    if (!validItem(doc, item))
        return noSuch(tr("There is no such item."));
    const QString name = qs(doc.scenario().workload.items[static_cast<size_t>(item)].name);
    return doc.apply(tr("Split '%1' into %n shard(s)", nullptr, int(shards.size())).arg(name),
                     [&](Scenario& s) { resplitItem(s.workload.items[static_cast<size_t>(item)], shards); });
}

Status Edits::addItem(Document& doc, const WorkloadItem& item)
{
    return doc.apply(tr("Add item '%1'").arg(qs(item.name)), [&](Scenario& s) { s.workload.items.push_back(item); });
}

Status Edits::removeItem(Document& doc, int item)
{
    if (!validItem(doc, item))
        return noSuch(tr("There is no such item."));
    const std::string name = doc.scenario().workload.items[static_cast<size_t>(item)].name;
    return doc.apply(tr("Remove item '%1'").arg(qs(name)), [&](Scenario& s) { shardlab::removeItem(s, name); });
}

Status Edits::renameItem(Document& doc, int item, const QString& name)
{
    if (!validItem(doc, item))
        return noSuch(tr("There is no such item."));
    const std::string from = doc.scenario().workload.items[static_cast<size_t>(item)].name;
    const std::string to = name.trimmed().toStdString();
    if (to == from)
        return {};
    if (to.empty() || doc.scenario().workload.find(to))
        return noSuch(tr("'%1' cannot be used: item names must be unique and not empty.").arg(name));
    return doc.apply(tr("Rename '%1' to '%2'").arg(qs(from), qs(to)),
                     [&](Scenario& s) { shardlab::renameItem(s, from, to); });
}

Status Edits::setItemKind(Document& doc, int item, ItemKind kind)
{
    if (!validItem(doc, item))
        return noSuch(tr("There is no such item."));
    return doc.apply(
        tr("Make '%1' %2")
            .arg(qs(doc.scenario().workload.items[static_cast<size_t>(item)].name), Labels::itemKind(kind).toLower()),
        [&](Scenario& s) { s.workload.items[static_cast<size_t>(item)].kind = kind; });
}

Status Edits::setItemSize(Document& doc, int item, Bytes size)
{
    if (!validItem(doc, item))
        return noSuch(tr("There is no such item."));
    return doc.apply(
        tr("Resize '%1' to %2").arg(qs(doc.scenario().workload.items[static_cast<size_t>(item)].name), bytesText(size)),
        [&](Scenario& s) { resizeItem(s.workload.items[static_cast<size_t>(item)], size); },
        QStringLiteral("item-size-%1").arg(item));
}

Status Edits::addGpuLike(Document& doc, int rank)
{
    if (!validRank(doc, rank))
        return noSuch(tr("There is no GPU %1.").arg(rank));
    return doc.apply(tr("Add a GPU like %1").arg(Labels::gpu(rank)),
                     [&](Scenario& s) { shardlab::addGpuLike(s, rank); });
}

Status Edits::removeGpu(Document& doc, int rank)
{
    if (!validRank(doc, rank))
        return noSuch(tr("There is no GPU %1.").arg(rank));
    if (doc.scenario().ranks() == 1)
        return noSuch(tr("The last GPU cannot be removed: pick another machine instead."));
    return doc.apply(tr("Remove %1").arg(Labels::gpu(rank)), [&](Scenario& s) { removeRank(s, rank); });
}

Status Edits::setGpuName(Document& doc, int rank, const QString& name)
{
    if (!validRank(doc, rank))
        return noSuch(tr("There is no GPU %1.").arg(rank));
    return doc.apply(
        tr("Rename %1").arg(Labels::gpu(rank)),
        [&](Scenario& s) { s.topology.gpus[static_cast<size_t>(rank)].name = name.toStdString(); },
        QStringLiteral("gpu-name-%1").arg(rank));
}

Status Edits::setGpuMemory(Document& doc, int rank, Bytes memory)
{
    if (!validRank(doc, rank))
        return noSuch(tr("There is no GPU %1.").arg(rank));
    return doc.apply(
        tr("Set %1 memory to %2").arg(Labels::gpu(rank), bytesText(memory)),
        [&](Scenario& s) { s.topology.gpus[static_cast<size_t>(rank)].memory = memory; },
        QStringLiteral("gpu-memory-%1").arg(rank));
}

Status Edits::setGpuTflops(Document& doc, int rank, double tflops)
{
    if (!validRank(doc, rank))
        return noSuch(tr("There is no GPU %1.").arg(rank));
    return doc.apply(
        tr("Set %1 speed to %2 TFLOP/s").arg(Labels::gpu(rank)).arg(tflops),
        [&](Scenario& s) { s.topology.gpus[static_cast<size_t>(rank)].tflops = tflops; },
        QStringLiteral("gpu-tflops-%1").arg(rank));
}

Status Edits::addLink(Document& doc, const Link& link)
{
    return doc.apply(tr("Connect %1 and %2").arg(qs(link.a), qs(link.b)),
                     [&](Scenario& s) { s.topology.links.push_back(link); });
}

Status Edits::removeLink(Document& doc, int link)
{
    if (link < 0 || link >= static_cast<int>(doc.scenario().topology.links.size()))
        return noSuch(tr("There is no such link."));
    const Link& l = doc.scenario().topology.links[static_cast<size_t>(link)];
    return doc.apply(tr("Remove the link %1 - %2").arg(qs(l.a), qs(l.b)),
                     [&](Scenario& s) { s.topology.links.erase(s.topology.links.begin() + link); });
}

Status Edits::setLinkBandwidth(Document& doc, int link, double gbps)
{
    if (link < 0 || link >= static_cast<int>(doc.scenario().topology.links.size()))
        return noSuch(tr("There is no such link."));
    return doc.apply(
        tr("Set link bandwidth to %1").arg(qs(formatBandwidth(gbps))),
        [&](Scenario& s) { s.topology.links[static_cast<size_t>(link)].bandwidthGBps = gbps; },
        QStringLiteral("link-bw-%1").arg(link));
}

Status Edits::setLinkCount(Document& doc, int link, int count)
{
    if (link < 0 || link >= static_cast<int>(doc.scenario().topology.links.size()))
        return noSuch(tr("There is no such link."));
    return doc.apply(
        tr("Set link count to %1").arg(count),
        [&](Scenario& s) { s.topology.links[static_cast<size_t>(link)].count = count; },
        QStringLiteral("link-count-%1").arg(link));
}

Status Edits::useTopology(Document& doc, Topology topology)
{
    const QString name = qs(topology.name);
    return doc.apply(tr("Use the machine %1").arg(name), [&](Scenario& s) {
        replaceTopology(s, std::move(topology));
        if (auto strategy = strategyFromName(s.strategy))
            applyStrategy(s, *strategy);
    });
}

Status Edits::insertOp(Document& doc, int index, const Op& op)
{
    return doc.apply(tr("Add step '%1'").arg(qs(op.name.empty() ? opName(op.kind) : op.name)),
                     [&](Scenario& s) { shardlab::insertOp(s, index, op); });
}

Status Edits::removeOp(Document& doc, int index)
{
    if (index < 0 || index >= static_cast<int>(doc.scenario().program.size()))
        return noSuch(tr("There is no such step."));
    return doc.apply(tr("Remove step %1").arg(index + 1), [&](Scenario& s) { shardlab::removeOp(s, index); });
}

Status Edits::moveOp(Document& doc, int from, int to)
{
    const int n = static_cast<int>(doc.scenario().program.size());
    if (from < 0 || from >= n || to < 0 || to >= n)
        return noSuch(tr("There is no such step."));
    return doc.apply(tr("Move step %1 to position %2").arg(from + 1).arg(to + 1),
                     [&](Scenario& s) { shardlab::moveOp(s, from, to); });
}

Status Edits::setOp(Document& doc, int index, const Op& op, const QString& field)
{
    if (index < 0 || index >= static_cast<int>(doc.scenario().program.size()))
        return noSuch(tr("There is no such step."));
    return doc.apply(
        tr("Edit step %1 (%2)").arg(index + 1).arg(field),
        [&](Scenario& s) { s.program[static_cast<size_t>(index)] = op; },
        QStringLiteral("op-%1-%2").arg(index).arg(field));
}

Status Edits::setIterations(Document& doc, int iterations)
{
    return doc.apply(
        tr("Run %n iteration(s)", nullptr, iterations), [&](Scenario& s) { s.iterations = iterations; },
        QStringLiteral("iterations"));
}

} // namespace shardlab::gui
