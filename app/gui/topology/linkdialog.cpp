#include "topology/linkdialog.h"

#include "common/glossary.h"
#include "common/labels.h"
#include "shardlab/model/presets.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace shardlab::gui {

LinkDialog::LinkDialog(const Topology& topology, int fromVertex, QWidget* parent)
    : QDialog(parent), m_topology(topology)
{
    setWindowTitle(tr("Connect"));
    auto* form = new QFormLayout(this);
    m_a = new QComboBox(this);
    m_b = new QComboBox(this);
    for (int v = 0; v < topology.vertexCount(); ++v) {
        const QString id = qs(topology.vertexId(v));
        const QString text =
            topology.isGpu(v)
                ? tr("%1 (%2)").arg(Labels::gpu(v), id)
                : tr("%1 (%2)").arg(
                    Labels::switchKind(topology.switches[static_cast<size_t>(v - topology.rankCount())].kind), id);
        m_a->addItem(text, id);
        m_b->addItem(text, id);
    }
    m_a->setCurrentIndex(std::max(fromVertex, 0));
    m_b->setCurrentIndex(fromVertex == 0 ? 1 : 0);
    m_kind = new QComboBox(this);
    for (LinkKind k : {LinkKind::NvLink, LinkKind::Pcie, LinkKind::CrossSocket, LinkKind::Network}) {
        m_kind->addItem(Labels::linkKind(k), static_cast<int>(k));
        m_kind->setItemData(m_kind->count() - 1, Glossary::link(k), Qt::ToolTipRole);
    }
    m_count = new QSpinBox(this);
    m_count->setRange(1, 1024);
    m_count->setToolTip(tr("NVLink links bundled together: NV18 is 18 links."));
    m_bandwidth = new QDoubleSpinBox(this);
    m_bandwidth->setRange(0.01, 100000);
    m_bandwidth->setDecimals(2);
    m_bandwidth->setSuffix(tr(" GB/s"));
    m_bandwidth->setToolTip(tr("Bandwidth per direction of the whole link (all bundled NVLinks together)."));
    m_latency = new QDoubleSpinBox(this);
    m_latency->setRange(0, 1e6);
    m_latency->setDecimals(2);
    m_latency->setSuffix(tr(" \u00b5s"));
    m_help = new QLabel(this);
    m_help->setWordWrap(true);
    m_problem = new QLabel(this);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828"));
    form->addRow(tr("From"), m_a);
    form->addRow(tr("To"), m_b);
    form->addRow(tr("Class"), m_kind);
    form->addRow(tr("Links bundled"), m_count);
    form->addRow(tr("Bandwidth"), m_bandwidth);
    form->addRow(tr("Latency"), m_latency);
    form->addRow(m_help);
    form->addRow(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &LinkDialog::kindChanged);
    connect(m_a, &QComboBox::currentIndexChanged, this, &LinkDialog::validate);
    connect(m_b, &QComboBox::currentIndexChanged, this, &LinkDialog::validate);
    kindChanged();
}

void LinkDialog::kindChanged()
{
    const auto kind = static_cast<LinkKind>(m_kind->currentData().toInt());
    const Link typical = typicalLink(kind, {}, {});
    m_count->setValue(typical.count);
    m_count->setEnabled(kind == LinkKind::NvLink);
    m_bandwidth->setValue(typical.bandwidthGBps);
    m_latency->setValue(typical.latencyUs);
    m_help->setText(Glossary::link(kind));
    validate();
}

void LinkDialog::validate()
{
    const bool same = m_a->currentIndex() == m_b->currentIndex();
    m_problem->setText(same ? tr("A link needs two different ends.") : QString());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!same);
}

Link LinkDialog::link() const
{
    Link l;
    l.a = m_a->currentData().toString().toStdString();
    l.b = m_b->currentData().toString().toStdString();
    l.kind = static_cast<LinkKind>(m_kind->currentData().toInt());
    l.count = m_count->value();
    l.bandwidthGBps = m_bandwidth->value();
    l.latencyUs = m_latency->value();
    return l;
}

} // namespace shardlab::gui
