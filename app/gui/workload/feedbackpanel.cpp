#include "workload/feedbackpanel.h"

#include "document/livefeedback.h"
#include "glossary.h"
#include "labels.h"
#include "theme.h"
#include "workload/capacitymodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

namespace shardlab::gui {

FeedbackPanel::FeedbackPanel(LiveFeedback* feedback, QWidget* parent)
    : QWidget(parent)
    , m_model(new CapacityModel(feedback, this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_balance = new QLabel(this);
    m_balance->setWordWrap(true);
    m_balance->setToolTip(Glossary::imbalance());
    QFont f = m_balance->font();
    f.setPointSizeF(f.pointSizeF() * 1.15);
    f.setBold(true);
    m_balance->setFont(f);
    layout->addWidget(m_balance);
    m_list = new QListWidget(this);
    m_list->setWordWrap(true);
    m_list->setSelectionMode(QAbstractItemView::NoSelection);
    m_list->setFocusPolicy(Qt::NoFocus);
    m_list->setMaximumHeight(110);
    layout->addWidget(m_list);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(m_table, 1);
    connect(feedback, &LiveFeedback::updated, this, &FeedbackPanel::refresh);
    refresh(feedback->scenario(), feedback->current());
}

QString FeedbackPanel::balanceText() const { return m_balance->text(); }

void FeedbackPanel::refresh(const Scenario&, const Feedback& feedback)
{
    const CapacityReport& rep = feedback.capacity;
    if (rep.ranks.size() < 2 || rep.totalOwned == 0)
        m_balance->setText(tr("Balance: nothing to compare yet."));
    else
        m_balance->setText(tr("Imbalance %1 %: %2 owns the most, %3; the mean is %4.")
                               .arg(rep.imbalancePct, 0, 'f', 0)
                               .arg(Labels::gpu(rep.largestRank), bytesText(rep.ranks[static_cast<size_t>(rep.largestRank)].owned),
                                    bytesText(static_cast<Bytes>(rep.meanOwned))));
    const QStringList warnings = feedback.warnings();
    if (warnings == m_warnings && m_list->count() > 0)
        return;
    m_warnings = warnings;
    m_list->clear();
    if (warnings.isEmpty()) {
        auto* ok = new QListWidgetItem(style()->standardIcon(QStyle::SP_DialogApplyButton),
                                       tr("Every GPU fits what it owns, and the ownership is balanced."), m_list);
        ok->setForeground(theme::ok());
        return;
    }
    // capacityOf() puts overflows first: the first line is red when a rank does not fit
    for (int i = 0; i < warnings.size(); ++i) {
        auto* item = new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxWarning), warnings[i], m_list);
        item->setForeground(i == 0 && !rep.allFit() ? theme::overflow() : theme::warn().darker(130));
    }
}

} // namespace shardlab::gui
