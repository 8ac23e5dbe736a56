// The Run menu: run, cancel, the Simulate / Live switch (Live disabled, with the reason, where this
// machine has no live mode), Live on… another machine over SSH, Profile a program…, Compare side by
// side… and the hang sandbox.
#include "shell/mainwindow.h"

#include "common/resourcepaths.h"
#include "document/documentcontroller.h"
#include "document/prompter.h"
#include "i18n/language.h"
#include "remote/profiledialog.h"
#include "remote/remotedialog.h"
#include "remote/sharedgpu.h"
#include "report/report_writer.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "sandbox/hangsandbox.h"
#include "shell/sidebyside.h"

#include "shardlab/io/scenario_io.h"

#include <QAction>
#include <QActionGroup>
#include <QFileInfo>
#include <QFontMetrics>
#include <QMenuBar>
#include <QPushButton>
#include <QTabWidget>

namespace shardlab::gui {

void MainWindow::buildRunMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("&Run"));
    menu->setToolTipsVisible(true);
    QAction* run = addNamedAction(menu, QStringLiteral("run.run"), tr("&Run"),
                                  tr("Run the scenario in the chosen mode; a run in progress is replaced"),
                                  {QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
    connect(run, &QAction::triggered, this, [this] {
        m_pages->setCurrentWidget(m_run);
        m_run->run();
    });
    QAction* cancel = addNamedAction(menu, QStringLiteral("run.cancel"), tr("&Cancel"), tr("Stop the run in progress"),
                                     {QKeySequence(Qt::CTRL | Qt::Key_Period), QKeySequence(Qt::SHIFT | Qt::Key_F5)});
    cancel->setEnabled(false);
    connect(cancel, &QAction::triggered, m_run, &RunPage::cancel);
    connect(m_run, &RunPage::runningChanged, cancel, &QAction::setEnabled);
    // the page's own button keeps its tooltip; the menu owns the keys (two owners would cancel out)
    m_run->runButton()->setShortcut(QKeySequence());
    menu->addSeparator();

    m_modeGroup = new QActionGroup(this);
    QAction* simulate = addNamedAction(menu, QStringLiteral("run.simulate"), tr("&Simulate"),
                                       tr("Run on the analytic cost model: works on any computer"),
                                       {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_1)});
    QAction* live = addNamedAction(menu, QStringLiteral("run.live"), tr("&Live on this machine's GPUs"),
                                   tr("Run real CUDA kernels and NCCL collectives"),
                                   {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_2)});
    for (QAction* a : {simulate, live}) {
        a->setCheckable(true);
        m_modeGroup->addAction(a);
    }
    simulate->setChecked(true);
    live->setEnabled(false);
    // where live mode is missing, the reason sits under the entry (a disabled line) and in its tooltip
    QAction* why = addNamedAction(menu, QStringLiteral("run.liveReason"), QString(), QString());
    why->setEnabled(false);
    auto showLive = [this, live, why](bool available, const QString& explanation) {
        live->setEnabled(available);
        live->setToolTip(available ? tr("Run real CUDA kernels and NCCL collectives: %1").arg(explanation)
                                   : tr("Live mode is not available here: %1").arg(explanation));
        live->setStatusTip(live->toolTip());
        const QString elided = QFontMetrics(font()).elidedText(explanation, Qt::ElideRight, 520);
        why->setText(available ? QString() : tr("    Live unavailable: %1").arg(elided));
        why->setToolTip(explanation);
        why->setVisible(!available);
    };
    showLive(m_run->controller()->liveAvailable(), m_run->controller()->liveExplanation());
    connect(m_run, &RunPage::liveAvailabilityChanged, this, showLive);
    // another machine's GPUs over SSH (remote/): works where this one has none
    connect(addNamedAction(menu, QStringLiteral("run.remote"), tr("Live &on\u2026"),
                           tr("Run the scenario on another machine's GPUs through ssh (a lecture-room server, a "
                              "cluster's login node) and watch it here as it happens"),
                           {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_3)}),
            &QAction::triggered, this, [this] {
                RemoteDialog dialog(this);
                if (dialog.exec() != QDialog::Accepted)
                    return;
                m_pages->setCurrentWidget(m_run);
                m_run->runRemote(dialog.target());
            });
    // a user's own NCCL program, profiled on this machine (shardlab profile --live)
    connect(
        addNamedAction(menu, QStringLiteral("run.profile"), tr("&Profile a program\u2026"),
                       tr("Run your own NCCL program (alone or under mpirun/torchrun) under ShardLab's NCCL profiler "
                          "and watch its per-rank timeline grow here while it runs"),
                       {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_4)}),
        &QAction::triggered, this, [this] {
            ProfileDialog dialog(this);
            if (dialog.exec() != QDialog::Accepted)
                return;
            // the profiled program opens as a new document when it ends (pagewiring.cpp)
            if (!m_controller->maybeSave())
                return;
            m_pages->setCurrentWidget(m_run);
            const ProfileRequest request = dialog.request();
            m_run->runProfile(request.target(), request.command, request.resultFile());
        });
    // the course's two-GPU lab on this machine's one GPU, a third mode: one process per rank
    // (remote/sharedgpu.h); Run, the hang sandbox and the lessons then run that way
    QAction* shareGpu = addNamedAction(menu, QStringLiteral("run.shareGpu"), tr("Live with ranks sharing this &GPU"),
                                       QString(), {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_5)});
    shareGpu->setCheckable(true);
    m_modeGroup->addAction(shareGpu);
    menu->insertAction(why, shareGpu); // under Live, above the reason live mode is unavailable
    auto explainShareGpu = [this, shareGpu] {
        const int ranks = m_run->scenario().ranks();
        const bool available = m_run->controller()->liveAvailable();
        const QString problem =
            !available ? tr("Live mode is not available here: %1").arg(m_run->controller()->liveExplanation())
                       : sharedGpuProblem(ranks);
        shareGpu->setEnabled(available);
        shareGpu->setText(problem.isEmpty() ? tr("Live with %n ranks on this one &GPU", nullptr, ranks)
                                            : tr("Live with ranks sharing this &GPU"));
        shareGpu->setToolTip(problem.isEmpty()
                                 ? tr("Run the scenario's %n ranks as %n processes on this machine's one GPU, NCCL "
                                      "talking over loopback sockets: results, verification and waits are real; times "
                                      "are not those of %n GPUs",
                                      nullptr, ranks)
                                 : problem);
        shareGpu->setStatusTip(shareGpu->toolTip());
    };
    connect(menu, &QMenu::aboutToShow, this, explainShareGpu);
    connect(m_run, &RunPage::liveAvailabilityChanged, this, explainShareGpu);
    explainShareGpu();
    connect(shareGpu, &QAction::triggered, this, [this] {
        m_run->setMode(RunKind::Live);
        m_run->setShareGpu(m_run->mode() == RunKind::Live);
    });
    connect(simulate, &QAction::triggered, this, [this] {
        m_run->setShareGpu(false);
        m_run->setMode(RunKind::Simulate);
    });
    connect(live, &QAction::triggered, this, [this] {
        m_run->setShareGpu(false);
        m_run->setMode(RunKind::Live);
    });
    connect(m_run, &RunPage::modeChanged, this, [this, simulate, live, shareGpu](RunKind mode) {
        (mode == RunKind::Live ? (m_run->shareGpu() ? shareGpu : live) : simulate)->setChecked(true);
        m_report->setMode(mode == RunKind::Live ? RunMode::Live : RunMode::Simulated);
    });
    menu->addSeparator();

    connect(addNamedAction(menu, QStringLiteral("run.sideBySide"), tr("Compare side &by side\u2026"),
                           tr("Simulate the open scenario and another one and show both timelines one above the "
                              "other on one time axis, with what differs named (step, communication, collectives, "
                              "memory)"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B)}),
            &QAction::triggered, this, [this] {
                const QString path = m_prompter->askOpenPath(QFileInfo(defaultScenarioPath()).absolutePath());
                if (!path.isEmpty())
                    compareWithFile(path);
            });
    connect(
        addNamedAction(menu, QStringLiteral("run.sandbox"), tr("&Hang sandbox"),
                       tr("Inject a mismatched or skipped collective on a rank, choose the watchdog's deadline, and "
                          "read the flight recorder after the hang"),
                       {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H)}),
        &QAction::triggered, this, [this] {
            m_pages->setCurrentWidget(m_run);
            m_run->showSideTab(m_sandbox);
        });
    connect(addNamedAction(menu, QStringLiteral("run.sandboxRun"), tr("Run with the &mistake"),
                           tr("Run a copy of the scenario with the hang sandbox's mistake"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5)}),
            &QAction::triggered, this, [this] {
                m_pages->setCurrentWidget(m_run);
                m_run->showSideTab(m_sandbox);
                m_sandbox->runButton()->click();
            });
}

} // namespace shardlab::gui

namespace shardlab::gui {

SideBySideView* MainWindow::sideBySide() const { return m_sideBySide; }

void MainWindow::compareWithFile(const QString& path)
{
    auto other = loadScenario(path.toStdString());
    if (!other) {
        m_prompter->showError(tr("Compare side by side"), tr("%1 cannot be opened.").arg(path),
                              i18n::engineError(other.error()));
        return;
    }
    showSideBySide(scenario(), *other);
}

void MainWindow::showSideBySide(const Scenario& a, const Scenario& b)
{
    if (!m_sideBySide)
        m_sideBySide = new SideBySideView(this);
    m_sideBySide->compare(a, b);
    m_sideBySide->show();
    m_sideBySide->raise();
    m_sideBySide->activateWindow();
}

} // namespace shardlab::gui
