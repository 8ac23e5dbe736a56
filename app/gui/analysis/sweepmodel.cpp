#include "analysis/sweepmodel.h"

#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/model/program.h"

#include <QBrush>
#include <QColor>

namespace shardlab::gui {

SweepModel::SweepModel(QObject* parent) : QAbstractTableModel(parent) {}

void SweepModel::setRows(OpKind kind, std::vector<SweepOverlayRow> rows, Bytes crossoverBytes)
{
    beginResetModel();
    m_kind = kind;
    m_rows = std::move(rows);
    m_crossover = crossoverBytes;
    endResetModel();
}

int SweepModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}
int SweepModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SweepModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const SweepOverlayRow& r = m_rows[static_cast<size_t>(index.row())];
    const SweepRow* any = r.simulated ? &*r.simulated : r.measured ? &*r.measured : nullptr;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(index.column() == Type || index.column() == Redop || index.column() == Algorithm
                                       ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                       : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::BackgroundRole && m_crossover > 0 && r.bytes == m_crossover)
        return QBrush(QColor(255, 236, 200));
    if (role == Qt::ToolTipRole && m_crossover > 0 && r.bytes == m_crossover)
        return tr("From this size on, bandwidth, not latency, sets the time");
    if (role != Qt::DisplayRole)
        return {};
    auto num = [](double v, int decimals) { return QString::number(v, 'f', decimals); };
    const bool reduces = m_kind == OpKind::AllReduce || m_kind == OpKind::Reduce || m_kind == OpKind::ReduceScatter
                         || m_kind == OpKind::ReduceScatterAllGather;
    const bool rooted = m_kind == OpKind::Broadcast || m_kind == OpKind::Reduce;
    switch (index.column()) {
    case Size: return QString::number(r.bytes);
    case Count: return any ? QString::number(any->count) : QString();
    case Type: return any ? QString::fromStdString(any->type) : QString();
    case Redop: return reduces ? QStringLiteral("sum") : QStringLiteral("none");
    case Root: return rooted ? QStringLiteral("0") : QStringLiteral("-1");
    case SimTime: return r.simulated ? num(r.simulated->timeUs, 2) : QString();
    case SimAlgbw: return r.simulated ? num(r.simulated->algbwGBps, 2) : QString();
    case SimBusbw: return r.simulated ? num(r.simulated->busbwGBps, 2) : QString();
    case MeasTime: return r.measured ? num(r.measured->timeUs, 2) : QString();
    case MeasAlgbw: return r.measured ? num(r.measured->algbwGBps, 2) : QString();
    case MeasBusbw: return r.measured ? num(r.measured->busbwGBps, 2) : QString();
    case Error: return r.errorPct ? QString::asprintf("%+.1f", *r.errorPct) : QString();
    case Wrong: return r.measured && r.measured->wrong >= 0 ? QString::number(r.measured->wrong) : tr("N/A");
    case Algorithm:
        return r.simulated ? QStringLiteral("%1/%2").arg(QString::fromLatin1(algorithmName(r.simulated->algorithm)),
                                                         QString::fromLatin1(protocolName(r.simulated->protocol)))
                           : QString();
    }
    return {};
}

QVariant SweepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Size: return tr("size (B)");
        case Count: return tr("count");
        case Type: return tr("type");
        case Redop: return tr("redop");
        case Root: return tr("root");
        case SimTime: return tr("sim time (µs)");
        case SimAlgbw: return tr("sim algbw (GB/s)");
        case SimBusbw: return tr("sim busbw (GB/s)");
        case MeasTime: return tr("measured time (µs)");
        case MeasAlgbw: return tr("measured algbw (GB/s)");
        case MeasBusbw: return tr("measured busbw (GB/s)");
        case Error: return tr("error %");
        case Wrong: return tr("#wrong");
        case Algorithm: return tr("algorithm");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Count: return tr("Elements of the data type in the buffer");
        case SimAlgbw:
        case MeasAlgbw: return tr("Algorithm bandwidth: the buffer size divided by the time");
        case SimBusbw:
        case MeasBusbw:
            return tr("Bus bandwidth: algbw times the traffic factor of the collective (2(n-1)/n for all-reduce), "
                      "comparable with the link speed whatever the number of GPUs (nccl-tests)");
        case Error: return tr("(simulated - measured) / measured");
        case Wrong: return tr("Elements that failed verification in the measured run");
        case Algorithm: return tr("The algorithm and protocol the cost model chose, as NCCL's tuner would");
        }
    }
    return {};
}

} // namespace shardlab::gui
