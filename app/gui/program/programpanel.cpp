#include "program/programpanel.h"
#include "i18n/language.h"

#include "document/document.h"
#include "document/edits.h"
#include "common/labels.h"
#include "program/collectivehelper.h"
#include "program/opeditor.h"
#include "program/programmodel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace shardlab::gui {

ProgramPanel::ProgramPanel(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_model(new ProgramModel(document, this))
{
    auto* layout = new QVBoxLayout(this);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(splitter);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    m_view = new QTableView(top);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    topLayout->addWidget(m_view, 1);
    auto* buttons = new QHBoxLayout;
    auto* compute = new QPushButton(tr("+ Compute"), top);
    auto* collective = new QPushButton(tr("+ Collective..."), top);
    collective->setToolTip(tr("Asks what the next step needs, then adds the collective that delivers it."));
    auto* remove = new QPushButton(tr("Remove"), top);
    auto* up = new QPushButton(tr("Up"), top);
    auto* down = new QPushButton(tr("Down"), top);
    for (QPushButton* b : {compute, collective, remove, up, down})
        buttons->addWidget(b);
    buttons->addStretch();
    topLayout->addLayout(buttons);
    auto* iterRow = new QFormLayout;
    m_iterations = new QSpinBox(top);
    m_iterations->setRange(1, 100000);
    m_iterations->setToolTip(tr("How many times the program runs; the first iteration often differs (warm-up)."));
    iterRow->addRow(tr("Iterations"), m_iterations);
    topLayout->addLayout(iterRow);
    m_editor = new OpEditor(document, splitter);
    splitter->addWidget(top);
    splitter->addWidget(m_editor);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter);

    connect(compute, &QPushButton::clicked, this, &ProgramPanel::addCompute);
    connect(collective, &QPushButton::clicked, this, &ProgramPanel::addCollective);
    connect(remove, &QPushButton::clicked, this, &ProgramPanel::removeStep);
    connect(up, &QPushButton::clicked, this, &ProgramPanel::moveUp);
    connect(down, &QPushButton::clicked, this, &ProgramPanel::moveDown);
    connect(m_editor, &OpEditor::editFailed, this, &ProgramPanel::editFailed);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_editor->setStep(currentStep()); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_editor->setStep(currentStep()); });
    connect(m_iterations, &QSpinBox::valueChanged, this,
            [this](int v) { report(Edits::setIterations(*m_document, v)); });
    auto syncIterations = [this](const Scenario& s) {
        const QSignalBlocker block(m_iterations);
        m_iterations->setValue(s.iterations);
    };
    connect(document, &Document::scenarioChanged, this, syncIterations);
    syncIterations(document->scenario());
}

int ProgramPanel::currentStep() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void ProgramPanel::select(int step)
{
    if (step >= 0 && step < m_model->rowCount())
        m_view->selectRow(step);
}

void ProgramPanel::report(const Status& status)
{
    if (!status)
        emit editFailed(i18n::engineError(status.error()));
}

void ProgramPanel::addCompute()
{
    Op op;
    op.kind = OpKind::Compute;
    op.name = tr("compute").toStdString();
    const auto& items = m_document->scenario().workload.items;
    if (!items.empty())
        op.item = items.front().name;
    op.flops = 1e12;
    const int at = currentStep() + 1 > 0 ? currentStep() + 1 : m_model->rowCount();
    report(Edits::insertOp(*m_document, at, op));
    select(at);
}

void ProgramPanel::addCollective()
{
    CollectiveHelper helper(this);
    if (helper.exec() != QDialog::Accepted)
        return;
    Op op;
    op.kind = helper.chosen();
    op.name = Labels::op(op.kind).toLower().toStdString();
    const auto& items = m_document->scenario().workload.items;
    for (const WorkloadItem& item : items)
        if (item.kind == ItemKind::Gradients)
            op.item = item.name;
    if (op.item.empty() && !items.empty())
        op.item = items.front().name;
    if (op.item.empty())
        op.bytes = 1'000'000'000ULL;
    const int at = currentStep() + 1 > 0 ? currentStep() + 1 : m_model->rowCount();
    report(Edits::insertOp(*m_document, at, op));
    select(at);
}

void ProgramPanel::removeStep()
{
    const int step = currentStep();
    report(Edits::removeOp(*m_document, step));
    select(std::min(step, m_model->rowCount() - 1));
}

void ProgramPanel::moveUp()
{
    const int step = currentStep();
    if (step <= 0)
        return;
    report(Edits::moveOp(*m_document, step, step - 1));
    select(step - 1);
}

void ProgramPanel::moveDown()
{
    const int step = currentStep();
    if (step < 0 || step + 1 >= m_model->rowCount())
        return;
    report(Edits::moveOp(*m_document, step, step + 1));
    select(step + 1);
}

} // namespace shardlab::gui
