// All-reduce against reduce-scatter + all-gather side by side: what each rank holds afterwards
// (example values), peak memory per rank, bytes each rank sends, and the time (simulated, and
// measured where live mode is available); then what goes wrong when the collective does not match
// what the next step needs.
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/analysis/collective_choice.h"
#include "shardlab/analysis/collective_comparison.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QGridLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace shardlab::gui {

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);

    void setTopology(const Topology& topology, const CostProfile& profile);
    void setGpus(int gpus);
    void setBytesText(const QString& text);
    const CollectiveComparison& comparison() const { return m_comparison; }
    const ChoiceConsequence& consequence() const { return m_choice; }
    // The text shown in a cell: row 0 held, 1 peak, 2 sent, 3 simulated time, 4 measured time;
    // column 0 all-reduce, 1 the pair, 2 reduce-scatter alone.
    QString cellText(int row, int column) const;

signals:
    void comparisonAvailable();
    void failed(const QString& message);

public slots:
    void refresh();

private:
    void measure();
    void showComparison();
    void updateChoice();
    void plotBars();

    JobTracker m_jobs{this};
    Topology m_topology;
    CostProfile m_profile;
    CollectiveComparison m_comparison;
    ChoiceConsequence m_choice;
    QSpinBox* m_gpus = nullptr;
    QComboBox* m_bytes = nullptr;
    QPushButton* m_measure = nullptr;
    QLabel* m_cells[5][3] = {};
    QLabel* m_examples[3] = {};
    QLabel* m_inputs = nullptr;
    QCustomPlot* m_memoryPlot = nullptr;
    QCustomPlot* m_timePlot = nullptr;
    QLabel* m_sentence = nullptr;
    QLabel* m_status = nullptr;
    QComboBox* m_need = nullptr;
    QComboBox* m_chosen = nullptr;
    QLabel* m_choiceText = nullptr;
};

} // namespace shardlab::gui
