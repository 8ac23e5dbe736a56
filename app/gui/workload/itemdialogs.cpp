#include "workload/itemdialogs.h"
#include "i18n/language.h"

#include "common/glossary.h"
#include "common/labels.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>

namespace shardlab::gui {

NewItemDialog::NewItemDialog(const Workload& workload, QWidget* parent) : QDialog(parent), m_workload(workload)
{
    setWindowTitle(tr("New workload item"));
    auto* form = new QFormLayout(this);
    m_name = new QLineEdit(tr("item %1").arg(workload.items.size() + 1), this);
    m_kind = new QComboBox(this);
    for (int k = 0; k <= static_cast<int>(ItemKind::Data); ++k)
        m_kind->addItem(Labels::itemKind(static_cast<ItemKind>(k)), k);
    m_size = new QLineEdit(QStringLiteral("1 GB"), this);
    m_size->setToolTip(tr("A size such as 24 GB (10^9 bytes), 512 MiB (2^20 bytes) or a number of bytes."));
    m_problem = new QLabel(this);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828"));
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Kind"), m_kind);
    form->addRow(tr("Size"), m_size);
    form->addRow(new QLabel(tr("The new item starts as one shard that no GPU holds: drag it onto a GPU, or place "
                               "everything by strategy."),
                            this));
    form->addRow(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &NewItemDialog::validate);
    connect(m_size, &QLineEdit::textChanged, this, &NewItemDialog::validate);
    validate();
}

void NewItemDialog::validate()
{
    QString problem;
    const std::string name = m_name->text().trimmed().toStdString();
    if (name.empty())
        problem = tr("The item needs a name.");
    else if (m_workload.find(name))
        problem = tr("'%1' exists already: names must be unique.").arg(m_name->text().trimmed());
    else if (auto size = parseSize(m_size->text().toStdString()); !size)
        problem = i18n::engineError(size.error());
    else if (*size == 0)
        problem = tr("The size must be above zero.");
    m_problem->setText(problem);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

WorkloadItem NewItemDialog::item() const
{
    WorkloadItem item;
    item.name = m_name->text().trimmed().toStdString();
    item.kind = static_cast<ItemKind>(m_kind->currentData().toInt());
    auto size = parseSize(m_size->text().toStdString());
    item.size = size ? *size : 0;
    item.shards = {Shard{0, item.size, {}}};
    return item;
}

SplitDialog::SplitDialog(const WorkloadItem& item, int ranks, QWidget* parent) : QDialog(parent), m_item(item)
{
    setWindowTitle(tr("Split '%1'").arg(qs(item.name)));
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(tr("'%1' holds %2. Cut it into shards; each new shard keeps the GPUs of the old shard "
                               "where it starts, then drag shards to move them.")
                                .arg(qs(item.name), bytesText(item.size)),
                            this));
    m_even = new QRadioButton(tr("Evenly into"), this);
    m_count = new QSpinBox(this);
    m_count->setRange(1, 65536);
    m_count->setValue(std::max(ranks, 1));
    m_count->setSuffix(tr(" shards"));
    form->addRow(m_even, m_count);
    m_custom = new QRadioButton(tr("Sizes"), this);
    m_sizes = new QLineEdit(this);
    m_sizes->setPlaceholderText(tr("e.g. 14 GB, 10 GB"));
    m_sizes->setToolTip(tr("Sizes separated by commas; together they must make the whole item."));
    form->addRow(m_custom, m_sizes);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    form->addRow(m_status);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(m_buttons);
    m_even->setChecked(true);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_even, &QRadioButton::toggled, this, &SplitDialog::validate);
    connect(m_count, &QSpinBox::valueChanged, this, &SplitDialog::validate);
    connect(m_sizes, &QLineEdit::textChanged, this, [this] {
        m_custom->setChecked(true);
        validate();
    });
    setToolTip(Glossary::shard());
    validate();
}

void SplitDialog::setEven(int n)
{
    m_even->setChecked(true);
    m_count->setValue(n);
}

void SplitDialog::setCustom(const QString& sizes) { m_sizes->setText(sizes); }

std::vector<Shard> SplitDialog::shards() const
{
    if (m_even->isChecked()) {
        if (static_cast<Bytes>(m_count->value()) > m_item.size)
            return {};
        return evenShards(m_item.size, m_count->value());
    }
    std::vector<Bytes> sizes;
    Bytes total = 0;
    for (const QString& part : m_sizes->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        auto size = parseSize(part.trimmed().toStdString());
        if (!size || *size == 0)
            return {};
        sizes.push_back(*size);
        total += *size;
    }
    if (sizes.empty() || total != m_item.size)
        return {};
    return customShards(sizes);
}

void SplitDialog::validate()
{
    QString text;
    bool ok = true;
    if (m_even->isChecked()) {
        const auto s = shards();
        ok = !s.empty();
        text = ok ? tr("%n shard(s) of about %1 each.", nullptr, m_count->value()).arg(bytesText(s.front().size))
                  : tr("More shards than bytes.");
    } else {
        Bytes total = 0;
        for (const QString& part : m_sizes->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            auto size = parseSize(part.trimmed().toStdString());
            if (!size) {
                text = i18n::engineError(size.error());
                ok = false;
                break;
            }
            total += *size;
        }
        if (ok) {
            ok = total == m_item.size;
            text = ok ? tr("The sizes make the whole item.")
                   : total < m_item.size
                       ? tr("%1 still to place (the sizes make %2 of %3).")
                             .arg(bytesText(m_item.size - total), bytesText(total), bytesText(m_item.size))
                       : tr("%1 too much (the sizes make %2 of %3).")
                             .arg(bytesText(total - m_item.size), bytesText(total), bytesText(m_item.size));
        }
    }
    m_status->setText(text);
    m_status->setStyleSheet(ok ? QString() : QStringLiteral("color: #c62828"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

} // namespace shardlab::gui
