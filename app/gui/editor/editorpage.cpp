#include "editor/editorpage.h"
#include "style/scrollpage.h"

#include "document/document.h"
#include "document/livefeedback.h"
#include "program/programpanel.h"
#include "style/theme.h"
#include "topology/topologypanel.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"
#include "workload/capacitymodel.h"
#include "workload/feedbackpanel.h"
#include "workload/workloadpanel.h"

#include <QAction>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {
// One line that says what the colours and dashes of the diagram mean. Where the window is narrow
// it wraps between entries, never inside one ("over" on one line and "90 %" on the next).
QString legend()
{
    auto entry = [](const QString& html) {
        return QStringLiteral("<span style='white-space:nowrap'>%1</span>").arg(html);
    };
    auto line = [&](LinkKind kind, const QString& dash, const QString& name) {
        return entry(QStringLiteral("<span style='color:%1; font-weight:bold'>%2</span>&nbsp;%3")
                         .arg(theme::linkColour(kind).name(), dash, name.toHtmlEscaped()));
    };
    auto swatch = [&](const QColor& c, const QString& name) {
        return entry(
            QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2").arg(c.name(), name.toHtmlEscaped()));
    };
    return QStringList{
        line(LinkKind::NvLink, QStringLiteral("\u2501\u2501"), EditorPage::tr("NVLink")),
        line(LinkKind::Pcie, QStringLiteral("\u2501\u2501"), EditorPage::tr("PCIe")),
        line(LinkKind::CrossSocket, QStringLiteral("\u2505\u2505"), EditorPage::tr("CPU socket link (SYS)")),
        line(LinkKind::Network, QStringLiteral("\u2509\u2509"), EditorPage::tr("network")),
        entry(EditorPage::tr("thicker = faster").toHtmlEscaped()),
        swatch(theme::ok(), EditorPage::tr("fits")),
        swatch(theme::warn(), EditorPage::tr("over 90 %")),
        swatch(theme::overflow(), EditorPage::tr("does not fit"))}
        .join(QStringLiteral("&nbsp;&nbsp; "));
}
} // namespace

EditorPage::EditorPage(Document* document, QWidget* parent)
    : QWidget(parent), m_feedback(new LiveFeedback(document, this)),
      m_scene(new TopologyScene(document, m_feedback, this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* split = new QSplitter(Qt::Horizontal, this);

    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_toolBar = new QToolBar(tr("Diagram"), left);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    leftLayout->addWidget(m_toolBar);
    m_view = new TopologyView(m_scene, left);
    leftLayout->addWidget(m_view, 1);
    auto* legendLabel = new QLabel(legend(), left);
    legendLabel->setTextFormat(Qt::RichText);
    legendLabel->setWordWrap(true);
    legendLabel->setToolTip(tr("Right-click a GPU, a link or a shard tile for what you can do with it. Drag shard "
                               "tiles between GPUs; Ctrl-drag replicates. Wheel: zoom; middle button or Space: pan."));
    leftLayout->addWidget(legendLabel);

    auto* right = new QSplitter(Qt::Vertical, split);
    m_sideTabs = new QTabWidget(right);
    // Where the panel is narrower than its four tabs (1366 px with the Lessons dock open), their
    // titles are shortened rather than the last one hidden behind scroll arrows ("Capacity per
    // GPU", where lesson 2 sends learners); each title is also its tab's tooltip.
    m_sideTabs->setUsesScrollButtons(false);
    m_sideTabs->setElideMode(Qt::ElideRight);
    m_workload = new WorkloadPanel(document, m_sideTabs);
    m_program = new ProgramPanel(document, m_sideTabs);
    m_topology = new TopologyPanel(document, m_scene, m_sideTabs);
    // the panels scroll rather than making the window taller than a 1366x768 screen (scrollpage.h)
    m_sideTabs->addTab(scrollPage(m_workload), tr("Workload && shards"));
    m_sideTabs->addTab(scrollPage(m_program), tr("Step program"));
    m_sideTabs->addTab(scrollPage(m_topology), tr("Machine"));
    m_capacity = new CapacityModel(m_feedback, this);
    auto* capacityView = new QTableView(m_sideTabs);
    capacityView->setModel(m_capacity);
    capacityView->verticalHeader()->hide();
    capacityView->setSelectionBehavior(QAbstractItemView::SelectRows);
    capacityView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    capacityView->horizontalHeader()->setStretchLastSection(true);
    m_sideTabs->addTab(capacityView, tr("Capacity per GPU"));
    for (int i = 0; i < m_sideTabs->count(); ++i)
        if (m_sideTabs->tabToolTip(i).isEmpty())
            m_sideTabs->setTabToolTip(i, m_sideTabs->tabText(i).replace(QStringLiteral("&&"), QStringLiteral("&")));
    auto* feedbackBox = new QGroupBox(tr("Balance and warnings"), right);
    auto* feedbackLayout = new QVBoxLayout(feedbackBox);
    m_feedbackPanel = new FeedbackPanel(m_feedback, feedbackBox);
    feedbackLayout->addWidget(m_feedbackPanel);
    right->addWidget(m_sideTabs);
    right->addWidget(feedbackBox);
    right->setStretchFactor(0, 4);
    right->setStretchFactor(1, 1);
    right->setSizes({700, 200});

    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({930, 570});
    layout->addWidget(split);

    QAction* fit = m_toolBar->addAction(tr("Fit"), m_view, &TopologyView::fitToWindow);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    fit->setToolTip(tr("Fit the whole machine in the window (Ctrl+0)"));
    QAction* zoomIn = m_toolBar->addAction(tr("Zoom in"), m_view, &TopologyView::zoomIn);
    zoomIn->setShortcuts(QKeySequence::ZoomIn);
    QAction* zoomOut = m_toolBar->addAction(tr("Zoom out"), m_view, &TopologyView::zoomOut);
    zoomOut->setShortcuts(QKeySequence::ZoomOut);
    m_toolBar->addSeparator();
    m_toolBar->addAction(tr("Pick a machine..."), m_topology, &TopologyPanel::pickMachine);
    m_toolBar->addAction(tr("Add GPU"), m_topology, &TopologyPanel::addGpu);
    m_toolBar->addAction(tr("Connect..."), this,
                         [this] { m_scene->connectDialog(std::max(m_topology->currentGpu(), 0)); });

    connect(m_scene, &TopologyScene::editFailed, this, &EditorPage::editFailed);
    connect(m_workload, &WorkloadPanel::editFailed, this, &EditorPage::editFailed);
    connect(m_program, &ProgramPanel::editFailed, this, &EditorPage::editFailed);
    connect(m_topology, &TopologyPanel::editFailed, this, &EditorPage::editFailed);
    connect(m_scene, &TopologyScene::statusMessage, this, &EditorPage::statusMessage);
    connect(m_workload, &WorkloadPanel::statusMessage, this, &EditorPage::statusMessage);
    connect(m_scene, &TopologyScene::gpuActivated, this, [this](int rank) {
        m_sideTabs->setCurrentIndex(2); // Machine
        m_topology->selectGpu(rank);
    });
    connect(document, &Document::documentReset, m_view, &TopologyView::fitToWindow);
}

} // namespace shardlab::gui
