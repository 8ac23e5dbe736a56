// The workload items as a table: name, kind, size, shards and where they live. Name, kind and
// size are editable; each edit is one undoable step.
#pragma once

#include "shardlab/model/scenario.h"
#include "common/snapshotmodel.h"

#include <vector>

namespace shardlab::gui {

class Document;

class WorkloadModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Size, Shards, Placement, ColumnCount };
    explicit WorkloadModel(Document* document, QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // "replicated on every GPU", "split over 4 GPUs", "on GPU 0", "no owner"...
    static QString placement(const WorkloadItem& item, int ranks);

protected:
    int shownRows() const override { return static_cast<int>(m_items.size()); }
    QStringList headers() const override;

private:
    void refresh(const Scenario& scenario);
    Document* m_document;
    std::vector<WorkloadItem> m_items;
    int m_ranks = 0;
};

} // namespace shardlab::gui
