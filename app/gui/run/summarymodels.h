// Table models of the summary panel: the per-rank breakdown of summarize(), and the per-phase
// error of a live run against its simulation (compareRuns). Figures come from the engine; the
// models only format them.
#pragma once

#include "shardlab/analysis/sim_vs_measured.h"
#include "shardlab/analysis/summary.h"

#include <QAbstractTableModel>

namespace shardlab::gui {

class RankTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Device, Compute, Comm, Wait, Owned, Memory, TimesLast, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setSummary(const Summary& summary);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RankBreakdown> m_rows;
    std::optional<int> m_straggler;
    bool m_memoryKnown = true;
};

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Phase, Measured, Simulated, Error, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setComparison(const RunComparison& comparison);
    void clear();
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<PhaseComparison> m_rows; // the phases, then a row for the whole step
};

} // namespace shardlab::gui
