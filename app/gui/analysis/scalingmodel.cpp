#include "analysis/scalingmodel.h"

#include "style/numbers.h"
#include "i18n/language.h"

#include "i18n/engineterms.h"

namespace shardlab::gui {

ScalingModel::ScalingModel(QObject* parent) : QAbstractTableModel(parent) {}

void ScalingModel::setCurve(const ScalingCurve& curve)
{
    beginResetModel();
    m_curve = curve;
    endResetModel();
}

int ScalingModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_curve.points.size());
}
int ScalingModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ScalingModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const ScalingPoint& p = m_curve.points[static_cast<size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(index.column() == LimitedBy ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                                               : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && index.column() == LimitedBy && !p.linkText.empty())
        return tr("%1 is limited by %2")
            .arg(QString::fromStdString(p.collective),
                 p.linkMessage.empty() ? QString::fromStdString(p.linkText) : i18n::engineText(p.linkMessage));
    if (role != Qt::DisplayRole)
        return {};
    auto ms = [](double v) { return numbers::ms(v); };
    switch (index.column()) {
    case Gpus: return p.gpus;
    case Nodes: return p.nodes;
    case Step: return ms(p.stepTimeMs);
    case Speedup: return numbers::speedup(p.speedup);
    case Efficiency: return numbers::percent(p.efficiency);
    case Compute: return ms(p.computeMs);
    case Comm: return ms(p.commMs);
    case Wait: return ms(p.waitMs);
    case Idle: return ms(p.idleMs);
    case LimitedBy: {
        QString text = EngineTerms::bottleneck(p.bottleneck);
        if (p.linkKind && (p.bottleneck == Bottleneck::Communication || p.bottleneck == Bottleneck::Wait))
            text += tr(": %1 over %2").arg(QString::fromStdString(p.collective), EngineTerms::linkKind(*p.linkKind));
        return p.fits ? text : QString(text + tr(" (does not fit)"));
    }
    }
    return {};
}

QVariant ScalingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool strong = m_curve.mode == ScalingMode::Strong;
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Gpus: return tr("GPUs");
        case Nodes: return tr("nodes");
        case Step: return tr("step (ms)");
        case Speedup: return tr("speed-up");
        case Efficiency: return tr("efficiency");
        case Compute: return tr("compute (ms)");
        case Comm: return tr("comm (ms)");
        case Wait: return tr("wait (ms)");
        case Idle: return tr("idle (ms)");
        case LimitedBy: return tr("limited by");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Speedup:
            return strong ? tr("One GPU's step time over this step time (the same total work)")
                          : tr("GPUs x efficiency: how much more work is done per unit of time (scaled speed-up)");
        case Efficiency:
            return strong ? tr("Speed-up divided by the number of GPUs; 100 % is perfect scaling")
                          : tr("One GPU's step time over this step time, the work per GPU being the same");
        case Compute:
        case Comm:
        case Wait:
        case Idle: return tr("Per rank and step, averaged over ranks; the four add up to the step time");
        }
    }
    return {};
}

} // namespace shardlab::gui
