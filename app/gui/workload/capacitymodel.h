// Per-rank capacity as a table: what each GPU owns against what it holds, how full it is, and how
// far from the mean it is (capacityOf(), recomputed by LiveFeedback on every edit).
#pragma once

#include "shardlab/model/capacity.h"
#include "common/snapshotmodel.h"

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

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    int shownRows() const override { return static_cast<int>(m_rows.size()); }
    QStringList headers() const override;

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
