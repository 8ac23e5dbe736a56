// The main window only assembles: the document and its file handling, the pages in a central tab
// widget (Editor, Run, Analysis), the lessons in a dock, menus, a toolbar and the status bar.
// What connects the pages is in shell/pagewiring.cpp, each menu in its own file under shell/.
//
// Every page follows the open document (scenarioChanged()); the run page's playback animates the
// topology diagram (shown on the editor and under the run page's timeline); every finished run is
// diagnosed on the analysis page; File > Open also opens result files and Chrome traces.
#pragma once

#include "shardlab/model/scenario.h"
#include "shardlab/plan/plan_request.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class QTimer;
class QToolBar;

namespace shardlab::gui {

class AnalysisPage;
class Autosave;
class DialogPrompter;
class Document;
class DocumentController;
class EditorPage;
class ExportActions;
class HangSandbox;
class LessonBrowser;
class PlanDialog;
class ProjectorView;
class SideBySideView;
class PresenterMode;
class Prompter;
class RecentFiles;
class ReportWriter;
class RunFileOpener;
class RunPage;
class TopologyScene;
class TopologyView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a scenario, a ShardLab result file or a Chrome trace (by what the file holds). On
    // failure a message names the file and the problem, and the open document stays as it was.
    // Asks about unsaved changes first.
    bool openFile(const QString& path);
    // Several files (a job's traces, one per rank), a folder of them, or one file of any kind:
    // one scenario opens as a document; anything else is read as one recorded run.
    bool openFiles(const QStringList& paths);
    // File > New from a transformer plan: the plan dialog, then its plan as a new scenario.
    void newFromPlan();
    // The plan dialog beside the window (a lesson's "plan" view), set to `request` where given;
    // its "Open as scenario" opens the plan as File > New from a transformer plan does.
    PlanDialog* showPlan(const std::optional<PlanRequest>& request);
    PlanDialog* planDialog() const;
    // Offers to recover the work of a session that crashed (autosave).
    void offerRecovery();
    // Replaces the dialogs (tests answer with a script). The window does not own `prompter`.
    void setPrompter(Prompter* prompter);

    Document* document() const { return m_document; }
    const Scenario& scenario() const;
    DocumentController* controller() const { return m_controller; }
    QTabWidget* pages() const { return m_pages; }
    EditorPage* editorPage() const { return m_editor; }
    RunPage* runPage() const { return m_run; }
    AnalysisPage* analysisPage() const { return m_analysis; }
    LessonBrowser* lessons() const { return m_lessons; }
    QDockWidget* lessonsDock() const { return m_lessonsDock; }
    HangSandbox* hangSandbox() const { return m_sandbox; }
    TopologyScene* topologyScene() const;
    TopologyView* runDiagram() const { return m_runDiagram; }
    ReportWriter* reportWriter() const { return m_report; }
    RunFileOpener* runFiles() const { return m_runFiles; }
    ExportActions* exports() const { return m_exports; }
    PresenterMode* presenter() const { return m_presenter; }
    // The projector view (View > Projector view, Shift+F11): null while closed.
    ProjectorView* projector() const;
    void setProjectorShown(bool shown);
    // Two runs side by side (Run > Compare side by side…, the lessons' "Side by side"): null
    // while closed. showSideBySide opens the window (or reuses it) and simulates both.
    SideBySideView* sideBySide() const;
    void showSideBySide(const Scenario& a, const Scenario& b);
    // The scenario at `path` beside the open one (B: the file), or an error shown to the user.
    void compareWithFile(const QString& path);
    QToolBar* mainToolBar() const { return m_toolBar; }
    // The action of a menu entry by its object name ("run.run", "view.presenter", ...).
    QAction* action(const QString& name) const;

    // Adds a page after the existing ones; returns its tab index. Ctrl+1..9 switch pages.
    int addPage(QWidget* page, const QString& title);
    // Goes to the page and tab a lesson step points at ("timeline", "memory", ... docs/lessons.md);
    // false for a view the app does not know.
    bool showView(const QString& view);
    // First start (no setting yet): the Lessons dock opens with its welcome; afterwards it is as
    // the user left it. main() calls it; tests and demos start without.
    void restoreLessonsDock();
    // The window's geometry as the user left it (saved when the window closes); on the first
    // start, the preferred size fitted to the available area of the screen (shell/windowfit.h).
    // main() calls it before show(); tests and demos start at the preferred size without it.
    void restoreWindowGeometry();
    // Shows the Lessons dock with the welcome note (Help > Where to begin).
    void showWelcome();
    // A passing message on the status bar: its first line, shortened to end before the summary on
    // the bar's right, the whole text in the bar's tooltip (shell/statusline.h).
    void showStatus(const QString& text, int timeoutMs);

signals:
    // The open scenario changed (an edit, undo/redo, open, new).
    void scenarioChanged(const shardlab::Scenario& scenario);

protected:
    void closeEvent(QCloseEvent* event) override;
    // Files and folders dropped on the window open as File > Open opens them.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void openPlanScenario(const PlanDialog& dialog);
    // each in its own file under shell/
    void wirePages();
    void wireLessons();
    void buildFileMenu();
    void buildEditMenu();
    void buildRunMenu();
    void buildViewMenu();
    void buildExportMenu();
    void buildReportMenu();
    void buildHelpMenu();
    void buildToolBar();
    void addPageAction(int index);
    QAction* addNamedAction(QMenu* menu, const QString& name, const QString& text, const QString& tooltip,
                            const QList<QKeySequence>& keys = {});

    void rebuildRecentMenu();
    void updateTitle();
    void updateSummary();
    void flushAnalysis();

    Document* m_document;
    RecentFiles* m_recent;
    std::unique_ptr<DialogPrompter> m_dialogs; // the real dialogs; m_prompter may be a test's
    Prompter* m_prompter;
    DocumentController* m_controller;
    Autosave* m_autosave;
    QTabWidget* m_pages = nullptr;
    EditorPage* m_editor = nullptr;
    RunPage* m_run = nullptr;
    AnalysisPage* m_analysis = nullptr;
    LessonBrowser* m_lessons = nullptr;
    QDockWidget* m_lessonsDock = nullptr;
    HangSandbox* m_sandbox = nullptr;
    TopologyView* m_runDiagram = nullptr;
    ReportWriter* m_report = nullptr;
    RunFileOpener* m_runFiles = nullptr;
    ExportActions* m_exports = nullptr;
    PresenterMode* m_presenter = nullptr;
    QPointer<ProjectorView> m_projector;
    QPointer<SideBySideView> m_sideBySide;
    QPointer<PlanDialog> m_planDialog;
    QToolBar* m_toolBar = nullptr;
    QActionGroup* m_modeGroup = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_pagesMenu = nullptr;
    QLabel* m_summary = nullptr;
    QTimer* m_analysisDelay = nullptr;
    bool m_analysisPending = false;
    bool m_playbackStale = false; // another scenario was opened since the run on the run page
};

} // namespace shardlab::gui
