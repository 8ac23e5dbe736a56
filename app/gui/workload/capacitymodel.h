// Per-rank capacity as a table: what each GPU owns against what it holds, how full it is, and how
// far from the mean it is (capacityOf(), recomputed by LiveFeedback on every edit).
#pragma once

#include "shardlab/capacity.h"
#include "snapshotmodel.h"

#include <QString>

#include <vector>

namespace shardlab::gui {

class LiveFeedback;
struct Feedback;

class CapacityModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Device, Owned, Capacity, Used, VsMean, Status, ColumnCount };
    explicit CapacityModel(LiveFeedback* feedback, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        RankMemory memory;
        QString device;
        double deviationPct = 0;
    };
    void refresh(const Scenario& scenario, const Feedback& feedback);
    std::vector<Row> m_rows;
};

} // namespace shardlab::gui
