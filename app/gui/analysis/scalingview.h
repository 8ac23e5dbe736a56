// Scaling curves: speed-up and efficiency from 1 to N GPUs (strong or weak), the split of each
// point's step into compute, communication, wait and idle as stacked bars, the notes that explain
// the curve, and the table. The curve is simulated off the GUI thread, with progress and cancel.
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/analysis/scaling.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTextBrowser;

namespace shardlab::gui {

class ScalingModel;

class ScalingView : public QWidget {
    Q_OBJECT
public:
    explicit ScalingView(QWidget* parent = nullptr);

    // `profile`: the cost profile to simulate with (the page resolves the scenario's named one).
    void setScenario(const Scenario& scenario, const CostProfile& profile = CostProfile::defaults());
    void setMaxGpus(int gpus);
    void setMode(ScalingMode mode);
    bool computing() const { return m_jobs.running(); }
    ScalingModel* model() const { return m_model; }
    QCustomPlot* curvePlot() const { return m_curve; }
    QCustomPlot* splitPlot() const { return m_split; }
    QString notesText() const;

signals:
    void curveAvailable(const shardlab::ScalingCurve& curve);
    void failed(const QString& message);

public slots:
    void compute();
    void cancel();

private:
    void show(const ScalingCurve& curve);

    JobTracker m_jobs{this};
    Scenario m_scenario;
    CostProfile m_profile;
    bool m_hasScenario = false;
    ScalingModel* m_model = nullptr;
    QComboBox* m_mode = nullptr;
    QSpinBox* m_maxGpus = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QCustomPlot* m_curve = nullptr;
    QCustomPlot* m_split = nullptr;
    QTextBrowser* m_notes = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace shardlab::gui
