#include "workload/shardmodel.h"

#include "document/document.h"
#include "common/glossary.h"
#include "common/labels.h"
#include "style/theme.h"

#include <QMimeData>

#include <algorithm>

namespace shardlab::gui {

ShardModel::ShardModel(Document* document, QObject* parent) : SnapshotTableModel(1, parent), m_document(document)
{
    connect(document, &Document::scenarioChanged, this, &ShardModel::refresh);
    refresh(document->scenario());
}

void ShardModel::setItem(int item)
{
    if (item == m_item)
        return;
    beginResetModel();
    m_item = item;
    m_rows = rowsFor(m_document->scenario());
    endResetModel();
}

std::vector<ShardModel::Row> ShardModel::rowsFor(const Scenario& scenario) const
{
    std::vector<Row> rows;
    for (int i = 0; i < static_cast<int>(scenario.workload.items.size()); ++i) {
        if (m_item >= 0 && i != m_item)
            continue;
        const WorkloadItem& item = scenario.workload.items[static_cast<size_t>(i)];
        for (size_t k = 0; k < item.shards.size(); ++k)
            rows.push_back({i, static_cast<int>(k), qs(item.name), item.shards[k]});
    }
    return rows;
}

void ShardModel::refresh(const Scenario& scenario)
{
    if (m_item >= static_cast<int>(scenario.workload.items.size())) {
        // the item is gone: show every item's shards
        beginResetModel();
        m_item = -1;
        m_rows = rowsFor(scenario);
        endResetModel();
        return;
    }
    replaceRows(m_rows, rowsFor(scenario));
}

ShardRef ShardModel::refAt(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size()))
        return {};
    return {m_rows[static_cast<size_t>(row)].item, m_rows[static_cast<size_t>(row)].shard, -1};
}

QVariant ShardModel::data(const QModelIndex& index, int role) const
{
    if (!inRange(index, m_rows.size()))
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return m_item >= 0 ? tr("#%1  %2").arg(r.shard).arg(bytesText(r.data.size))
                           : tr("%1 #%2  %3").arg(r.itemName).arg(r.shard).arg(bytesText(r.data.size));
    case Qt::DecorationRole:
    case ColourRole: return theme::itemColour(r.item);
    case Qt::ToolTipRole: {
        const QString owners = r.data.owners.empty() ? tr("No GPU holds it yet.")
                               : r.data.owners.size() == 1
                                   ? tr("Held by %1 only (split).").arg(Labels::gpu(r.data.owners.front()))
                                   : tr("Held by GPUs %1 (replicated).").arg(Labels::ranks(r.data.owners));
        return tr("<b>'%1' #%2</b>: bytes %3 to %4 (%5)<br>%6<br><i>Drag onto a GPU to give it this shard; Ctrl-drag "
                  "to "
                  "replicate it there.</i><br><br>%7")
            .arg(r.itemName)
            .arg(r.shard)
            .arg(r.data.offset)
            .arg(r.data.offset + r.data.size)
            .arg(bytesText(r.data.size), owners, Glossary::shard());
    }
    case ItemRole: return r.item;
    case ShardRole: return r.shard;
    case OwnersRole: {
        QVariantList owners;
        for (int o : r.data.owners)
            owners << o;
        return owners;
    }
    }
    return {};
}

Qt::ItemFlags ShardModel::flags(const QModelIndex& index) const
{
    if (!inRange(index, m_rows.size()))
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled | Qt::ItemNeverHasChildren;
}

QStringList ShardModel::mimeTypes() const { return {QString::fromLatin1(kShardMimeType)}; }

QMimeData* ShardModel::mimeData(const QModelIndexList& indexes) const
{
    QList<ShardRef> refs;
    for (const QModelIndex& i : indexes)
        if (inRange(i, m_rows.size())) {
            const ShardRef r = refAt(i.row());
            if (!refs.contains(r))
                refs << r;
        }
    return refs.isEmpty() ? nullptr : shardMimeData(refs);
}

Qt::DropActions ShardModel::supportedDragActions() const { return Qt::MoveAction | Qt::CopyAction; }

} // namespace shardlab::gui
