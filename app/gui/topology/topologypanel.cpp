#include "topology/topologypanel.h"
#include "i18n/language.h"

#include "document/document.h"
#include "document/edits.h"
#include "common/labels.h"
#include "topology/gpumodel.h"
#include "topology/machinedialog.h"
#include "topology/topologyscene.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {
QTableView* table(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}
} // namespace

TopologyPanel::TopologyPanel(Document* document, TopologyScene* scene, QWidget* parent)
    : QWidget(parent), m_document(document), m_scene(scene), m_gpus(new GpuModel(document, this)),
      m_links(new LinkModel(document, this))
{
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    m_machine = new QLabel(this);
    m_machine->setWordWrap(true);
    auto* pick = new QPushButton(tr("Pick a machine..."), this);
    pick->setToolTip(
        tr("Replace the machine by a built-in one, or a cluster built from it. The workload and program stay."));
    top->addWidget(m_machine, 1);
    top->addWidget(pick);
    layout->addLayout(top);
    m_gpuView = table(m_gpus, this);
    layout->addWidget(m_gpuView, 3);
    auto* gpuButtons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add a GPU like the selected one"), this);
    auto* remove = new QPushButton(tr("Remove GPU"), this);
    auto* connectButton = new QPushButton(tr("Connect..."), this);
    gpuButtons->addWidget(add);
    gpuButtons->addWidget(remove);
    gpuButtons->addWidget(connectButton);
    gpuButtons->addStretch();
    layout->addLayout(gpuButtons);
    m_linkView = table(m_links, this);
    layout->addWidget(m_linkView, 2);
    auto* linkButtons = new QHBoxLayout;
    auto* removeLinkButton = new QPushButton(tr("Remove link"), this);
    linkButtons->addWidget(removeLinkButton);
    linkButtons->addStretch();
    layout->addLayout(linkButtons);

    connect(pick, &QPushButton::clicked, this, &TopologyPanel::pickMachine);
    connect(add, &QPushButton::clicked, this, &TopologyPanel::addGpu);
    connect(remove, &QPushButton::clicked, this, &TopologyPanel::removeGpu);
    connect(connectButton, &QPushButton::clicked, this, [this] { m_scene->connectDialog(std::max(currentGpu(), 0)); });
    connect(removeLinkButton, &QPushButton::clicked, this, &TopologyPanel::removeLink);
    connect(m_gpus, &GpuModel::editFailed, this, &TopologyPanel::editFailed);
    connect(m_links, &LinkModel::editFailed, this, &TopologyPanel::editFailed);
    auto describe = [this](const Scenario& s) {
        m_machine->setText(tr("<b>%1</b><br>%n GPU(s), %2 node(s), %3 links", nullptr, s.ranks())
                               .arg(qs(s.topology.name).toHtmlEscaped())
                               .arg(s.topology.nodeCount())
                               .arg(s.topology.links.size()));
        m_machine->setToolTip(qs(s.topology.source));
    };
    connect(document, &Document::scenarioChanged, this, describe);
    describe(document->scenario());
}

int TopologyPanel::currentGpu() const
{
    const QModelIndexList rows = m_gpuView->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void TopologyPanel::selectGpu(int rank)
{
    if (rank >= 0 && rank < m_gpus->rowCount())
        m_gpuView->selectRow(rank);
}

void TopologyPanel::pickMachine()
{
    MachineDialog dialog(m_document->scenario().ranks(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (Status st = Edits::useTopology(*m_document, dialog.topology()); !st)
        emit editFailed(i18n::engineError(st.error()));
}

void TopologyPanel::addGpu()
{
    const int rank = std::max(currentGpu(), 0);
    if (Status st = Edits::addGpuLike(*m_document, rank); !st)
        emit editFailed(i18n::engineError(st.error()));
}

void TopologyPanel::removeGpu()
{
    if (Status st = Edits::removeGpu(*m_document, currentGpu() < 0 ? m_document->scenario().ranks() - 1 : currentGpu());
        !st)
        emit editFailed(i18n::engineError(st.error()));
}

void TopologyPanel::removeLink()
{
    const QModelIndexList rows = m_linkView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    if (Status st = Edits::removeLink(*m_document, rows.first().row()); !st)
        emit editFailed(i18n::engineError(st.error()));
}

} // namespace shardlab::gui
