// Scaling curves: speed-up and efficiency from 1 to N GPUs (strong or weak), the split of each
// point's step into compute, communication, wait and idle as stacked bars, the notes that explain
// the curve, and the table. The curve is simulated off the GUI thread, with progress and cancel.
// The GPU counts are every step up to a maximum or a list (as `shardlab scale --gpus 1,8,16`);
// the curve's GPU axis is the points evenly spaced, linear or logarithmic (then the speed-up's too,
// so that the ideal is the diagonal); the ideal line is never cut off at the top.
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/analysis/scaling.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
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
    // "1, 8, 16" (commas or spaces): the points to simulate (1 is always added); empty: every
    // step up to the maximum. Invalid text is refused in the status line, naming the entry.
    void setGpuCounts(const QString& counts);
    enum class GpuAxis { Points, Linear, Log };
    void setGpuAxis(GpuAxis axis);
    // The counts `text` lists, or an error naming the first entry that is not one (empty text:
    // no counts, no error).
    static std::vector<int> parseGpuCounts(const QString& text, QString* error);
    QString statusText() const;
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
    void draw(); // the model's curve in the plots and notes, on the chosen GPU axis

    JobTracker m_jobs{this};
    Scenario m_scenario;
    CostProfile m_profile;
    bool m_hasScenario = false;
    ScalingModel* m_model = nullptr;
    QComboBox* m_mode = nullptr;
    QSpinBox* m_maxGpus = nullptr;
    QLineEdit* m_counts = nullptr;
    QComboBox* m_axis = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QCustomPlot* m_curve = nullptr;
    QCustomPlot* m_split = nullptr;
    QTextBrowser* m_notes = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace shardlab::gui
