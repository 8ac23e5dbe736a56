#include "program/opeditor.h"
#include "i18n/language.h"

#include "document/document.h"
#include "document/edits.h"
#include "common/glossary.h"
#include "common/labels.h"
#include "program/collectivehelper.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

namespace shardlab::gui {

namespace {
constexpr OpKind kKinds[] = {
    OpKind::Compute,   OpKind::AllReduce,  OpKind::Reduce,        OpKind::Broadcast,
    OpKind::AllGather, OpKind::AllGatherV, OpKind::ReduceScatter, OpKind::ReduceScatterAllGather,
    OpKind::SendRecv};

// A step turned into another kind; a collective has no GEMMs (a plan's compute step names them for
// live mode), so they go with the compute step they belonged to.
bool setKind(Op& op, OpKind kind)
{
    op.kind = kind;
    if (kind != OpKind::Compute) {
        op.gemms.clear();
        op.gemmShare = 0;
    }
    return true;
}
} // namespace

OpEditor::OpEditor(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    auto* form = new QFormLayout(this);
    m_title = new QLabel(this);
    form->addRow(m_title);

    auto* kindRow = new QHBoxLayout;
    m_kind = new QComboBox(this);
    for (OpKind k : kKinds) {
        m_kind->addItem(Labels::op(k), static_cast<int>(k));
        m_kind->setItemData(m_kind->count() - 1, Glossary::op(k), Qt::ToolTipRole);
    }
    m_which = new QPushButton(tr("Which one?"), this);
    m_which->setToolTip(tr("Answer what the next step needs, and ShardLab names the collective."));
    kindRow->addWidget(m_kind, 1);
    kindRow->addWidget(m_which);
    form->addRow(tr("Operation"), kindRow);

    m_name = new QLineEdit(this);
    form->addRow(tr("Name"), m_name);
    m_item = new QComboBox(this);
    m_item->setToolTip(tr("The workload item the step works on: compute time follows the share each GPU owns; a "
                          "collective moves the item's size unless a size is given."));
    form->addRow(tr("Item"), m_item);
    m_flops = new QLineEdit(this);
    m_flops->setToolTip(tr("Work over the whole item, e.g. 3.36 TFLOP. Each GPU does the share of the item it owns."));
    form->addRow(tr("Work"), m_flops);
    m_bytes = new QLineEdit(this);
    m_bytes->setToolTip(tr("Bytes of the collective (nccl-tests' size: the full buffer). Empty: the item's size."));
    form->addRow(tr("Size"), m_bytes);
    m_ranks = new QLineEdit(this);
    m_ranks->setToolTip(tr("The GPUs that take part: all, or a list such as 0-3, 6."));
    form->addRow(tr("Ranks"), m_ranks);
    m_root = new QSpinBox(this);
    m_root->setRange(0, 65535);
    m_root->setToolTip(tr("Reduce: the GPU that receives the sum. Broadcast: the GPU whose data is copied. "
                          "Send/recv: the GPU that sends."));
    form->addRow(tr("Root / sender"), m_root);
    m_peer = new QSpinBox(this);
    m_peer->setRange(0, 65535);
    m_peer->setToolTip(tr("Send/recv: the GPU that receives."));
    form->addRow(tr("Receiver"), m_peer);
    m_buckets = new QSpinBox(this);
    m_buckets->setRange(1, 100000);
    m_buckets->setToolTip(Glossary::buckets());
    form->addRow(tr("Buckets"), m_buckets);
    m_overlap = new QCheckBox(tr("Overlap with compute"), this);
    m_overlap->setToolTip(Glossary::overlap());
    form->addRow(QString(), m_overlap);
    m_algorithm = new QComboBox(this);
    for (const auto& [a, name] : kAlgorithmNames)
        m_algorithm->addItem(QString::fromLatin1(name), static_cast<int>(a));
    m_algorithm->setToolTip(tr("auto picks ring, tree or NVLS (where the NVSwitch reduces) as NCCL's tuner does; "
                               "the others force one, where the topology allows it."));
    form->addRow(tr("Algorithm"), m_algorithm);

    m_computeOnly = {m_flops, form->labelForField(m_flops)};
    m_collectiveOnly = {m_bytes, form->labelForField(m_bytes), m_algorithm, form->labelForField(m_algorithm),
                        m_overlap};
    m_groupOnly = {m_ranks, form->labelForField(m_ranks)};
    m_rootOnly = {m_root, form->labelForField(m_root)};
    m_pairOnly = {m_peer, form->labelForField(m_peer)};

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        const auto kind = static_cast<OpKind>(m_kind->currentData().toInt());
        commit(tr("operation"), [kind](Op& op) { return setKind(op, kind); });
    });
    connect(m_which, &QPushButton::clicked, this, &OpEditor::askWhichCollective);
    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        commit(tr("name"), [this](Op& op) {
            op.name = m_name->text().trimmed().toStdString();
            return true;
        });
    });
    connect(m_item, &QComboBox::currentIndexChanged, this, [this] {
        commit(tr("item"), [this](Op& op) {
            op.item = m_item->currentData().toString().toStdString();
            return true;
        });
    });
    connect(m_flops, &QLineEdit::editingFinished, this, [this] {
        commit(tr("work"), [this](Op& op) {
            // leaving the field without typing keeps the exact value (the text is rounded to
            // three digits): looking at a lesson's program must not modify the document
            if (m_flops->text().trimmed() == qs(formatFlops(op.flops)))
                return true;
            auto f = parseFlops(m_flops->text().toStdString());
            if (!f) {
                emit editFailed(i18n::engineError(f.error()));
                return false;
            }
            op.flops = *f;
            return true;
        });
    });
    connect(m_bytes, &QLineEdit::editingFinished, this, [this] {
        commit(tr("size"), [this](Op& op) {
            if (m_bytes->text().trimmed().isEmpty()) {
                op.bytes.reset();
                return true;
            }
            if (op.bytes && m_bytes->text().trimmed() == bytesText(*op.bytes))
                return true; // as shown: the exact size stays
            auto b = parseSize(m_bytes->text().toStdString());
            if (!b) {
                emit editFailed(i18n::engineError(b.error()));
                return false;
            }
            op.bytes = *b;
            return true;
        });
    });
    connect(m_ranks, &QLineEdit::editingFinished, this, [this] {
        commit(tr("ranks"), [this](Op& op) {
            auto r = Labels::parseRanks(m_ranks->text());
            if (!r) {
                emit editFailed(tr("'%1' is not a list of ranks (expected all, or e.g. 0-3, 6).").arg(m_ranks->text()));
                return false;
            }
            op.group = *r;
            return true;
        });
    });
    connect(m_root, &QSpinBox::valueChanged, this, [this](int v) {
        commit(tr("root"), [v](Op& op) {
            op.root = v;
            return true;
        });
    });
    connect(m_peer, &QSpinBox::valueChanged, this, [this](int v) {
        commit(tr("receiver"), [v](Op& op) {
            op.peer = v;
            return true;
        });
    });
    connect(m_buckets, &QSpinBox::valueChanged, this, [this](int v) {
        commit(tr("buckets"), [v](Op& op) {
            op.buckets = v;
            return true;
        });
    });
    connect(m_overlap, &QCheckBox::toggled, this, [this](bool on) {
        commit(tr("overlap"), [on](Op& op) {
            op.overlap = on;
            return true;
        });
    });
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, [this] {
        const auto a = static_cast<Algorithm>(m_algorithm->currentData().toInt());
        commit(tr("algorithm"), [a](Op& op) {
            op.algorithm = a;
            return true;
        });
    });
    connect(document, &Document::scenarioChanged, this, &OpEditor::load);
    setStep(-1);
}

void OpEditor::setStep(int index)
{
    m_index = index;
    load();
}

void OpEditor::updateVisibility(OpKind kind)
{
    const bool compute = kind == OpKind::Compute, pair = kind == OpKind::SendRecv;
    const bool rooted = kind == OpKind::Reduce || kind == OpKind::Broadcast;
    for (QWidget* w : m_computeOnly)
        w->setVisible(compute);
    for (QWidget* w : m_collectiveOnly)
        w->setVisible(!compute);
    for (QWidget* w : m_groupOnly)
        w->setVisible(!compute && !pair);
    for (QWidget* w : m_rootOnly)
        w->setVisible(rooted || pair);
    for (QWidget* w : m_pairOnly)
        w->setVisible(pair);
    m_which->setVisible(!compute);
}

void OpEditor::load()
{
    const Scenario& s = m_document->scenario();
    const bool valid = m_index >= 0 && m_index < static_cast<int>(s.program.size());
    setEnabled(valid);
    if (!valid) {
        m_title->setText(tr("Select a step to edit it."));
        return;
    }
    m_loading = true;
    const Op& op = s.program[static_cast<size_t>(m_index)];
    const QSignalBlocker b1(m_kind), b2(m_item), b3(m_root), b4(m_peer), b5(m_buckets), b6(m_overlap), b7(m_algorithm);
    m_title->setText(tr("<b>Step %1</b>").arg(m_index + 1));
    m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(op.kind)));
    m_kind->setToolTip(Glossary::op(op.kind));
    if (!m_name->hasFocus())
        m_name->setText(qs(op.name));
    m_item->clear();
    m_item->addItem(tr("(none)"), QString());
    for (const WorkloadItem& item : s.workload.items)
        m_item->addItem(qs(item.name), qs(item.name));
    m_item->setCurrentIndex(std::max(0, m_item->findData(qs(op.item))));
    if (!m_flops->hasFocus())
        m_flops->setText(qs(formatFlops(op.flops)));
    if (!m_bytes->hasFocus())
        m_bytes->setText(op.bytes ? bytesText(*op.bytes) : QString());
    const WorkloadItem* item = s.workload.find(op.item);
    m_bytes->setPlaceholderText(item ? tr("the item's size (%1)").arg(bytesText(item->size)) : tr("a size, e.g. 1 GB"));
    if (!m_ranks->hasFocus())
        m_ranks->setText(op.group.empty() ? tr("all") : Labels::ranks(op.group));
    m_root->setMaximum(std::max(0, s.ranks() - 1));
    m_peer->setMaximum(std::max(0, s.ranks() - 1));
    m_root->setValue(op.root);
    m_peer->setValue(op.peer);
    m_buckets->setValue(op.buckets);
    m_overlap->setChecked(op.overlap);
    m_algorithm->setCurrentIndex(m_algorithm->findData(static_cast<int>(op.algorithm)));
    updateVisibility(op.kind);
    m_loading = false;
}

void OpEditor::commit(const QString& field, const std::function<bool(Op&)>& change)
{
    if (m_loading || m_index < 0 || m_index >= static_cast<int>(m_document->scenario().program.size()))
        return;
    Op op = m_document->scenario().program[static_cast<size_t>(m_index)];
    if (!change(op)) {
        load(); // the input was not understood: show what the step holds
        return;
    }
    if (Status st = Edits::setOp(*m_document, m_index, op, field); !st) {
        emit editFailed(i18n::engineError(st.error()));
        load(); // show what the step really holds
    }
}

void OpEditor::askWhichCollective()
{
    CollectiveHelper helper(this);
    if (helper.exec() != QDialog::Accepted)
        return;
    const OpKind kind = helper.chosen();
    commit(tr("operation"), [kind](Op& op) { return setKind(op, kind); });
}

} // namespace shardlab::gui
