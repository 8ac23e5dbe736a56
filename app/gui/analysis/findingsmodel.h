// The diagnosis as item models: the findings (a list) and one finding's per-rank evidence (a
// table, the handbook's "per-rank timeline").
#pragma once

#include "shardlab/analysis/diagnosis.h"

#include <QAbstractListModel>
#include <QAbstractTableModel>

namespace shardlab::gui {

class FindingsModel : public QAbstractListModel {
    Q_OBJECT
public:
    explicit FindingsModel(QObject* parent = nullptr);
    void setFindings(std::vector<Finding> findings);
    const std::vector<Finding>& findings() const { return m_findings; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    std::vector<Finding> m_findings;
};

class RankEvidenceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Rank,
        Device,
        Compute,
        Comm,
        Wait,
        TimesLast,
        Work,
        Slowdown,
        Socket,
        RingIn,
        LastCompleted,
        State,
        ColumnCount
    };
    explicit RankEvidenceModel(QObject* parent = nullptr);
    void setEvidence(std::vector<RankEvidence> ranks, bool hang, int highlight);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RankEvidence> m_ranks;
    bool m_hang = false;
    int m_highlight = -1;
};

} // namespace shardlab::gui
