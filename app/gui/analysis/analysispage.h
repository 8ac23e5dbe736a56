// The analysis page: message-size sweeps, scaling curves, the collective comparison, calibration
// and the diagnosis, as tabs. The main window gives it the scenario (setScenario) and every
// finished run (showRun); everything heavy runs off the GUI thread.
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/analysis/diagnosis.h"
#include "shardlab/analysis/summary.h"

#include <QWidget>

class QLabel;
class QTabWidget;

namespace shardlab::gui {

class CalibrationPanel;
class ComparisonView;
class DiagnosisPanel;
class ScalingView;
class SweepView;

class AnalysisPage : public QWidget {
    Q_OBJECT
public:
    enum Tab { SweepTab, ScalingTab, ComparisonTab, CalibrationTab, DiagnosisTab };
    explicit AnalysisPage(QWidget* parent = nullptr);

    // Sets every view to the scenario, and diagnoses a simulated run of it.
    void setScenario(const Scenario& scenario);
    void showTab(Tab tab);
    // Live mode's availability (the run page's probe): Calibrate needs GPUs.
    void setLiveAvailability(bool available, const QString& explanation);

    SweepView* sweepView() const { return m_sweep; }
    ScalingView* scalingView() const { return m_scaling; }
    ComparisonView* comparisonView() const { return m_comparison; }
    CalibrationPanel* calibrationPanel() const { return m_calibration; }
    DiagnosisPanel* diagnosisPanel() const { return m_diagnosis; }
    // Whether the diagnosis of the latest run is still being made (a superseded one never ends it).
    bool diagnosing() const { return m_diagnosing; }

signals:
    void diagnosisAvailable(const std::vector<shardlab::Finding>& findings);
    void profileSaved(const QString& name);
    void failed(const QString& message);

public slots:
    // A finished run (simulated or live) of `scenario`: the diagnosis panel diagnoses it.
    void showRun(const shardlab::Scenario& scenario, const shardlab::RunResult& run, const shardlab::Summary& summary);

private:
    struct Diagnosed {
        std::vector<Finding> findings;
        std::string sentence;
        std::string error;
    };
    void diagnoseLater(const Scenario& scenario, std::optional<RunResult> run, std::optional<Summary> summary);

    JobTracker m_jobs{this};
    CostProfile m_profile;
    QLabel* m_status = nullptr;
    QTabWidget* m_tabs = nullptr;
    SweepView* m_sweep = nullptr;
    ScalingView* m_scaling = nullptr;
    ComparisonView* m_comparison = nullptr;
    CalibrationPanel* m_calibration = nullptr;
    bool m_diagnosing = false;
    DiagnosisPanel* m_diagnosis = nullptr;
};

} // namespace shardlab::gui
