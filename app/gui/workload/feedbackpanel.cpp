#include "workload/feedbackpanel.h"

#include "document/livefeedback.h"
#include "common/glossary.h"
#include "common/labels.h"
#include "style/theme.h"

#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

namespace shardlab::gui {

FeedbackPanel::FeedbackPanel(LiveFeedback* feedback, QWidget* parent) : QWidget(parent)
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
    layout->addWidget(m_list, 1);
    connect(feedback, &LiveFeedback::updated, this, &FeedbackPanel::refresh);
    refresh(feedback->scenario(), feedback->current());
}

QString FeedbackPanel::balanceText() const { return m_balance->text(); }

void FeedbackPanel::refresh(const Scenario&, const Feedback& feedback)
{
    const CapacityReport& rep = feedback.capacity;
    if (rep.ranks.size() < 2 || rep.totalOwned == 0)
        m_balance->setText(tr("Balance: nothing to compare yet."));
    else if (rep.imbalancePct < 0.5)
        m_balance->setText(
            tr("Balanced: every GPU owns %1, the mean.").arg(bytesText(static_cast<Bytes>(rep.meanOwned))));
    else
        m_balance->setText(tr("Imbalance %1 %: %2 owns the most, %3; the mean is %4.")
                               .arg(rep.imbalancePct, 0, 'f', 0)
                               .arg(Labels::gpu(rep.largestRank),
                                    bytesText(rep.ranks[static_cast<size_t>(rep.largestRank)].owned),
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
