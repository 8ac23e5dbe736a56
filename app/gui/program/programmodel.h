// The step program as a table: the ordered steps of one iteration with their item, ranks and
// size. Edited through the step editor (ProgramPanel), one undoable step per change.
#pragma once

#include "shardlab/model/scenario.h"
#include "common/snapshotmodel.h"

#include <vector>

namespace shardlab::gui {

class Document;

class ProgramModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { Number, Step, Name, Item, Ranks, Size, Buckets, Overlap, ColumnCount };
    explicit ProgramModel(Document* document, QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // "all", "0-3", "1 -> 3", "all, root 0"
    static QString ranksText(const Scenario& scenario, const Op& op);
    // "1.68 TFLOP" for compute, the bytes moved for a collective
    static QString sizeText(const Scenario& scenario, const Op& op);

protected:
    int shownRows() const override { return static_cast<int>(m_rows.size()); }
    QStringList headers() const override;

private:
    struct Row {
        Op op;
        QString ranks, size;
    };
    void refresh(const Scenario& scenario);
    std::vector<Row> m_rows;
};

} // namespace shardlab::gui
