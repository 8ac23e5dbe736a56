// The flight recorder of a hung run as a grid (PyTorch's flight recorder lines ranks up the same
// way): one row per rank, one column per collective sequence number (each rank counts its own
// collectives from 0), the last few before the hang. A cell is completed, stuck, differing (the
// first rank whose call differs from its group's, or that never called) or not reached. The
// numbers and the words in the last column are the engine's HangReport; the model only lays
// them out.
#pragma once

#include "shardlab/model/run_result.h"

#include <QAbstractTableModel>

#include <optional>

namespace shardlab::gui {

class HangGridModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Cell { Completed, Stuck, Differs, Left, NotReached };
    // Columns: rank, last completed, the sequence numbers shown, then what the rank is blocked in.
    static constexpr int kFixedBefore = 2;
    static constexpr int kWindow = 6; // sequence numbers shown, ending with the one that hung

    using QAbstractTableModel::QAbstractTableModel;

    // The report of a hung run (nullopt clears). `ranks`: how many rows.
    void setReport(const std::optional<HangReport>& report, int ranks);
    const std::optional<HangReport>& report() const { return m_report; }

    int firstSequence() const { return m_first; } // the sequence number of the first grid column
    int sequenceCount() const { return m_count; } // how many sequence columns
    int sequenceColumn(int sequence) const { return kFixedBefore + sequence - m_first; }
    Cell cell(int rank, int sequence) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int lastCompleted(int rank) const;
    QString pending(int rank) const;
    bool left(int rank) const;

    std::optional<HangReport> m_report;
    int m_ranks = 0;
    int m_first = 0;
    int m_count = 0;
};

} // namespace shardlab::gui
