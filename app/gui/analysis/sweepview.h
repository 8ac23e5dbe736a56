// Message-size sweep: time, algbw or busbw against size on a log axis for one collective,
// simulated and measured overlaid, the nccl-tests table below, and the size where latency gives
// way to bandwidth marked on both.
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/analysis/sweep.h"
#include "shardlab/sim/cost_model.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace shardlab::gui {

class SweepModel;

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);

    void setTopology(const Topology& topology, const CostProfile& profile);
    // Measured rows (benchLive or a `shardlab bench --json` file) for the current collective.
    void setMeasuredRows(std::vector<SweepRow> rows);

    OpKind collective() const;
    int gpus() const;
    SweepModel* model() const { return m_model; }
    QCustomPlot* plot() const { return m_plot; }
    QString fitText() const;

signals:
    void simulationAvailable(); // the simulated rows (and the table) are up to date
    void failed(const QString& message);

public slots:
    void refresh(); // simulate the sweep again (off the GUI thread)

private:
    void measure();
    void loadMeasured();
    void rebuild();
    void replot();

    JobTracker m_jobs{this};
    JobTracker m_measureJobs{this};
    Topology m_topology;
    CostProfile m_profile;
    std::vector<SweepRow> m_simulated, m_measured;
    SweepModel* m_model = nullptr;
    QComboBox* m_collective = nullptr;
    QSpinBox* m_gpus = nullptr;
    QLineEdit* m_sizes = nullptr;
    QComboBox* m_metric = nullptr;
    QPushButton* m_measure = nullptr;
    QPushButton* m_load = nullptr;
    QLabel* m_fit = nullptr;
    QLabel* m_status = nullptr;
    QCustomPlot* m_plot = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace shardlab::gui
