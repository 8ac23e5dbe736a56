#include "shell/mainwindow.h"

#include "analysis/analysispage.h"
#include "document/autosave.h"
#include "document/document.h"
#include "document/documentcontroller.h"
#include "document/livefeedback.h"
#include "document/prompter.h"
#include "document/recentfiles.h"
#include "editor/editorpage.h"
#include "common/glossary.h"
#include "common/labels.h"
#include "lessons/lesson_browser.h"
#include "report/report_writer.h"
#include "common/resourcepaths.h"
#include "common/wheelguard.h"
#include "run/runpage.h"
#include "sandbox/hangsandbox.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"
#include "shell/exportactions.h"
#include "shell/presentermode.h"
#include "shell/runfileopener.h"
#include "shell/statusline.h"
#include "shell/windowfit.h"

#include <QAction>
#include <QUrl>
#include <QMimeData>
#include <QDropEvent>
#include <QDragEnterEvent>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QSplitter>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace shardlab::gui {

namespace {
constexpr auto kGeometrySetting = "window/geometry";
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new Document(this)), m_recent(new RecentFiles(this)),
      m_dialogs(std::make_unique<DialogPrompter>(this)), m_prompter(m_dialogs.get()),
      m_controller(new DocumentController(m_document, m_prompter, m_recent, this)),
      m_autosave(new Autosave(m_document, Autosave::defaultDir(), this))
{
    setObjectName(QStringLiteral("ShardLabMainWindow"));
    WheelGuard::install(this); // before any box is shown
    // The document starts with the default scenario (or a blank one when resources are missing).
    const QString start = defaultScenarioPath();
    if (start.isEmpty() || !m_controller->openExample(start, false))
        m_document->reset(DocumentController::blankScenario(), QString());

    m_pages = new QTabWidget(this);
    m_pages->setDocumentMode(true);
    m_editor = new EditorPage(m_document, m_pages);
    addPage(m_editor, tr("Editor"));
    m_run = new RunPage(m_pages);
    addPage(m_run, tr("Run"));
    m_analysis = new AnalysisPage(m_pages);
    addPage(m_analysis, tr("Analysis"));
    m_pages->setTabToolTip(0, tr("The machine, the workload and who owns which shard, the step program"));
    m_pages->setTabToolTip(
        1, tr("Run the scenario (simulated or live): per-rank timelines, playback, summary, hang sandbox"));
    m_pages->setTabToolTip(2,
                           tr("Message-size sweeps, scaling curves, collective choice, calibration and the diagnosis"));
    setCentralWidget(m_pages);

    // the diagram under the run page's timeline: a second view of the editor's scene
    m_runDiagram = new TopologyView(m_editor->scene());
    m_runDiagram->setInteractive(false);
    m_runDiagram->setToolTip(tr("The machine during playback: what each GPU does, whom a waiting GPU waits for, the "
                                "traffic on each link"));
    m_run->setDiagram(m_runDiagram);
    m_sandbox = new HangSandbox;
    m_run->addSideTab(
        m_sandbox, tr("Hang sandbox"),
        tr("Inject a mismatched or skipped collective, let the watchdog catch it, read the flight recorder"));

    m_lessons = new LessonBrowser;
    const QString lessonDir = resourceDir().isEmpty() ? LessonBrowser::defaultLessonDirectory()
                                                      : QDir(resourceDir()).filePath(QStringLiteral("lessons"));
    if (!m_lessons->loadLessons(lessonDir))
        showStatus(tr("The lessons could not be loaded: %1").arg(m_lessons->errorString()), 10000);
    m_lessonsDock = new QDockWidget(tr("Lessons"), this);
    m_lessonsDock->setObjectName(QStringLiteral("lessonsDock"));
    // beside the pages the dock is narrow: the list of lessons goes above the lesson; below the
    // pages (a narrow window, shell/dockfit.h) it goes beside the lesson
    if (auto* split = m_lessons->findChild<QSplitter*>()) {
        split->setOrientation(Qt::Vertical);
        split->setSizes({180, 820});
        connect(m_lessonsDock, &QDockWidget::dockLocationChanged, split, [split](Qt::DockWidgetArea area) {
            const bool below = area == Qt::BottomDockWidgetArea || area == Qt::TopDockWidgetArea;
            split->setOrientation(below ? Qt::Horizontal : Qt::Vertical);
            split->setSizes(below ? QList<int>{300, 700} : QList<int>{180, 820});
        });
    }
    m_lessonsDock->setWidget(m_lessons);
    addDockWidget(Qt::RightDockWidgetArea, m_lessonsDock);
    m_lessonsDock->hide();
    resizeDocks({m_lessonsDock}, {560}, Qt::Horizontal);

    m_report = new ReportWriter(this);
    m_runFiles = new RunFileOpener(m_document, m_controller, m_prompter, this);
    setAcceptDrops(true); // files and folders dropped on the window open as File > Open opens them
    m_exports = new ExportActions(this);
    m_presenter = new PresenterMode(this);
    m_analysisDelay = new QTimer(this);
    m_analysisDelay->setSingleShot(true);
    m_analysisDelay->setInterval(300);

    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setToolTip(Glossary::imbalance());
    statusBar()->addPermanentWidget(m_summary);
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& message) {
        if (message.isEmpty())
            statusBar()->setToolTip(QString());
    });

    buildFileMenu();
    buildEditMenu();
    buildRunMenu();
    buildViewMenu();
    buildExportMenu();
    buildReportMenu();
    buildHelpMenu();
    buildToolBar();
    wirePages();

    connect(m_recent, &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    updateTitle();
    updateSummary();
    resize(windowfit::kPreferredSize); // main() fits it to the screen (restoreWindowGeometry())
}

MainWindow::~MainWindow()
{
    // The children are deleted by ~QWidget, when this object is no longer a MainWindow: nothing
    // they emit while dying (the undo stack's indexChanged, a page's last signal) may reach a
    // slot or lambda of this window.
    const QList<QObject*> children = findChildren<QObject*>();
    for (QObject* child : children)
        QObject::disconnect(child, nullptr, this, nullptr);
}

const Scenario& MainWindow::scenario() const { return m_document->scenario(); }

TopologyScene* MainWindow::topologyScene() const { return m_editor->scene(); }

void MainWindow::setPrompter(Prompter* prompter)
{
    m_prompter = prompter ? prompter : m_dialogs.get();
    m_controller->setPrompter(m_prompter);
    m_runFiles->setPrompter(m_prompter);
}

bool MainWindow::openFile(const QString& path) { return openFiles({path}); }

bool MainWindow::openFiles(const QStringList& paths)
{
    if (paths.isEmpty())
        return false;
    if (paths.size() == 1 && !RunFileOpener::holdsRun(paths.front()))
        return m_controller->openPath(paths.front(), true);
    return m_runFiles->open(paths);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        for (const QUrl& url : event->mimeData()->urls())
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    // after the drop has returned: opening may ask about unsaved changes (a modal dialog)
    QTimer::singleShot(0, this, [this, paths] { openFiles(paths); });
}

void MainWindow::offerRecovery() { m_controller->offerRecovery(*m_autosave); }

int MainWindow::addPage(QWidget* page, const QString& title)
{
    const int index = m_pages->addTab(page, title);
    if (m_pagesMenu) // pages added after the menus were built get their entry now
        addPageAction(index);
    return index;
}

QAction* MainWindow::action(const QString& name) const { return findChild<QAction*>(name); }

QAction* MainWindow::addNamedAction(QMenu* menu, const QString& name, const QString& text, const QString& tooltip,
                                    const QList<QKeySequence>& keys)
{
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    a->setToolTip(tooltip);
    a->setStatusTip(tooltip);
    a->setShortcuts(keys);
    menu->addAction(a);
    return a;
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] - %2 - ShardLab").arg(m_document->displayName(), qs(m_document->scenario().name)));
    setWindowModified(m_document->isModified());
}

void MainWindow::updateSummary()
{
    const Feedback& f = m_editor->feedback()->current();
    const CapacityReport& c = f.capacity;
    QStringList parts;
    parts << tr("%n GPU(s)", nullptr, static_cast<int>(c.ranks.size()));
    parts << tr("%1 owned in total").arg(bytesText(c.totalOwned));
    parts << tr("imbalance %1 %").arg(c.imbalancePct, 0, 'f', 0);
    int over = 0;
    for (const RankMemory& rm : c.ranks)
        over += rm.fits() ? 0 : 1;
    parts << (over == 0 ? tr("everything fits") : tr("%n GPU(s) do not fit", nullptr, over));
    m_summary->setText(parts.join(QStringLiteral("  \u00b7  ")));
    m_summary->setStyleSheet(over ? QStringLiteral("color: #c62828; font-weight: bold") : QString());
}

void MainWindow::showStatus(const QString& text, int timeoutMs)
{
    showStatusText(statusBar(), m_summary, text, timeoutMs);
}

void MainWindow::restoreWindowGeometry()
{
    const QByteArray stored = QSettings().value(QLatin1String(kGeometrySetting)).toByteArray();
    if (!stored.isEmpty() && restoreGeometry(stored)) // Qt keeps a restored window on a screen
        return;
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (s)
        setGeometry(
            windowfit::firstGeometry(windowfit::kPreferredSize, s->availableGeometry(), windowfit::kAssumedFrame));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_presenter->isActive())
        m_presenter->setActive(false);
    if (!m_controller->maybeSave()) {
        event->ignore();
        return;
    }
    QSettings().setValue(QLatin1String(kGeometrySetting), saveGeometry());
    event->accept();
}

} // namespace shardlab::gui
