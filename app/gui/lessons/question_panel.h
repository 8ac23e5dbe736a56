// One question of a lesson: its prompt, an input that fits its type (choices, a number with its
// unit, or a collective), Check and Show answer, and the engine's verdict with the explanation.
#pragma once

#include "shardlab/lessons/lesson_check.h"

#include <QWidget>

#include <optional>

class QAbstractButton;
class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QVBoxLayout;

namespace shardlab::gui {

class QuestionPanel : public QWidget {
    Q_OBJECT
public:
    explicit QuestionPanel(QWidget* parent = nullptr);

    // Shows question `index` of `lesson` (nullptr clears the panel). The lesson must outlive the panel's use of it.
    void setQuestion(const ResolvedLesson* lesson, int index, Language language);
    void setLanguage(Language language);
    int questionIndex() const { return m_index; }

    // The answer as checkAnswer() reads it: "a, c", "1.6", "all_gather_v". Empty when none is given.
    QString answerText() const;
    // Fills the input from an answer in that form (Show answer uses it; so do tests).
    void setAnswerText(const QString& answer);
    // Checks the current answer and shows the verdict and explanation. Returns whether it was right;
    // an answer that cannot be read shows why and returns false.
    bool check();
    QString resultText() const; // what the result area shows, as plain text
    QLabel* resultLabel() const { return m_result; }

Q_SIGNALS:
    void answerChecked(int question, bool correct);
    // Check showed a verdict or why the answer cannot be read: the browser scrolls it into view.
    void feedbackShown();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void showResult();
    const LessonQuestion* question() const;

    const ResolvedLesson* m_lesson = nullptr;
    int m_index = -1;
    Language m_language = Language::English;
    std::optional<AnswerCheck> m_last;
    QString m_lastError;

    QLabel* m_prompt = nullptr;
    QPushButton* m_hintButton = nullptr;
    QLabel* m_hint = nullptr;
    QWidget* m_choices = nullptr;
    QVBoxLayout* m_choiceLayout = nullptr;
    QButtonGroup* m_choiceGroup = nullptr;
    QWidget* m_numberRow = nullptr;
    QLineEdit* m_number = nullptr;
    QLabel* m_unit = nullptr;
    QComboBox* m_collective = nullptr;
    QPushButton* m_check = nullptr;
    QPushButton* m_showAnswer = nullptr;
    QLabel* m_result = nullptr;
};

} // namespace shardlab::gui
