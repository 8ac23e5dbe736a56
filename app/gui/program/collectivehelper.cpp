#include "program/collectivehelper.h"

#include "common/glossary.h"
#include "common/labels.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {
constexpr Need kNeeds[] = {Need::SumOnOneRank, Need::SumOnEveryRank, Need::SliceOfSumOnEveryRank,
                           Need::ConcatenationOnEveryRank, Need::CopyOfOneRanksData};
} // namespace

CollectiveHelper::CollectiveHelper(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Which collective?"));
    auto* layout = new QVBoxLayout(this);
    auto* question = new QLabel(tr("<b>What does the next step need on each GPU?</b><br>Choose the collective from "
                                   "what its consumer needs, not from what the data looks like."),
                                this);
    question->setWordWrap(true);
    layout->addWidget(question);
    m_needs = new QButtonGroup(this);
    const QString texts[] = {
        tr("The sum of everyone's data, on one GPU only"),
        tr("The sum of everyone's data, on every GPU"),
        tr("Only its own slice of the sum, on every GPU"),
        tr("Everyone's pieces side by side (the concatenation), on every GPU"),
        tr("A copy of one GPU's data, on every GPU"),
    };
    for (int i = 0; i < 5; ++i) {
        auto* b = new QRadioButton(texts[i], this);
        b->setToolTip(Glossary::need(kNeeds[i]));
        m_needs->addButton(b, i);
        layout->addWidget(b);
    }
    m_unequal = new QCheckBox(tr("The pieces have different sizes"), this);
    m_unequal->setToolTip(tr("NCCL's all-gather needs equal pieces; unequal ones need all-gather-v."));
    layout->addWidget(m_unequal);
    m_answer = new QLabel(this);
    QFont f = m_answer->font();
    f.setPointSizeF(f.pointSizeF() * 1.4);
    f.setBold(true);
    m_answer->setFont(f);
    layout->addWidget(m_answer);
    m_explain = new QLabel(this);
    m_explain->setWordWrap(true);
    layout->addWidget(m_explain);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_use = buttons->addButton(tr("Use it"), QDialogButtonBox::AcceptRole);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_needs, &QButtonGroup::idToggled, this, &CollectiveHelper::update);
    connect(m_unequal, &QCheckBox::toggled, this, &CollectiveHelper::update);
    m_needs->button(1)->setChecked(true);
    update();
}

void CollectiveHelper::setNeed(Need need, bool unequalPieces)
{
    for (int i = 0; i < 5; ++i)
        if (kNeeds[i] == need)
            m_needs->button(i)->setChecked(true);
    m_unequal->setChecked(unequalPieces);
    update();
}

Need CollectiveHelper::need() const { return kNeeds[std::max(0, m_needs->checkedId())]; }

bool CollectiveHelper::unequalPieces() const { return m_unequal->isChecked(); }

OpKind CollectiveHelper::chosen() const { return collectiveFor(need(), unequalPieces()); }

QString CollectiveHelper::answerText() const { return m_answer->text(); }

void CollectiveHelper::update()
{
    m_unequal->setEnabled(need() == Need::ConcatenationOnEveryRank);
    const OpKind op = chosen();
    m_answer->setText(tr("\u2192 %1").arg(Labels::op(op)));
    m_explain->setText(Glossary::op(op));
    m_use->setText(tr("Use %1").arg(Labels::op(op)));
}

} // namespace shardlab::gui
