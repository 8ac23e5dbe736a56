// File > New from a transformer plan: a model, a machine and a parallel plan chosen with boxes;
// the plan's step, MFU, bubble and what limits it, and each pipeline stage's memory per GPU as
// stacked bars, recomputed on every change (the engine's planner, docs/planner.md); "Open as
// scenario" opens the plan as a new untitled scenario whose run draws its schedule.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/plan/plan_request.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace shardlab::gui {

class MemoryBars;
class PlanComparison;

class PlanDialog : public QDialog {
    Q_OBJECT
public:
    explicit PlanDialog(QWidget* parent = nullptr);

    // What the boxes say, and the plan priced (nullopt while the plan is refused).
    const PlanEstimate* estimate() const { return m_priced ? &m_priced->estimate : nullptr; }
    // The boxes as a request (DP: what the GPUs leave), and the boxes set from one (a lesson's plan).
    PlanRequest request() const;
    void setRequest(const PlanRequest& request);

    // Two plans side by side: "Keep as A" keeps the plan the boxes say; the boxes then say B, and
    // a table sets B against A. "Side by side" asks for both runs one above the other.
    void keepAsA();
    void forgetA();
    const PricedPlan* kept() const { return m_kept ? &*m_kept : nullptr; }
    PlanComparison* comparison() const { return m_comparison; }

    QString summaryText() const;
    QString problemText() const;
    // The plan as a scenario (after accept()).
    Result<Scenario> scenario() const;

    // For tests and for opening with a choice made: the model preset and the sizes.
    void setModel(const QString& presetId);
    void setMachine(const QString& presetId, int gpus);
    void setAxes(int tp, int pp, int cp);
    // The compute calibration plans are priced with: a file `shardlab calibrate --compute` measured
    // on the plan's GPU ("Measured file..."), or empty for the one shipped for that GPU.
    void setComputeFile(const QString& path);
    QString computeFile() const { return m_computeFile; }

signals:
    // A's scenario and B's, as "Open as scenario" would open them (MainWindow::showSideBySide).
    void sideBySideRequested(const shardlab::Scenario& a, const shardlab::Scenario& b);

private:
    void recompute();
    void refreshComparison();

    QComboBox* m_model;
    QComboBox* m_machine;
    QSpinBox* m_gpus;
    QSpinBox* m_tp;
    QSpinBox* m_pp;
    QSpinBox* m_cp;
    QSpinBox* m_ep;
    QLabel* m_dp;
    QComboBox* m_zero;
    QSpinBox* m_seq;
    QSpinBox* m_microBatch;
    QSpinBox* m_globalBatch;
    QComboBox* m_recompute;
    QComboBox* m_schedule;
    QSpinBox* m_virtualStages;
    QCheckBox* m_flash;
    QLabel* m_computeLabel;
    QPushButton* m_computeShipped;
    QString m_computeFile;
    QLabel* m_summary;
    QLabel* m_problems;
    MemoryBars* m_bars;
    PlanComparison* m_comparison;
    QPushButton* m_keep;
    QPushButton* m_forget;
    QPushButton* m_sideBySide;
    std::optional<PricedPlan> m_kept;
    QDialogButtonBox* m_buttons;

    std::optional<PricedPlan> m_priced;
    bool m_settingRequest = false; // setRequest() is filling the boxes
};

} // namespace shardlab::gui
