// The shards of one workload item (or of every item), as tiles to drag onto GPUs. Dragging
// carries ShardRefs with no source GPU: dropped on a GPU, a shard goes to that GPU alone (or, with
// Ctrl, is replicated onto it).
#pragma once

#include "document/shardref.h"
#include "shardlab/model/scenario.h"
#include "common/snapshotmodel.h"

#include <vector>

namespace shardlab::gui {

class Document;

class ShardModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Role { ItemRole = Qt::UserRole + 1, ShardRole, OwnersRole, ColourRole };
    explicit ShardModel(Document* document, QObject* parent = nullptr);

    // -1: the shards of every item.
    void setItem(int item);
    int item() const { return m_item; }
    ShardRef refAt(int row) const;

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    Qt::DropActions supportedDragActions() const override;

protected:
    int shownRows() const override { return static_cast<int>(m_rows.size()); }

private:
    struct Row {
        int item = -1;
        int shard = -1;
        QString itemName;
        Shard data;
        bool operator==(const Row&) const = default;
    };
    void refresh(const Scenario& scenario);
    std::vector<Row> rowsFor(const Scenario& scenario) const;
    Document* m_document;
    int m_item = -1;
    std::vector<Row> m_rows;
};

} // namespace shardlab::gui
