#include "lessons/question_panel.h"

#include "i18n/engineterms.h"
#include "i18n/language.h"
#include "lessons/lesson_list_model.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QTextDocument>
#include <QVBoxLayout>

namespace shardlab::gui {

QuestionPanel::QuestionPanel(QWidget* parent) : QWidget(parent)
{
    m_prompt = new QLabel(this);
    m_prompt->setWordWrap(true);
    QFont bold = m_prompt->font();
    bold.setBold(true);
    m_prompt->setFont(bold);
    m_hintButton = new QPushButton(tr("Hint"), this);
    m_hintButton->setCheckable(true);
    m_hintButton->setToolTip(tr("Show a hint without giving the answer away"));
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    m_hint->setStyleSheet(QStringLiteral("color: #555555; font-style: italic;"));
    m_hint->hide();

    m_choices = new QWidget(this);
    m_choiceLayout = new QVBoxLayout(m_choices);
    m_choiceLayout->setContentsMargins(0, 0, 0, 0);
    m_choiceGroup = new QButtonGroup(this);

    m_numberRow = new QWidget(this);
    m_number = new QLineEdit(m_numberRow);
    m_number->setPlaceholderText(tr("a number"));
    m_unit = new QLabel(m_numberRow);
    auto* numberLayout = new QHBoxLayout(m_numberRow);
    numberLayout->setContentsMargins(0, 0, 0, 0);
    numberLayout->addWidget(m_number, 1);
    numberLayout->addWidget(m_unit);

    m_collective = new QComboBox(this);
    m_collective->addItem(tr("Choose a collective\u2026"), QString());
    for (OpKind k : {OpKind::Reduce, OpKind::AllReduce, OpKind::Broadcast, OpKind::AllGather, OpKind::AllGatherV,
                     OpKind::ReduceScatter, OpKind::ReduceScatterAllGather, OpKind::SendRecv})
        m_collective->addItem(EngineTerms::op(k), QString::fromLatin1(opName(k)));
    m_collective->setToolTip(tr("A collective is an operation every rank of a group calls together"));

    m_check = new QPushButton(tr("Check"), this);
    m_check->setDefault(true);
    m_showAnswer = new QPushButton(tr("Show answer"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_check);
    buttons->addWidget(m_showAnswer);
    buttons->addStretch(1);

    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_prompt);
    layout->addWidget(m_hintButton, 0, Qt::AlignLeft); // a row of its own: the dock is narrow
    layout->addWidget(m_hint);
    layout->addWidget(m_choices);
    layout->addWidget(m_numberRow);
    layout->addWidget(m_collective);
    layout->addLayout(buttons);
    layout->addWidget(m_result, 1, Qt::AlignTop);

    connect(m_hintButton, &QPushButton::toggled, m_hint, &QLabel::setVisible);
    connect(m_check, &QPushButton::clicked, this, [this] { check(); });
    connect(m_number, &QLineEdit::returnPressed, this, [this] { check(); });
    connect(m_showAnswer, &QPushButton::clicked, this, [this] {
        if (m_lesson && question())
            setAnswerText(qstr(correctAnswer(*m_lesson, m_index)));
    });
    setQuestion(nullptr, -1, m_language);
}

const LessonQuestion* QuestionPanel::question() const
{
    if (!m_lesson || m_index < 0 || m_index >= static_cast<int>(m_lesson->lesson.questions.size()))
        return nullptr;
    return &m_lesson->lesson.questions[static_cast<size_t>(m_index)];
}

void QuestionPanel::setQuestion(const ResolvedLesson* lesson, int index, Language language)
{
    m_lesson = lesson;
    m_index = index;
    m_language = language;
    m_last.reset();
    m_lastError.clear();
    m_number->clear();
    m_collective->setCurrentIndex(0);
    m_hintButton->setChecked(false);
    rebuild();
}

void QuestionPanel::setLanguage(Language language)
{
    m_language = language;
    const QString answer = answerText();
    rebuild();
    setAnswerText(answer);
    showResult();
}

void QuestionPanel::rebuild()
{
    // choices are rebuilt for each question (and language)
    for (QAbstractButton* b : m_choiceGroup->buttons())
        m_choiceGroup->removeButton(b);
    while (QLayoutItem* item = m_choiceLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const LessonQuestion* q = question();
    m_prompt->setText(q ? qstr(q->prompt.in(m_language)) : tr("Choose a lesson to see its questions."));
    m_hint->setText(q ? qstr(q->hint.in(m_language)) : QString());
    m_hintButton->setVisible(q && !q->hint.empty());
    m_choices->setVisible(q && q->type == QuestionType::Choice);
    m_numberRow->setVisible(q && q->type == QuestionType::Numeric);
    m_collective->setVisible(q && q->type == QuestionType::Collective);
    m_check->setEnabled(q != nullptr);
    m_showAnswer->setEnabled(q != nullptr);
    if (!q) {
        m_result->clear();
        return;
    }
    if (q->type == QuestionType::Choice) {
        m_choiceGroup->setExclusive(!q->multiple);
        for (const LessonChoice& c : q->choices) {
            // the button carries the id, a wrapped label beside it the text: a button's own text
            // never wraps and would make the narrow lessons dock scroll sideways
            auto* row = new QWidget(m_choices);
            const QString id = tr("(%1)").arg(qstr(c.id));
            QAbstractButton* b = q->multiple ? static_cast<QAbstractButton*>(new QCheckBox(id, row))
                                             : static_cast<QAbstractButton*>(new QRadioButton(id, row));
            b->setProperty("choiceId", qstr(c.id));
            auto* text = new QLabel(qstr(c.text.in(m_language)), row);
            text->setWordWrap(true);
            text->setProperty("choiceButton", QVariant::fromValue(static_cast<QObject*>(b)));
            text->installEventFilter(this);
            auto* rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(0, 0, 0, 0);
            rowLayout->addWidget(b, 0, Qt::AlignTop);
            rowLayout->addWidget(text, 1);
            m_choiceGroup->addButton(b);
            m_choiceLayout->addWidget(row);
        }
    }
    if (q->type == QuestionType::Numeric)
        m_unit->setText(qstr(q->numeric.unit));
    showResult();
}

QString QuestionPanel::answerText() const
{
    const LessonQuestion* q = question();
    if (!q)
        return {};
    switch (q->type) {
    case QuestionType::Choice: {
        QStringList ids;
        for (QAbstractButton* b : m_choiceGroup->buttons())
            if (b->isChecked())
                ids << b->property("choiceId").toString();
        return ids.join(QStringLiteral(", "));
    }
    case QuestionType::Numeric: return m_number->text().trimmed();
    case QuestionType::Collective: return m_collective->currentData().toString();
    }
    return {};
}

void QuestionPanel::setAnswerText(const QString& answer)
{
    const LessonQuestion* q = question();
    if (!q)
        return;
    switch (q->type) {
    case QuestionType::Choice: {
        const QStringList ids = answer.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
        // uncheck everything first (an exclusive group needs that to allow "none")
        m_choiceGroup->setExclusive(false);
        for (QAbstractButton* b : m_choiceGroup->buttons())
            b->setChecked(ids.contains(b->property("choiceId").toString(), Qt::CaseInsensitive));
        m_choiceGroup->setExclusive(!q->multiple);
        break;
    }
    case QuestionType::Numeric: m_number->setText(answer); break;
    case QuestionType::Collective: {
        const int i = m_collective->findData(answer);
        m_collective->setCurrentIndex(i >= 0 ? i : 0);
        break;
    }
    }
}

bool QuestionPanel::check()
{
    if (!m_lesson || !question())
        return false;
    m_last.reset();
    m_lastError.clear();
    const QString answer = answerText();
    if (answer.isEmpty()) {
        m_lastError = tr("Give an answer first.");
    } else {
        auto result = checkAnswer(*m_lesson, m_index, answer.toStdString());
        if (result)
            m_last = *result;
        else
            m_lastError = i18n::engineError(result.error());
    }
    showResult();
    Q_EMIT feedbackShown();
    const bool correct = m_last && m_last->correct;
    if (m_last)
        Q_EMIT answerChecked(m_index, correct);
    return correct;
}

void QuestionPanel::showResult()
{
    if (!m_lastError.isEmpty()) {
        m_result->setText(QStringLiteral("<p style=\"color:#b26a00\">") + m_lastError.toHtmlEscaped()
                          + QStringLiteral("</p>"));
        return;
    }
    if (!m_last) {
        m_result->clear();
        return;
    }
    const QString colour = m_last->correct ? QStringLiteral("#1a7f37") : QStringLiteral("#c62828");
    m_result->setText(QStringLiteral("<p><b style=\"color:") + colour + QStringLiteral("\">")
                      + qstr(m_last->verdict.in(m_language)).toHtmlEscaped() + QStringLiteral("</b></p><p>")
                      + qstr(m_last->explanation.in(m_language)).toHtmlEscaped() + QStringLiteral("</p>"));
}

bool QuestionPanel::eventFilter(QObject* watched, QEvent* event)
{
    // a click on a choice's text chooses it, as a click on a button's own text would
    if (event->type() == QEvent::MouseButtonRelease)
        if (auto* b = qobject_cast<QAbstractButton*>(watched->property("choiceButton").value<QObject*>()))
            b->click();
    return QWidget::eventFilter(watched, event);
}

QString QuestionPanel::resultText() const
{
    QTextDocument doc;
    doc.setHtml(m_result->text());
    return doc.toPlainText();
}

} // namespace shardlab::gui
