// The hang sandbox (issue 8): make one rank call a collective wrongly on purpose (a different
// collective, a different size, or no call at all), choose the watchdog's deadline, run, and read
// the flight recorder: each rank's last completed collective and the first rank that differs.
// It edits nothing: the run page runs a copy of the open scenario with the mistake
// (Perturbations::mismatches) in the current mode, so a live run goes through the live watchdog
// and a simulation through the simulator's (SimulationOptions::watchdogMs). The next plain Run
// runs the scenario as it is.
#pragma once

#include "run/runtypes.h"

#include "shardlab/model/scenario.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace shardlab::gui {

class HangGridModel;

class HangSandbox : public QWidget {
    Q_OBJECT
public:
    explicit HangSandbox(QWidget* parent = nullptr);

    // The scenario the mistake goes into (the open document's).
    void setScenario(const Scenario& scenario);
    // A finished run: a hung one fills the grid and the sentence; any other clears them.
    void showOutcome(const RunOutcomePtr& outcome);

    // The mistake as chosen now, or why none can be made (no collective in the program).
    std::optional<Mismatch> mistake() const;
    // The scenario with the mistake in place of any mistakes it had, or the reason it cannot run.
    Result<Scenario> scenarioWithMistake() const;

    // Choosing the mistake (tests, lessons): index into the program's collectives.
    void choose(Mismatch::Type type, int rank, int collectiveOp, int iteration);
    void setDeadlineMs(double ms);
    double deadlineMs() const;

    HangGridModel* grid() const { return m_grid; }
    QTableView* gridView() const { return m_view; }
    QString sentence() const;
    QPushButton* runButton() const { return m_run; }

signals:
    // Run this variant (the run page runs it in the current mode).
    void runRequested(const shardlab::Scenario& scenario);
    void deadlineChanged(double ms);

private:
    void refreshChoices();
    void suggestForStep();
    void updateControls();
    void requestRun();

    Scenario m_scenario;
    bool m_hasScenario = false;
    QComboBox* m_type = nullptr;
    QSpinBox* m_rank = nullptr;
    QComboBox* m_op = nullptr;
    QSpinBox* m_iteration = nullptr;
    QComboBox* m_replacement = nullptr;
    QDoubleSpinBox* m_megabytes = nullptr;
    QDoubleSpinBox* m_deadline = nullptr;
    QPushButton* m_run = nullptr;
    QLabel* m_reason = nullptr;
    HangGridModel* m_grid = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_sentence = nullptr;
};

} // namespace shardlab::gui
