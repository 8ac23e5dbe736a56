#include "topology/machinedialog.h"

#include "common/labels.h"
#include "i18n/language.h"

#include "shardlab/model/presets.h"
#include "shardlab/report/lab_report.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QSpinBox>
#include <QVBoxLayout>

namespace shardlab::gui {

MachineDialog::MachineDialog(int currentGpus, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Pick a machine"));
    resize(640, 460);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(
        new QLabel(tr("Built-in machines (figures from datasheets; each preset cites its source):"), this));
    m_list = new QListWidget(this);
    for (const PresetInfo& p : presetList()) {
        // the descriptions and citations in the interface language (topo.inc), as `shardlab topo --list` words them
        auto* item =
            new QListWidgetItem(tr("%1\n    %2").arg(qs(p.id), i18n::engineText(presetDescription(p))), m_list);
        item->setData(Qt::UserRole, qs(p.id));
        if (auto t = preset(p.id))
            item->setToolTip(qs(machineText(t->source, i18n::engineLanguage())));
    }
    layout->addWidget(m_list, 1);
    auto* form = new QFormLayout;
    m_gpus = new QSpinBox(this);
    m_gpus->setRange(1, 4096);
    m_gpus->setValue(std::max(currentGpus, 1));
    m_gpus->setToolTip(tr("Fewer GPUs than the preset: its first N. More: a cluster of copies of its first node, "
                          "joined by a 400 Gb/s InfiniBand network."));
    form->addRow(tr("GPUs"), m_gpus);
    layout->addLayout(form);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::currentRowChanged, this, &MachineDialog::presetChanged);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    connect(m_gpus, &QSpinBox::valueChanged, this, &MachineDialog::describe);
    m_list->setCurrentRow(0);
}

void MachineDialog::select(const QString& presetId, int gpus)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString() == presetId)
            m_list->setCurrentRow(i);
    m_gpus->setValue(gpus);
}

void MachineDialog::presetChanged()
{
    if (!m_list->currentItem())
        return;
    if (auto t = preset(m_list->currentItem()->data(Qt::UserRole).toString().toStdString()))
        m_gpus->setValue(t->rankCount());
    describe();
}

Topology MachineDialog::build(const std::string& presetId, int gpus)
{
    auto t = preset(presetId);
    if (!t)
        return {};
    if (gpus == t->rankCount())
        return *t;
    return gpus < t->rankCount() ? t->firstGpus(gpus) : scaleOut(*t, gpus);
}

Topology MachineDialog::topology() const
{
    if (!m_list->currentItem())
        return {};
    return build(m_list->currentItem()->data(Qt::UserRole).toString().toStdString(), m_gpus->value());
}

void MachineDialog::describe()
{
    const Topology t = topology();
    m_summary->setText(tr("%n GPU(s) in %1 node(s), %2 links: %3", nullptr, t.rankCount())
                           .arg(t.nodeCount())
                           .arg(t.links.size())
                           .arg(qs(machineText(t.name, i18n::engineLanguage()))));
}

} // namespace shardlab::gui
