// The lesson browser: the list of lessons; for the chosen one its course part, summary and
// scenario, the steps (what to look at in the app, one at a time), and its questions with answer
// checks. It never loads a scenario itself: it asks the main window to (openScenarioRequested),
// and says which view a step points at (stepActivated).
#pragma once

#include "shardlab/lessons/lesson_check.h"
#include "shardlab/plan/plan_request.h"

#include <QList>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QListView;
class QFrame;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace shardlab::gui {

class LessonListModel;
class QuestionPanel;

class LessonBrowser : public QWidget {
    Q_OBJECT
public:
    explicit LessonBrowser(QWidget* parent = nullptr);
    ~LessonBrowser() override;

    // the engine's lessonDirectory() (shardlab/base/resources.h).
    static QString defaultLessonDirectory();
    // Loads every *.lesson.json in `dir`; on failure keeps the current lessons and returns false
    // (errorString() says why).
    bool loadLessons(const QString& dir);
    QString errorString() const { return m_error; }

    // The language of the lessons' text (the browser's own labels follow the application's
    // translation). Defaults to the interface language (QLocale's default locale).
    void setLanguage(Language language);
    Language language() const { return m_language; }

    bool selectLesson(const QString& id);
    QString currentLessonId() const;
    const ResolvedLesson* currentLesson() const { return m_resolved.get(); }

    int currentStep() const { return m_step; }
    // The current step as one line for a caption ("Lesson title, step 2 of 5: text"); empty
    // without a lesson. stepShown() says when it changed (another lesson, step or language).
    QString stepCaption() const;
    void setCurrentStep(int step);
    int currentQuestion() const;
    void setCurrentQuestion(int question);

    // The step that opening `scenarioPath` leads to: the current step when it is about that
    // scenario, else the first step that is; -1 when none is.
    int stepFor(const QString& scenarioPath) const;
    // The view step `step` of the current lesson points at ("" when none).
    QString stepView(int step) const;
    // The transformer plan step `step` is about (the lesson's "plan" or "compare_plan"); nullopt
    // for a lesson without one.
    std::optional<PlanRequest> stepPlan(int step) const;

    // The welcome for a first start: what the lessons are and where to begin.
    void setWelcomeVisible(bool visible);
    bool isWelcomeVisible() const;

    // The lesson scenario the window's document was opened from ("" when the document is another
    // one): "Show me" opens a step's scenario only when it is not this one, so edits are kept.
    void setOpenScenario(const QString& path) { m_documentScenario = path; }
    QString openScenario() const { return m_documentScenario; }

    LessonListModel* model() const { return m_model; }
    QScrollArea* scrollArea() const { return m_scroll; }
    QPushButton* showStepButton() const { return m_showStep; }
    QuestionPanel* questionPanel() const { return m_question; }

Q_SIGNALS:
    // The main window opens this scenario file (the lesson's, or its comparison scenario).
    void openScenarioRequested(const QString& path);
    void stepShown();
    // the lesson's scenario and its comparison, to be shown side by side
    void sideBySideRequested(const QString& scenarioPath, const QString& comparePath);
    // A step asks the learner to look at `view` ("timeline", "memory", ... docs/lessons.md) of
    // the scenario at `scenarioPath`.
    void stepActivated(const QString& view, const QString& scenarioPath);
    void answerChecked(const QString& lessonId, int question, bool correct);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override; // a new palette (presenter mode's themes): the steps' colours follow

private:
    void showLesson(int row);
    void refreshTexts();
    void refreshSteps();
    QString stepScenarioPath(int step) const;

    LessonListModel* m_model = nullptr;
    QListView* m_list = nullptr;
    QScrollArea* m_scroll = nullptr;
    QFrame* m_welcome = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_course = nullptr;
    QLabel* m_summary = nullptr;
    QComboBox* m_languageBox = nullptr;
    QPushButton* m_openScenario = nullptr;
    QPushButton* m_openCompare = nullptr;
    QPushButton* m_sideBySide = nullptr;
    QWidget* m_steps = nullptr;
    QVBoxLayout* m_stepLayout = nullptr;
    QList<QLabel*> m_stepLabels;
    QLabel* m_stepCounter = nullptr;
    QPushButton* m_prevStep = nullptr;
    QPushButton* m_nextStep = nullptr;
    QPushButton* m_showStep = nullptr;
    QLabel* m_questionCounter = nullptr;
    QPushButton* m_prevQuestion = nullptr;
    QPushButton* m_nextQuestion = nullptr;
    QuestionPanel* m_question = nullptr;

    std::unique_ptr<ResolvedLesson> m_resolved;
    QString m_resolveError;
    int m_row = -1;
    int m_step = 0;
    Language m_language = Language::English;
    QString m_error;
    QString m_documentScenario;
};

} // namespace shardlab::gui
