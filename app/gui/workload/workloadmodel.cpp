#include "workload/workloadmodel.h"
#include "i18n/language.h"

#include "document/document.h"
#include "document/edits.h"
#include "common/labels.h"
#include "style/theme.h"

#include <set>

namespace shardlab::gui {

WorkloadModel::WorkloadModel(Document* document, QObject* parent)
    : SnapshotTableModel(ColumnCount, parent), m_document(document)
{
    connect(document, &Document::scenarioChanged, this, &WorkloadModel::refresh);
    refresh(document->scenario());
}

void WorkloadModel::refresh(const Scenario& scenario)
{
    m_ranks = scenario.ranks();
    replaceRows(m_items, scenario.workload.items);
}

QString WorkloadModel::placement(const WorkloadItem& item, int ranks)
{
    std::set<int> holders;
    int unowned = 0;
    bool replicated = false;
    for (const Shard& s : item.shards) {
        holders.insert(s.owners.begin(), s.owners.end());
        unowned += s.owners.empty() ? 1 : 0;
        replicated = replicated || s.owners.size() > 1;
    }
    if (item.shards.empty() || holders.empty())
        return tr("no owner");
    QString text;
    const std::vector<int> list(holders.begin(), holders.end());
    if (replicated && item.shards.size() == 1)
        text = static_cast<int>(holders.size()) == ranks ? tr("replicated on every GPU")
                                                         : tr("replicated on GPUs %1").arg(Labels::ranks(list));
    else if (holders.size() == 1)
        text = tr("on %1 only").arg(Labels::gpu(*holders.begin()));
    else
        text =
            (replicated ? tr("split and replicated over GPUs %1") : tr("split over GPUs %1")).arg(Labels::ranks(list));
    if (unowned > 0)
        text += tr("; %n shard(s) without owner", nullptr, unowned);
    return text;
}

QVariant WorkloadModel::data(const QModelIndex& index, int role) const
{
    if (!inRange(index, m_items.size()))
        return {};
    const WorkloadItem& item = m_items[static_cast<size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case Name: return qs(item.name);
        case Kind:
            return role == Qt::EditRole ? QVariant(static_cast<int>(item.kind)) : QVariant(Labels::itemKind(item.kind));
        case Size: return bytesText(item.size);
        case Shards: return static_cast<int>(item.shards.size());
        case Placement: return placement(item, m_ranks);
        }
    }
    if (role == Qt::DecorationRole && index.column() == Name)
        return theme::itemColour(index.row());
    if (role == Qt::TextAlignmentRole && (index.column() == Size || index.column() == Shards))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Name: return tr("Double-click to rename. Program steps that use the item follow the new name.");
        case Size:
            return tr("%1 bytes. Double-click to change: e.g. 24 GB, 512 MiB. Shards keep their share.").arg(item.size);
        case Shards: return tr("Pieces the item is cut into. Use Split... to cut it differently.");
        default: return placement(item, m_ranks);
        }
    }
    return {};
}

QStringList WorkloadModel::headers() const
{
    return {tr("Item"), tr("Kind"), tr("Size"), tr("Shards"), tr("Where it lives")};
}

Qt::ItemFlags WorkloadModel::flags(const QModelIndex& index) const
{
    if (!inRange(index, m_items.size()))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == Name || index.column() == Kind || index.column() == Size)
        f |= Qt::ItemIsEditable;
    return f;
}

bool WorkloadModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !inRange(index, m_items.size()))
        return false;
    Status st;
    switch (index.column()) {
    case Name: st = Edits::renameItem(*m_document, index.row(), value.toString()); break;
    case Kind: {
        const int k = value.toInt();
        if (k < 0 || k > static_cast<int>(ItemKind::Data))
            return false;
        st = Edits::setItemKind(*m_document, index.row(), static_cast<ItemKind>(k));
        break;
    }
    case Size: {
        auto size = parseSize(value.toString().toStdString());
        if (!size)
            st = size.error();
        else
            st = Edits::setItemSize(*m_document, index.row(), *size);
        break;
    }
    default: return false;
    }
    if (!st) {
        emit editFailed(i18n::engineError(st.error()));
        return false;
    }
    return true;
}

} // namespace shardlab::gui
