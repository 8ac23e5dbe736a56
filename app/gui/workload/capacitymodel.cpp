#include "workload/capacitymodel.h"

#include "document/livefeedback.h"
#include "common/glossary.h"
#include "common/labels.h"
#include "style/theme.h"

namespace shardlab::gui {

CapacityModel::CapacityModel(LiveFeedback* feedback, QObject* parent) : SnapshotTableModel(ColumnCount, parent)
{
    connect(feedback, &LiveFeedback::updated, this, &CapacityModel::refresh);
    refresh(feedback->scenario(), feedback->current());
}

void CapacityModel::refresh(const Scenario& scenario, const Feedback& feedback)
{
    std::vector<Row> rows;
    const CapacityReport& rep = feedback.capacity;
    for (const RankMemory& rm : rep.ranks) {
        const QString device =
            rm.rank < scenario.ranks() ? qs(scenario.topology.gpus[static_cast<size_t>(rm.rank)].name) : QString();
        rows.push_back({rm, device, rep.deviationPct(rm.rank)});
    }
    replaceRows(m_rows, std::move(rows));
}

QVariant CapacityModel::data(const QModelIndex& index, int role) const
{
    if (!inRange(index, m_rows.size()))
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    const RankMemory& m = r.memory;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Rank: return Labels::gpu(m.rank);
        case Device: return r.device;
        case Owned: return bytesText(m.owned);
        case Capacity: return bytesText(m.capacity);
        case Used: return tr("%1 %").arg(m.usedPct(), 0, 'f', 0);
        case VsMean:
            return tr("%1%2 %")
                .arg(r.deviationPct > 0.05 ? QStringLiteral("+") : QString())
                .arg(r.deviationPct, 0, 'f', 0);
        case Status: return m.fits() ? tr("fits") : tr("%1 too much").arg(bytesText(m.excess()));
        }
    }
    if (role == Qt::ForegroundRole && !m.fits() && (index.column() == Status || index.column() == Used))
        return theme::overflow();
    if (role == Qt::BackgroundRole && !m.fits())
        return QColor(0xff, 0xeb, 0xee);
    if (role == Qt::TextAlignmentRole && index.column() >= Owned && index.column() <= VsMean)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (index.column() == VsMean)
            return Glossary::imbalance();
        if (index.column() == Rank)
            return Glossary::rank();
        return Glossary::gauge();
    }
    return {};
}

QStringList CapacityModel::headers() const
{
    return {tr("GPU"), tr("Device"), tr("Owns"), tr("Holds"), tr("Used"), tr("vs. mean"), tr("Status")};
}

} // namespace shardlab::gui
