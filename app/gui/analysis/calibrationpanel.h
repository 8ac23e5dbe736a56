// The calibration action: measure this machine's collectives and compute rate, fit a cost profile
// and save it, on a worker thread with progress and cancel. Where live mode is missing the action
// is disabled and says why; sweeps measured elsewhere (shardlab bench --json files) can still be
// fitted.
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/analysis/calibration.h"
#include "shardlab/analysis/calibration_run.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace shardlab::gui {

class AccuracyModel;

class CalibrationPanel : public QWidget {
    Q_OBJECT
public:
    explicit CalibrationPanel(QWidget* parent = nullptr);

    // The machine to fit files against (the scenario's topology).
    void setTopology(const Topology& topology);
    // Fits measurements (the offline path; also what the file button does after reading files).
    void fitSamples(std::vector<CalibrationSample> samples);
    // Runs a calibration through `hooks` (live by default); tests pass their own.
    void startCalibration(const CalibrationHooks& hooks);

    // Whether this machine has GPUs to calibrate on (the run page's live probe says so, with the
    // reason when it has none): Calibrate is enabled only then, and the reason stays on screen.
    void setLiveAvailability(bool available, const QString& explanation);

    bool calibrateEnabled() const;
    QString calibrateReason() const; // why Calibrate is disabled; empty when it is enabled
    QString explanation() const;
    AccuracyModel* model() const { return m_model; }
    QString summaryText() const;
    QCustomPlot* errorPlot() const { return m_plot; }

signals:
    void calibrationAvailable(const shardlab::CalibrationResult& result);
    void profileSaved(const QString& name);
    void progress(int done, int total);
    void failed(const QString& message);

public slots:
    void cancel();

private:
    void finish(Result<CalibrationResult> result);
    void fitFiles();
    void plotErrors(const CalibrationResult& result);
    void showEmptyPlot();

    JobTracker m_jobs{this};
    Topology m_topology;
    AccuracyModel* m_model = nullptr;
    QSpinBox* m_gpus = nullptr;
    QLineEdit* m_name = nullptr;
    QLabel* m_calibrateWhy = nullptr;
    QPushButton* m_calibrate = nullptr;
    QPushButton* m_files = nullptr;
    QPushButton* m_cancel = nullptr;
    bool m_liveAvailable = false;
    QProgressBar* m_progress = nullptr;
    QLabel* m_explanation = nullptr;
    QLabel* m_summary = nullptr;
    QTableView* m_table = nullptr;
    QCustomPlot* m_plot = nullptr;
};

} // namespace shardlab::gui
