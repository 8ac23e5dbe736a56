#include "mainwindow.h"

#include "document/autosave.h"
#include "document/document.h"
#include "document/documentcontroller.h"
#include "document/edits.h"
#include "document/livefeedback.h"
#include "document/prompter.h"
#include "document/recentfiles.h"
#include "editorpage.h"
#include "glossary.h"
#include "i18n/preferencesdialog.h"
#include "labels.h"
#include "resourcepaths.h"
#include "shardlab/version.h"
#include "topology/topologypanel.h"
#include "topology/topologyscene.h"
#include "workload/workloadpanel.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

namespace shardlab::gui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new Document(this)), m_recent(new RecentFiles(this)),
      m_prompter(new DialogPrompter(this)),
      m_controller(new DocumentController(m_document, m_prompter, m_recent, this)),
      m_autosave(new Autosave(m_document, Autosave::defaultDir(), this))
{
    // The document starts with the default scenario (or a blank one when resources are missing).
    const QString start = defaultScenarioPath();
    if (start.isEmpty() || !m_controller->openExample(start, false))
        m_document->reset(DocumentController::blankScenario(), QString());

    m_pages = new QTabWidget(this);
    m_pages->setDocumentMode(true);
    m_editor = new EditorPage(m_document, m_pages);
    addPage(m_editor, tr("Editor"));
    setCentralWidget(m_pages);

    m_summary = new QLabel(this);
    m_summary->setToolTip(Glossary::imbalance());
    statusBar()->addPermanentWidget(m_summary);
    buildMenus();

    connect(m_document, &Document::scenarioChanged, this, &MainWindow::scenarioChanged);
    connect(m_document, &Document::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::scenarioChanged, this, &MainWindow::updateTitle);
    connect(m_editor->feedback(), &LiveFeedback::updated, this, &MainWindow::updateSummary);
    connect(m_controller, &DocumentController::statusMessage, this,
        [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(
        m_editor, &EditorPage::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(m_editor, &EditorPage::editFailed, this,
        [this](const QString& m) { statusBar()->showMessage(tr("Not changed: %1").arg(m), 10000); });
    connect(m_document->undoStack(), &QUndoStack::indexChanged, this, [this] {
        const QString text = m_document->undoStack()->undoText();
        if (!text.isEmpty())
            statusBar()->showMessage(text, 4000);
    });
    connect(m_recent, &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    updateTitle();
    updateSummary();
    resize(1500, 940);
}

MainWindow::~MainWindow() = default;

const Scenario& MainWindow::scenario() const
{
    return m_document->scenario();
}

TopologyScene* MainWindow::topologyScene() const
{
    return m_editor->scene();
}

bool MainWindow::openFile(const QString& path)
{
    return m_controller->openPath(path, true);
}

void MainWindow::offerRecovery()
{
    m_controller->offerRecovery(*m_autosave);
}

int MainWindow::addPage(QWidget* page, const QString& title)
{
    const int index = m_pages->addTab(page, title);
    if (index < 9) {
        auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + index)), this);
        connect(shortcut, &QShortcut::activated, this, [this, page] { m_pages->setCurrentWidget(page); });
    }
    return index;
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, m_controller, &DocumentController::newDocument);
    file->addAction(tr("&Open..."), QKeySequence::Open, m_controller, &DocumentController::open);
    QMenu* examples = file->addMenu(tr("Open &example"));
    for (const QString& path : exampleScenarios())
        examples->addAction(QFileInfo(path).fileName().remove(QStringLiteral(".shardlab.json")), this,
            [this, path] { m_controller->openExample(path); });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, m_controller, &DocumentController::save);
    file->addAction(tr("Save &as..."), QKeySequence::SaveAs, m_controller, &DocumentController::saveAs);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    TopologyPanel* machine = m_editor->topologyPanel();
    edit->addAction(tr("Pick a &machine..."), QKeySequence(Qt::CTRL | Qt::Key_M), machine, &TopologyPanel::pickMachine);
    edit->addAction(tr("Add a &GPU"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G), machine, &TopologyPanel::addGpu);
    edit->addAction(tr("&Connect..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L), this,
        [this] { topologyScene()->connectDialog(std::max(m_editor->topologyPanel()->currentGpu(), 0)); });
    edit->addSeparator();
    WorkloadPanel* workload = m_editor->workloadPanel();
    edit->addAction(
        tr("Add &item..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I), workload, &WorkloadPanel::addItem);
    edit->addAction(
        tr("&Split item..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), workload, &WorkloadPanel::splitItem);
    edit->addAction(tr("&Place by strategy"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), workload,
        &WorkloadPanel::placeByStrategy);
    QAction* release = edit->addAction(tr("&Take selected shards off their GPUs"), this, [this] {
        const QList<ShardRef> refs = topologyScene()->selectedShards();
        if (!refs.isEmpty())
            if (Status st = Edits::releaseShards(*m_document, refs); !st)
                statusBar()->showMessage(qs(st.error().message), 8000);
    });
    release->setShortcut(QKeySequence::Delete);
    edit->addSeparator();
    edit->addAction(i18n::createPreferencesAction(this));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ShardLab"), this, [this] {
        QMessageBox::about(this, tr("About ShardLab"),
            tr("<b>ShardLab %1</b><br>A visual simulator and live profiler for multi-GPU programming: "
               "ownership, balance and necessary communication, made visible.")
                .arg(QString::fromLatin1(kVersion)));
    });
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_recent->files();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        m_recentMenu
            ->addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this, [this, path] { openFile(path); })
            ->setToolTip(path);
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear the list"), m_recent, &RecentFiles::clear);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
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

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_controller->maybeSave())
        event->accept();
    else
        event->ignore();
}

} // namespace shardlab::gui
