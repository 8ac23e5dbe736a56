// What connects the pages of the main window: every page follows the open document; the run
// page's playback animates the topology diagram; every finished run is diagnosed on the analysis
// page and shown in the hang sandbox; lessons open their scenario (asking about unsaved changes)
// and point at views; runs read from files go to the run page.
#include "shell/mainwindow.h"

#include "analysis/analysispage.h"
#include "document/document.h"
#include "document/documentcontroller.h"
#include "document/livefeedback.h"
#include "editor/editorpage.h"
#include "i18n/language.h"
#include "lessons/lesson_browser.h"
#include "report/report_writer.h"
#include "run/playbackcontroller.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "sandbox/hangsandbox.h"
#include "timeline/timelineview.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"
#include "shell/exportactions.h"
#include "shell/runfileopener.h"

#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>

namespace shardlab::gui {

void MainWindow::flushAnalysis()
{
    if (!m_analysisPending)
        return;
    m_analysisPending = false;
    m_analysisDelay->stop();
    m_analysis->setScenario(m_document->scenario());
}

void MainWindow::wirePages()
{
    auto follow = [this](const Scenario& s) {
        m_run->setScenario(s);
        m_sandbox->setScenario(s);
        m_report->setScenario(s, m_document->filePath());
        // the analysis recomputes sweeps and curves: once edits pause, not at every drag
        m_analysisPending = true;
        m_analysisDelay->start();
    };
    connect(m_document, &Document::scenarioChanged, this, &MainWindow::scenarioChanged);
    connect(m_document, &Document::scenarioChanged, this, follow);
    connect(m_analysisDelay, &QTimer::timeout, this, &MainWindow::flushAnalysis);
    follow(m_document->scenario());
    flushAnalysis();

    // what Export > Current view exports when no figure has the focus
    m_exports->setMainFigure(m_editor, m_editor->view());
    m_exports->setMainFigure(m_run, m_run->timeline()->plot());

    // the playback animates the diagram (the editor's, and its second view under the timeline)
    // (not those of a run made before another scenario was opened: its machine may differ)
    connect(m_run, &RunPage::activityAvailable, this, [this](const ActivitySnapshot& frame) {
        if (!m_playbackStale)
            m_editor->scene()->setActivity(frame);
    });
    connect(m_run, &RunPage::runningChanged, this, [this](bool running) {
        if (running)
            m_playbackStale = false;
    });
    // a finished run: diagnosed on the analysis page, its hang (if any) in the sandbox
    connect(m_run, &RunPage::outcomeAvailable, this, [this](RunOutcomePtr outcome) {
        // A profiled program (Run > Profile a program…) opens as its own untitled document, as
        // File > Open of its result file does, so that the diagram, the editor and the analysis
        // show the machine and ranks it ran on; the run is then shown against it once more.
        // (Unsaved changes were asked about before the profile started.)
        if (outcome->scenario.strategy == kObservedStrategy && !(m_document->scenario() == outcome->scenario)) {
            m_document->reset(outcome->scenario, QString());
            showStatus(
                tr("The profiled program is open as an untitled document (%1 ranks).").arg(outcome->scenario.ranks()),
                8000);
            m_run->showRun(outcome->scenario, outcome->run, outcome->origin, outcome->incomplete);
            return;
        }
        m_playbackStale = false;
        flushAnalysis();
        m_analysis->showRun(outcome->scenario, *outcome->run, outcome->summary);
        // the analysis page opens on this run's diagnosis (unless the user is reading it now)
        if (m_pages->currentWidget() != m_analysis)
            m_analysis->showTab(AnalysisPage::DiagnosisTab);
        m_sandbox->showOutcome(outcome);
        if (outcome->run->hang)
            m_run->showSideTab(m_sandbox);
    });
    // Calibrate needs this machine's GPUs: the run page's live probe decides, and its reason shows
    m_analysis->setLiveAvailability(m_run->controller()->liveAvailable(), m_run->controller()->liveExplanation());
    connect(m_run, &RunPage::liveAvailabilityChanged, m_analysis, &AnalysisPage::setLiveAvailability);
    // a newly opened scenario shows no trace of the previous run on the diagram (one scene, drawn
    // on the editor and under the timeline)
    connect(m_document, &Document::documentReset, this, [this] {
        m_playbackStale = true;
        m_run->playback()->pause();
        m_editor->scene()->setActivity(ActivitySnapshot{});
    });
    m_run->setWatchdogMs(m_sandbox->deadlineMs());
    connect(m_sandbox, &HangSandbox::deadlineChanged, m_run, &RunPage::setWatchdogMs);
    connect(m_sandbox, &HangSandbox::runRequested, m_run, &RunPage::runScenario);
    connect(m_run, &RunPage::runFailed, this,
            [this](const QString& m) { showStatus(tr("The run failed: %1").arg(m), 10000); });

    wireLessons(); // lessonwiring.cpp

    // runs read from result files and traces appear as if they had just run here
    connect(m_runFiles, &RunFileOpener::runAvailable, this,
            [this](const Scenario& scenario, std::shared_ptr<const RunResult> run, const QString& origin) {
                m_pages->setCurrentWidget(m_run);
                m_run->showRun(scenario, std::move(run), origin);
            });
    connect(m_runFiles, &RunFileOpener::statusMessage, this, [this](const QString& m) { showStatus(m, 8000); });

    // the window's title and status bar
    connect(m_document, &Document::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::scenarioChanged, this, &MainWindow::updateTitle);
    connect(m_editor->feedback(), &LiveFeedback::updated, this, &MainWindow::updateSummary);
    connect(m_controller, &DocumentController::statusMessage, this, [this](const QString& m) { showStatus(m, 5000); });
    connect(m_editor, &EditorPage::statusMessage, this, [this](const QString& m) { showStatus(m, 5000); });
    connect(m_editor, &EditorPage::editFailed, this, [this](const QString& m) {
        // worded by the editors already: their own words translated, the engine's errors in the
        // app's language (i18n::engineError)
        showStatus(tr("Not changed: %1").arg(m), 10000);
    });
    connect(m_document->undoStack(), &QUndoStack::indexChanged, this, [this] {
        const QString text = m_document->undoStack()->undoText();
        if (!text.isEmpty())
            showStatus(text, 4000);
    });
}

} // namespace shardlab::gui
