// The sweep table in nccl-tests' columns, simulated and measured side by side, with the row from
// which bandwidth dominates highlighted.
#pragma once

#include "shardlab/analysis/sweep.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/model/collectives.h"

#include <QAbstractTableModel>

#include <vector>

namespace shardlab::gui {

class SweepModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Size,
        Count,
        Type,
        Redop,
        Root,
        SimTime,
        SimAlgbw,
        SimBusbw,
        MeasTime,
        MeasAlgbw,
        MeasBusbw,
        Error,
        Wrong,
        Algorithm,
        ColumnCount
    };
    explicit SweepModel(QObject* parent = nullptr);

    // `crossoverBytes`: the first size that is bandwidth-bound (0: none marked).
    void setRows(OpKind kind, std::vector<SweepOverlayRow> rows, Bytes crossoverBytes);
    const std::vector<SweepOverlayRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    OpKind m_kind = OpKind::AllReduce;
    std::vector<SweepOverlayRow> m_rows;
    Bytes m_crossover = 0;
};

} // namespace shardlab::gui
