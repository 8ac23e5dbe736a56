#include "lessons/lesson_browser.h"

#include "i18n/language.h"
#include "lessons/lesson_list_model.h"
#include "lessons/question_panel.h"

#include "shardlab/base/resources.h"

#include <QComboBox>
#include <QEvent>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {
QLabel* wrappedLabel(QWidget* parent)
{
    auto* l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

// Colours only, no font in these style sheets: a font there would stop the label following the
// application's font (presenter mode's larger one). On a dark window (presenter mode's dark theme)
// light text on a dark blue, and a light grey for the other steps.
QString stepStyle(bool current, bool dark)
{
    if (current)
        return dark ? QStringLiteral("background-color: #23344D; color: white; padding: 3px;")
                    : QStringLiteral("background-color: #e8f0fa; color: black; padding: 3px;");
    return dark ? QStringLiteral("color: #B8B8B8; padding: 3px;") : QStringLiteral("color: #666666; padding: 3px;");
}
} // namespace

LessonBrowser::LessonBrowser(QWidget* parent) : QWidget(parent)
{
    m_model = new LessonListModel(this);
    m_list = new QListView(this);
    m_list->setModel(m_model);
    m_list->setWordWrap(true);
    m_list->setResizeMode(QListView::Adjust);
    m_list->setTextElideMode(Qt::ElideNone);
    m_list->setMinimumWidth(220);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // titles wrap

    m_title = wrappedLabel(this);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_title->setFont(big);
    m_course = wrappedLabel(this);

    m_summary = wrappedLabel(this);

    m_languageBox = new QComboBox(this);
    m_languageBox->addItem(tr("English"), static_cast<int>(Language::English));
    m_languageBox->addItem(tr("Simplified Chinese"), static_cast<int>(Language::Chinese));
    m_languageBox->setToolTip(tr("Language of the lesson texts"));
    m_openScenario = new QPushButton(tr("Open the lesson's scenario"), this);
    m_openCompare = new QPushButton(tr("Open the comparison scenario"), this);
    m_sideBySide = new QPushButton(tr("Side by side"), this);
    m_sideBySide->setToolTip(tr("Simulate the lesson's scenario and its comparison and show both timelines one above "
                                "the other, with what differs named"));
    // The dock is narrow: every row holds at most what fits in about 300 pixels, and texts wrap,
    // so that the lesson never scrolls sideways.
    auto* courseRow = new QHBoxLayout;
    courseRow->addWidget(m_course, 1);
    courseRow->addWidget(m_languageBox, 0, Qt::AlignTop);
    auto* top = new QVBoxLayout;
    top->addWidget(m_openScenario, 0, Qt::AlignLeft);
    top->addWidget(m_openCompare, 0, Qt::AlignLeft);
    top->addWidget(m_sideBySide, 0, Qt::AlignLeft);

    auto* stepsBox = new QGroupBox(tr("Steps"), this);
    m_steps = new QWidget(stepsBox);
    m_stepLayout = new QVBoxLayout(m_steps);
    m_stepLayout->setContentsMargins(0, 0, 0, 0);
    m_prevStep = new QPushButton(tr("Previous step"), stepsBox);
    m_nextStep = new QPushButton(tr("Next step"), stepsBox);
    m_showStep = new QPushButton(tr("Show me"), stepsBox);
    m_showStep->setToolTip(tr("Go to the view this step talks about"));
    QFont strong = m_showStep->font();
    strong.setBold(true);
    m_showStep->setFont(strong);
    m_stepCounter = new QLabel(stepsBox);
    auto* stepShow = new QHBoxLayout;
    stepShow->addWidget(m_showStep);
    stepShow->addStretch(1);
    stepShow->addWidget(m_stepCounter);
    auto* stepNav = new QHBoxLayout;
    stepNav->addWidget(m_prevStep);
    stepNav->addWidget(m_nextStep);
    stepNav->addStretch(1);
    auto* stepsLayout = new QVBoxLayout(stepsBox);
    stepsLayout->addWidget(m_steps);
    stepsLayout->addLayout(stepShow);
    stepsLayout->addLayout(stepNav);

    auto* questionsBox = new QGroupBox(tr("Questions"), this);
    m_question = new QuestionPanel(questionsBox);
    m_prevQuestion = new QPushButton(tr("Previous question"), questionsBox);
    m_nextQuestion = new QPushButton(tr("Next question"), questionsBox);
    m_questionCounter = new QLabel(questionsBox);
    auto* questionNav = new QHBoxLayout;
    questionNav->addWidget(m_prevQuestion);
    questionNav->addWidget(m_nextQuestion);
    questionNav->addStretch(1);
    auto* questionsLayout = new QVBoxLayout(questionsBox);
    questionsLayout->addWidget(m_questionCounter);
    questionsLayout->addLayout(questionNav);
    questionsLayout->addWidget(m_question);

    m_welcome = new QFrame(this);
    m_welcome->setObjectName(QStringLiteral("lessonsWelcome"));
    m_welcome->setFrameShape(QFrame::StyledPanel);
    m_welcome->setStyleSheet(
        QStringLiteral("QFrame#lessonsWelcome { background: #E3F1FB; border-left: 4px solid #0072B2; }"
                       "QFrame#lessonsWelcome QLabel { color: black; }"));
    auto* welcomeText = wrappedLabel(m_welcome);
    welcomeText->setTextFormat(Qt::RichText);
    welcomeText->setText(
        tr("<b>Welcome to ShardLab.</b> These ten lessons follow the course <i>Multi-GPU scaling</i>: each opens "
           "a scenario, points at what to look at and checks your answers.<br><b>Where to begin:</b> lesson 1 "
           "below. Press <i>Open the lesson's scenario</i>, then read the steps one at a time; <i>Show me</i> "
           "goes to the page each step talks about. Ctrl+R runs the scenario; Space plays the run back.<br>"
           "View &gt; Lessons (Ctrl+L) hides or shows this panel; Help &gt; Where to begin brings this note back."));
    auto* beginButton = new QPushButton(tr("Begin with lesson 1"), m_welcome);
    beginButton->setObjectName(QStringLiteral("lessonsBegin"));
    auto* closeWelcome = new QPushButton(tr("Close this note"), m_welcome);
    auto* welcomeButtons = new QHBoxLayout;
    welcomeButtons->addWidget(beginButton);
    welcomeButtons->addWidget(closeWelcome);
    welcomeButtons->addStretch(1);
    auto* welcomeLayout = new QVBoxLayout(m_welcome);
    welcomeLayout->addWidget(welcomeText);
    welcomeLayout->addLayout(welcomeButtons);
    m_welcome->hide();
    connect(closeWelcome, &QPushButton::clicked, this, [this] { setWelcomeVisible(false); });
    connect(beginButton, &QPushButton::clicked, this, [this] {
        setWelcomeVisible(false);
        if (m_model->rowCount() > 0) {
            m_list->setCurrentIndex(m_model->index(0));
            m_openScenario->click();
        }
    });

    auto* page = new QWidget(this);
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->addWidget(m_welcome);
    pageLayout->addWidget(m_title);
    pageLayout->addLayout(courseRow);
    pageLayout->addWidget(m_summary);
    pageLayout->addLayout(top);
    pageLayout->addWidget(stepsBox);
    pageLayout->addWidget(questionsBox);
    pageLayout->addStretch(1);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidget(page);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setFrameShape(QFrame::NoFrame);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(m_list);
    splitter->addWidget(m_scroll);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({280, 720});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showLesson(current.row()); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { showLesson(-1); });
    connect(m_languageBox, &QComboBox::currentIndexChanged, this,
            [this] { setLanguage(static_cast<Language>(m_languageBox->currentData().toInt())); });
    connect(m_openScenario, &QPushButton::clicked, this, [this] {
        if (const Lesson* l = m_model->lessonAt(m_row))
            Q_EMIT openScenarioRequested(qstr(l->scenarioPath().lexically_normal().string()));
    });
    connect(m_openCompare, &QPushButton::clicked, this, [this] {
        if (const Lesson* l = m_model->lessonAt(m_row); l && !l->compareScenario.empty())
            Q_EMIT openScenarioRequested(qstr(l->compareScenarioPath().lexically_normal().string()));
    });
    connect(m_sideBySide, &QPushButton::clicked, this, [this] {
        if (const Lesson* l = m_model->lessonAt(m_row); l && !l->compareScenario.empty())
            Q_EMIT sideBySideRequested(qstr(l->scenarioPath().lexically_normal().string()),
                                       qstr(l->compareScenarioPath().lexically_normal().string()));
    });
    connect(m_prevStep, &QPushButton::clicked, this, [this] { setCurrentStep(m_step - 1); });
    connect(m_nextStep, &QPushButton::clicked, this, [this] { setCurrentStep(m_step + 1); });
    connect(m_showStep, &QPushButton::clicked, this, [this] {
        const Lesson* l = m_model->lessonAt(m_row);
        if (l && m_step < static_cast<int>(l->steps.size()))
            Q_EMIT stepActivated(qstr(l->steps[static_cast<size_t>(m_step)].view), stepScenarioPath(m_step));
    });
    connect(m_prevQuestion, &QPushButton::clicked, this, [this] { setCurrentQuestion(currentQuestion() - 1); });
    connect(m_nextQuestion, &QPushButton::clicked, this, [this] { setCurrentQuestion(currentQuestion() + 1); });
    connect(m_question, &QuestionPanel::feedbackShown, this, [this] {
        // the verdict under Check, in view however far down the question is (after the layout
        // has made room for the new text)
        QTimer::singleShot(0, this, [this] { m_scroll->ensureWidgetVisible(m_question->resultLabel(), 20, 20); });
    });
    connect(m_question, &QuestionPanel::answerChecked, this,
            [this](int q, bool correct) { Q_EMIT answerChecked(currentLessonId(), q, correct); });

    // The interface language (QLocale's default, which main() sets to it), else English.
    setLanguage(languageFromCode(QLocale().name().toStdString()).value_or(Language::English));
    showLesson(-1);
}

LessonBrowser::~LessonBrowser() = default;

void LessonBrowser::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refreshSteps();
}

void LessonBrowser::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_list->doItemsLayout(); // wrapped titles take the new width
}

QString LessonBrowser::defaultLessonDirectory() { return QString::fromStdString(lessonDirectory().string()); }

bool LessonBrowser::loadLessons(const QString& dir)
{
    auto lessons = shardlab::loadLessons(dir.toStdString());
    if (!lessons) {
        m_error = i18n::engineError(lessons.error());
        return false;
    }
    m_error.clear();
    m_model->setLessons(std::move(*lessons));
    if (m_model->rowCount() > 0)
        m_list->setCurrentIndex(m_model->index(0));
    return true;
}

void LessonBrowser::setLanguage(Language language)
{
    m_language = language;
    m_model->setLanguage(language);
    // Item heights are measured with the list's font: with Chinese titles, measure with a CJK
    // font first, whose lines are taller than the Latin font's (otherwise titles get elided).
    QFont listFont = font();
    if (language == Language::Chinese)
        listFont.setFamilies({QStringLiteral("Noto Sans CJK SC"), font().family()});
    m_list->setFont(listFont);
    m_list->doItemsLayout(); // wrapped titles change height with the language
    const QSignalBlocker block(m_languageBox);
    m_languageBox->setCurrentIndex(m_languageBox->findData(static_cast<int>(language)));
    m_question->setLanguage(language);
    refreshTexts();
}

bool LessonBrowser::selectLesson(const QString& id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return false;
    m_list->setCurrentIndex(m_model->index(row));
    return true;
}

QString LessonBrowser::currentLessonId() const
{
    const Lesson* l = m_model->lessonAt(m_row);
    return l ? qstr(l->id) : QString();
}

void LessonBrowser::showLesson(int row)
{
    m_row = row;
    m_step = 0;
    m_resolved.reset();
    m_resolveError.clear();
    if (const Lesson* l = m_model->lessonAt(row)) {
        // Loads and simulates the lesson's scenarios: every numeric answer comes from these runs.
        auto resolved = resolveLesson(*l);
        if (resolved)
            m_resolved = std::make_unique<ResolvedLesson>(std::move(*resolved));
        else
            m_resolveError = i18n::engineError(resolved.error());
    }
    m_question->setQuestion(m_resolved.get(), m_resolved ? 0 : -1, m_language);
    refreshTexts();
}

void LessonBrowser::refreshTexts()
{
    const Lesson* l = m_model->lessonAt(m_row);
    m_title->setText(l ? qstr(l->title.in(m_language)) : tr("Lessons"));
    m_course->setText(l ? qstr(l->course.in(m_language)) : QString());
    QString summary = l ? qstr(l->summary.in(m_language)) : tr("Choose a lesson on the left.");
    if (!m_resolveError.isEmpty())
        summary += QLatin1Char('\n') + tr("The lesson's answers cannot be checked: %1").arg(m_resolveError);
    m_summary->setText(summary);
    m_openScenario->setEnabled(l != nullptr);
    m_openCompare->setVisible(l && !l->compareScenario.empty());
    m_sideBySide->setVisible(l && !l->compareScenario.empty());
    refreshSteps();
}

void LessonBrowser::refreshSteps()
{
    const Lesson* l = m_model->lessonAt(m_row);
    const int steps = l ? static_cast<int>(l->steps.size()) : 0;
    // One wrapped label per step (a single rich-text label does not grow reliably when its
    // text gets taller, as CJK lines are).
    while (m_stepLabels.size() > steps)
        delete m_stepLabels.takeLast();
    while (m_stepLabels.size() < steps) {
        QLabel* label = wrappedLabel(m_steps);
        m_stepLayout->addWidget(label);
        m_stepLabels.append(label);
    }
    for (int i = 0; i < steps; ++i) {
        const LessonStep& s = l->steps[static_cast<size_t>(i)];
        QLabel* label = m_stepLabels[i];
        const QString text = tr("%1. %2").arg(i + 1).arg(qstr(s.text.in(m_language))).toHtmlEscaped();
        label->setTextFormat(Qt::RichText);
        label->setText(i == m_step ? QStringLiteral("<b>%1</b>").arg(text) : text);
        const QString style = stepStyle(i == m_step, palette().color(QPalette::Window).lightness() < 128);
        if (label->styleSheet() != style)
            label->setStyleSheet(style);
    }
    m_stepCounter->setText(steps ? tr("Step %1 of %2").arg(m_step + 1).arg(steps) : QString());
    m_prevStep->setEnabled(m_step > 0);
    m_nextStep->setEnabled(m_step + 1 < steps);
    m_showStep->setEnabled(steps > 0 && !l->steps[static_cast<size_t>(m_step)].view.empty());

    const int questions = m_resolved ? static_cast<int>(m_resolved->lesson.questions.size()) : 0;
    const int q = currentQuestion();
    m_questionCounter->setText(questions ? tr("Question %1 of %2").arg(q + 1).arg(questions) : QString());
    m_prevQuestion->setEnabled(q > 0);
    m_nextQuestion->setEnabled(q + 1 < questions);
    Q_EMIT stepShown();
}

QString LessonBrowser::stepCaption() const
{
    const Lesson* l = m_model->lessonAt(m_row);
    if (!l || m_step < 0 || m_step >= static_cast<int>(l->steps.size()))
        return {};
    return tr("%1, step %2 of %3: %4")
        .arg(qstr(l->title.in(m_language)))
        .arg(m_step + 1)
        .arg(l->steps.size())
        .arg(qstr(l->steps[static_cast<size_t>(m_step)].text.in(m_language)));
}

void LessonBrowser::setCurrentStep(int step)
{
    const Lesson* l = m_model->lessonAt(m_row);
    if (!l || step < 0 || step >= static_cast<int>(l->steps.size()))
        return;
    m_step = step;
    refreshSteps();
    // the step just chosen and its Show me in view (after the layout took the new texts)
    QTimer::singleShot(0, this, [this] {
        if (m_step < m_stepLabels.size())
            m_scroll->ensureWidgetVisible(m_stepLabels[m_step], 10, 10);
        m_scroll->ensureWidgetVisible(m_prevStep, 10, 10); // the row under Show me
    });
}

int LessonBrowser::currentQuestion() const { return m_question->questionIndex(); }

void LessonBrowser::setCurrentQuestion(int question)
{
    if (!m_resolved || question < 0 || question >= static_cast<int>(m_resolved->lesson.questions.size()))
        return;
    m_question->setQuestion(m_resolved.get(), question, m_language);
    refreshSteps();
}

int LessonBrowser::stepFor(const QString& scenarioPath) const
{
    const Lesson* l = m_model->lessonAt(m_row);
    if (!l)
        return -1;
    if (stepScenarioPath(m_step) == scenarioPath)
        return m_step;
    for (int i = 0; i < static_cast<int>(l->steps.size()); ++i)
        if (stepScenarioPath(i) == scenarioPath)
            return i;
    return -1;
}

QString LessonBrowser::stepView(int step) const
{
    const Lesson* l = m_model->lessonAt(m_row);
    if (!l || step < 0 || step >= static_cast<int>(l->steps.size()))
        return {};
    return qstr(l->steps[static_cast<size_t>(step)].view);
}

std::optional<PlanRequest> LessonBrowser::stepPlan(int step) const
{
    const Lesson* l = m_model->lessonAt(m_row);
    if (!l)
        return std::nullopt;
    const bool compare = step >= 0 && step < static_cast<int>(l->steps.size())
                         && l->steps[static_cast<size_t>(step)].scenario == "compare";
    return compare ? l->comparePlan : l->plan;
}

void LessonBrowser::setWelcomeVisible(bool visible)
{
    m_welcome->setVisible(visible);
    if (visible)
        m_scroll->ensureWidgetVisible(m_welcome);
}

bool LessonBrowser::isWelcomeVisible() const { return !m_welcome->isHidden(); }

QString LessonBrowser::stepScenarioPath(int step) const
{
    const Lesson* l = m_model->lessonAt(m_row);
    if (!l || step < 0 || step >= static_cast<int>(l->steps.size()))
        return {};
    const bool compare = l->steps[static_cast<size_t>(step)].scenario == "compare";
    return qstr((compare ? l->compareScenarioPath() : l->scenarioPath()).lexically_normal().string());
}

} // namespace shardlab::gui
