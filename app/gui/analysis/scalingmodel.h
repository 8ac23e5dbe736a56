// The scaling curve as a table: one row per GPU count.
#pragma once

#include "shardlab/analysis/scaling.h"

#include <QAbstractTableModel>

namespace shardlab::gui {

class ScalingModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Gpus, Nodes, Step, Speedup, Efficiency, Compute, Comm, Wait, Idle, LimitedBy, ColumnCount };
    explicit ScalingModel(QObject* parent = nullptr);
    void setCurve(const ScalingCurve& curve);
    const ScalingCurve& curve() const { return m_curve; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ScalingCurve m_curve;
};

} // namespace shardlab::gui
