// The workload and its shards: the items table, splitting, the shard tiles to drag onto GPUs, and
// one-click placement by strategy that says what it replicated and what it split.
#pragma once

#include <QWidget>

class QComboBox;
class QCheckBox;
class QLabel;
class QListView;
class QPushButton;
class QTableView;

namespace shardlab::gui {

class Document;
class ShardModel;
class WorkloadModel;

class WorkloadPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadPanel(Document* document, QWidget* parent = nullptr);

    WorkloadModel* workloadModel() const { return m_workloadModel; }
    ShardModel* shardModel() const { return m_shardModel; }
    QTableView* itemsView() const { return m_items; }
    QListView* shardsView() const { return m_shards; }
    int currentItem() const;
    // The text shown after the last placement by strategy.
    QString outcomeText() const;

public slots:
    void addItem();
    void removeItem();
    void splitItem();
    void placeByStrategy();

signals:
    void editFailed(const QString& message);
    void statusMessage(const QString& message);

private:
    void itemSelectionChanged();
    void updateButtons();

    Document* m_document;
    WorkloadModel* m_workloadModel;
    ShardModel* m_shardModel;
    QTableView* m_items = nullptr;
    QListView* m_shards = nullptr;
    QCheckBox* m_allItems = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_split = nullptr;
    QComboBox* m_strategy = nullptr;
    QLabel* m_outcome = nullptr;
};

} // namespace shardlab::gui
