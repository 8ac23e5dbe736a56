// Base for the editor's table models. Each keeps a snapshot of its rows, taken from the scenario
// after every change, so that rowCount() only changes inside the model's own reset: a refresh with
// as many rows as before emits dataChanged (views keep their selection and scroll position); any
// other refresh resets the model.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <utility>

namespace shardlab::gui {

class SnapshotTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    SnapshotTableModel(int columns, QObject* parent) : QAbstractTableModel(parent), m_columns(columns) {}
    int rowCount(const QModelIndex& parent = {}) const final { return parent.isValid() ? 0 : shownRows(); }
    int columnCount(const QModelIndex& parent = {}) const final { return parent.isValid() ? 0 : m_columns; }
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override
    {
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < headers().size())
            return headers().at(section);
        return QAbstractTableModel::headerData(section, orientation, role);
    }

signals:
    // An edit made through the model was refused; the message says why.
    void editFailed(const QString& message);

protected:
    virtual int shownRows() const = 0;
    // Column titles, translated.
    virtual QStringList headers() const { return {}; }

    template <class Rows>
    void replaceRows(Rows& mine, Rows fresh)
    {
        if (fresh.size() == mine.size()) {
            mine = std::move(fresh);
            if (!mine.empty())
                emit dataChanged(index(0, 0), index(static_cast<int>(mine.size()) - 1, m_columns - 1));
        } else {
            beginResetModel();
            mine = std::move(fresh);
            endResetModel();
        }
    }
    bool inRange(const QModelIndex& index, size_t rows) const
    {
        return index.isValid() && !index.parent().isValid() && index.row() >= 0
               && static_cast<size_t>(index.row()) < rows && index.column() >= 0 && index.column() < m_columns;
    }

private:
    int m_columns;
};

} // namespace shardlab::gui
