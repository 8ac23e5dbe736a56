// File and Edit menus of the main window.
#include "shell/mainwindow.h"

#include "plan/plandialog.h"

#include "document/document.h"
#include "common/plaintext.h"
#include "document/documentcontroller.h"
#include "document/edits.h"
#include "document/prompter.h"
#include "document/recentfiles.h"
#include "editor/editorpage.h"
#include "i18n/language.h"
#include "i18n/preferencesdialog.h"
#include "common/labels.h"
#include "common/resourcepaths.h"
#include "topology/topologypanel.h"
#include "topology/topologyscene.h"
#include "workload/workloadpanel.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QStatusBar>
#include <QUndoStack>

namespace shardlab::gui {

namespace {
// The desktop's keys for a standard action, or `fallback` where the platform names none.
QList<QKeySequence> standardKeys(QKeySequence::StandardKey key, const QKeySequence& fallback)
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(key);
    return keys.isEmpty() ? QList<QKeySequence>{fallback} : keys;
}
} // namespace

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    connect(addNamedAction(file, QStringLiteral("file.new"), tr("&New"),
                           tr("Start a new scenario on the classroom machine"), {QKeySequence::New}),
            &QAction::triggered, m_controller, &DocumentController::newDocument);
    connect(addNamedAction(
                file, QStringLiteral("file.open"), tr("&Open\u2026"),
                tr("Open a scenario, a ShardLab result file or trace, or a job's recorded files: PyTorch profiler "
                   "traces of every rank, Flight Recorder dumps, NCCL Inspector logs, nccl-tests -J output "
                   "(several files at once; you can also drop them on the window)"),
                {QKeySequence::Open}),
            &QAction::triggered, this, [this] {
                const QString start =
                    m_document->filePath().isEmpty() ? QDir::homePath() : QFileInfo(m_document->filePath()).path();
                const QStringList paths = m_prompter->askOpenPaths(start);
                if (!paths.isEmpty())
                    openFiles(paths);
            });
    connect(addNamedAction(file, QStringLiteral("file.openFolder"), tr("Open recorded &job folder\u2026"),
                           tr("Open the folder that holds a job's recorded files (a trace or dump per rank, or logs): "
                              "the job opens as a run, diagnosed on the Analysis page"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)}),
            &QAction::triggered, this, [this] {
                const QString start =
                    m_document->filePath().isEmpty() ? QDir::homePath() : QFileInfo(m_document->filePath()).path();
                const QString folder = m_prompter->askOpenFolder(start);
                if (!folder.isEmpty())
                    openFiles({folder});
            });
    connect(
        addNamedAction(
            file, QStringLiteral("file.plan"), tr("New from a &transformer plan\u2026"),
            tr("Lay a real transformer (Llama 3, GPT-3, Mixtral...) out on a machine under TP, PP, CP, DP and ZeRO: "
               "memory per GPU, step time and MFU, then open the plan as a scenario"),
            {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_N)}),
        &QAction::triggered, this, &MainWindow::newFromPlan);
    QMenu* examples = file->addMenu(tr("Open &example"));
    examples->setToolTipsVisible(true);
    // in the order the course (and its lessons) uses them, by their titles
    for (const ExampleScenario& example : examplesInCourseOrder()) {
        QAction* a =
            examples->addAction(example.title, this, [this, path = example.path] { m_controller->openExample(path); });
        a->setObjectName(QStringLiteral("file.example"));
        a->setData(example.path);
        a->setToolTip(tr("%1: opens a copy; saving asks where, the example stays as shipped")
                          .arg(QFileInfo(example.path).fileName()));
    }
    m_recentMenu = file->addMenu(tr("Open &recent"));
    m_recentMenu->setToolTipsVisible(true);
    file->addSeparator();
    connect(
        addNamedAction(file, QStringLiteral("file.save"), tr("&Save"), tr("Save the scenario"), {QKeySequence::Save}),
        &QAction::triggered, m_controller, &DocumentController::save);
    connect(addNamedAction(file, QStringLiteral("file.saveAs"), tr("Save &as\u2026"),
                           tr("Save the scenario under another name"),
                           standardKeys(QKeySequence::SaveAs, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S))),
            &QAction::triggered, m_controller, &DocumentController::saveAs);
    file->addSeparator();
    connect(addNamedAction(file, QStringLiteral("file.quit"), tr("&Quit"), tr("Close ShardLab"),
                           standardKeys(QKeySequence::Quit, QKeySequence(Qt::CTRL | Qt::Key_Q))),
            &QAction::triggered, this, &QWidget::close);
}

void MainWindow::buildEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setToolTipsVisible(true);
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("edit.undo"));
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    undo->setToolTip(tr("Take back the last edit; the menu names it"));
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("edit.redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    redo->setToolTip(tr("Make the edit taken back again"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    TopologyPanel* machine = m_editor->topologyPanel();
    connect(addNamedAction(edit, QStringLiteral("edit.machine"), tr("Pick a &machine\u2026"),
                           tr("Replace the machine by a preset (H200, DGX-1, the classroom PCIe box...)"),
                           {QKeySequence(Qt::CTRL | Qt::Key_M)}),
            &QAction::triggered, machine, &TopologyPanel::pickMachine);
    connect(addNamedAction(edit, QStringLiteral("edit.addGpu"), tr("Add a &GPU"), tr("Add a GPU to the machine"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G)}),
            &QAction::triggered, machine, &TopologyPanel::addGpu);
    connect(addNamedAction(edit, QStringLiteral("edit.connect"), tr("&Connect\u2026"),
                           tr("Join two GPUs or switches by a link"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L)}),
            &QAction::triggered, this,
            [this] { topologyScene()->connectDialog(std::max(m_editor->topologyPanel()->currentGpu(), 0)); });
    edit->addSeparator();
    WorkloadPanel* workload = m_editor->workloadPanel();
    connect(addNamedAction(edit, QStringLiteral("edit.addItem"), tr("Add &item\u2026"),
                           tr("Add a workload item (parameters, gradients, optimizer state, activations, data)"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)}),
            &QAction::triggered, workload, &WorkloadPanel::addItem);
    // Ctrl+Shift+S is Save as on most desktops: splitting takes Ctrl+Shift+K ("cut")
    connect(addNamedAction(edit, QStringLiteral("edit.split"), tr("&Split item\u2026"),
                           tr("Split the selected item into shards, evenly or with sizes of your own"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K)}),
            &QAction::triggered, workload, &WorkloadPanel::splitItem);
    connect(
        addNamedAction(
            edit, QStringLiteral("edit.strategy"), tr("&Place by strategy"),
            tr("Place every shard by a strategy: replicate, data parallel, ZeRO-1/2/3, tensor or pipeline parallel"),
            {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P)}),
        &QAction::triggered, workload, &WorkloadPanel::placeByStrategy);
    connect(addNamedAction(edit, QStringLiteral("edit.release"), tr("&Take selected shards off their GPUs"),
                           tr("The selected shard tiles are no longer owned by their GPU"), {QKeySequence::Delete}),
            &QAction::triggered, this, [this] {
                const QList<ShardRef> refs = topologyScene()->selectedShards();
                if (!refs.isEmpty())
                    if (Status st = Edits::releaseShards(*m_document, refs); !st)
                        showStatus(i18n::engineError(st.error()), 8000);
            });
    edit->addSeparator();
    edit->addAction(i18n::createPreferencesAction(this));
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_recent->files();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        m_recentMenu
            ->addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this, [this, path] { openFile(path); })
            ->setToolTip(plainToolTip(path));
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear the list"), m_recent, &RecentFiles::clear);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

} // namespace shardlab::gui

namespace shardlab::gui {

void MainWindow::openPlanScenario(const PlanDialog& dialog)
{
    auto scenario = dialog.scenario();
    if (!scenario) {
        m_prompter->showError(tr("Cannot open the plan"), tr("The plan could not be written as a scenario."),
                              i18n::engineError(scenario.error()));
        return;
    }
    m_controller->openMade(std::move(*scenario), QString::fromStdString(planText(dialog.estimate()->plan)));
}

void MainWindow::newFromPlan()
{
    // beside the window rather than modal: the plan stays open while its run and its side-by-side
    // comparison are looked at
    showPlan(std::nullopt);
}

PlanDialog* MainWindow::planDialog() const { return m_planDialog.data(); }

PlanDialog* MainWindow::showPlan(const std::optional<PlanRequest>& request)
{
    if (!m_planDialog) {
        m_planDialog = new PlanDialog(this);
        m_planDialog->setModal(false);
        connect(m_planDialog, &QDialog::accepted, this, [this] { openPlanScenario(*m_planDialog); });
        connect(m_planDialog, &PlanDialog::sideBySideRequested, this, &MainWindow::showSideBySide);
    }
    if (request)
        m_planDialog->setRequest(*request);
    m_planDialog->show();
    m_planDialog->raise();
    m_planDialog->activateWindow();
    return m_planDialog;
}

} // namespace shardlab::gui
