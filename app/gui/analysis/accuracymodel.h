// The calibration's accuracy table: each measurement against the model before and after.
#pragma once

#include "shardlab/analysis/calibration.h"

#include <QAbstractTableModel>

namespace shardlab::gui {

class AccuracyModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Collective, Ranks, Size, Measured, Before, BeforeError, Calibrated, CalibratedError, ColumnCount };
    explicit AccuracyModel(QObject* parent = nullptr);
    void setRows(std::vector<AccuracyRow> rows);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<AccuracyRow> m_rows;
};

} // namespace shardlab::gui
