#include "analysis/accuracymodel.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace shardlab::gui {

AccuracyModel::AccuracyModel(QObject* parent) : QAbstractTableModel(parent) {}

void AccuracyModel::setRows(std::vector<AccuracyRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int AccuracyModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}
int AccuracyModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AccuracyModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const AccuracyRow& r = m_rows[static_cast<size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(index.column() == Collective ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                                                : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ForegroundRole && (index.column() == BeforeError || index.column() == CalibratedError)) {
        // the goals: within 5 % is good, beyond 15 % is a miss
        const double e = std::fabs(index.column() == BeforeError ? r.startErrorPct : r.calibratedErrorPct);
        return QBrush(e <= 5    ? QColor(0x00, 0x9E, 0x73)
                      : e <= 15 ? QColor(0xE6, 0x9F, 0x00)
                                : QColor(0xD5, 0x5E, 0x00));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Collective: return QString::fromLatin1(opName(r.kind));
    case Ranks: return r.ranks;
    case Size: return QString::fromStdString(formatBinaryBytes(r.bytes));
    case Measured: return QString::number(r.measuredUs, 'f', 2);
    case Before: return QString::number(r.startUs, 'f', 2);
    case BeforeError: return QString::asprintf("%+.1f", r.startErrorPct);
    case Calibrated: return QString::number(r.calibratedUs, 'f', 2);
    case CalibratedError: return QString::asprintf("%+.1f", r.calibratedErrorPct);
    }
    return {};
}

QVariant AccuracyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Collective: return tr("collective");
        case Ranks: return tr("GPUs");
        case Size: return tr("size");
        case Measured: return tr("measured (µs)");
        case Before: return tr("before (µs)");
        case BeforeError: return tr("error %");
        case Calibrated: return tr("calibrated (µs)");
        case CalibratedError: return tr("error %");
        }
    }
    if (role == Qt::ToolTipRole && (section == BeforeError || section == CalibratedError))
        return tr("(predicted - measured) / measured");
    return {};
}

} // namespace shardlab::gui
