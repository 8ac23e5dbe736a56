// Base for the editor's table models. Each keeps a snapshot of its rows, taken from the scenario
// after every change, so that rowCount() only changes inside the model's own reset: a refresh with
// as many rows as before emits dataChanged (views keep their selection and scroll position); any
// other refresh resets the model.
#pragma once

#include <QAbstractTableModel>

#include <utility>

namespace shardlab::gui {

class SnapshotTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

signals:
    // An edit made through the model was refused; the message says why.
    void editFailed(const QString& message);

protected:
    template <class Rows>
    void replaceRows(Rows& mine, Rows fresh)
    {
        if (fresh.size() == mine.size()) {
            mine = std::move(fresh);
            if (!mine.empty())
                emit dataChanged(index(0, 0), index(static_cast<int>(mine.size()) - 1, columnCount(QModelIndex()) - 1));
        } else {
            beginResetModel();
            mine = std::move(fresh);
            endResetModel();
        }
    }
    bool inRange(const QModelIndex& index, size_t rows) const
    {
        return index.isValid() && !index.parent().isValid() && index.row() >= 0 && static_cast<size_t>(index.row()) < rows
            && index.column() >= 0 && index.column() < columnCount(QModelIndex());
    }
};

} // namespace shardlab::gui
