// The figures of a run at a glance: step time, speed-up and efficiency against one GPU, the
// shares of communication and waiting, the straggler and the bottleneck in one sentence (all
// from summarize()), the per-rank table and, after a live run, the error of the simulation and the
// run's own notes (scaled buffers, how the clocks were aligned).
#pragma once

#include "run/runtypes.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QTableView;

namespace shardlab::gui {

class ComparisonModel;
class RankTableModel;

class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);

    void setOutcome(const RunOutcomePtr& outcome);
    void clear(const QString& why);

    // The texts shown, for tests and exports: "step time" etc. -> value.
    QString figure(const QString& key) const;
    QString sentence() const;
    // What the run says about itself (a live run's scaled buffers, its clock alignment), in the
    // interface language; empty for a simulation, which has nothing to add.
    QString notes() const;
    RankTableModel* rankModel() const { return m_ranks; }
    ComparisonModel* comparisonModel() const { return m_comparison; }

private:
    QLabel* addFigure(const QString& key, const QString& title, const QString& tooltip);

    QWidget* m_figures = nullptr;
    std::vector<std::pair<QString, QLabel*>> m_values;
    QLabel* m_sentence = nullptr;
    RankTableModel* m_ranks = nullptr;
    QTableView* m_rankView = nullptr;
    ComparisonModel* m_comparison = nullptr;
    QLabel* m_comparisonTitle = nullptr;
    QLabel* m_notesTitle = nullptr;
    QLabel* m_notes = nullptr;
    QStringList m_noteLines;
    QTableView* m_comparisonView = nullptr;
};

} // namespace shardlab::gui
