// The lesson browser: its list model (under QAbstractItemModelTester), lesson selection, the
// question panel's answer checks in both languages, and the signals the main window uses.
#include "lessons/lesson_browser.h"
#include "lessons/lesson_list_model.h"
#include "lessons/question_panel.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace shardlab;
using namespace shardlab::gui;

class TestLessonBrowser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelPassesTheTester();
    void loadsAndSelectsLessons();
    void checksANumericAnswerInBothLanguages();
    void checksChoiceAndCollectiveAnswers();
    void showAnswerFillsTheRightAnswer();
    void asksTheMainWindowToOpenScenariosAndViews();
    void badFolderKeepsTheLessons();
    void screenshots();
};

void TestLessonBrowser::modelPassesTheTester()
{
    LessonListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto lessons = loadLessons(LessonBrowser::defaultLessonDirectory().toStdString());
    QVERIFY(lessons.ok());
    model.setLessons(*lessons);
    QCOMPARE(model.rowCount(), 15);
    QCOMPARE(model.data(model.index(4), LessonListModel::IdRole).toString(), QStringLiteral("speedup-1-6x"));
    QCOMPARE(model.data(model.index(4)).toString(), QStringLiteral("5. Two GPUs, 1.6x, not 2x"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setLanguage(Language::Chinese);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(model.data(model.index(4)).toString(), QStringLiteral("5. 两张 GPU：1.6 倍，不是 2 倍"));
    QVERIFY(QFileInfo::exists(model.data(model.index(4), LessonListModel::ScenarioPathRole).toString()));
    QVERIFY(model.data(model.index(4), LessonListModel::CompareScenarioPathRole).toString().isEmpty());
    QVERIFY(QFileInfo::exists(model.data(model.index(2), LessonListModel::CompareScenarioPathRole).toString()));
    model.setLessons({});
    QCOMPARE(model.rowCount(), 0);
}

void TestLessonBrowser::loadsAndSelectsLessons()
{
    LessonBrowser browser;
    QVERIFY2(browser.loadLessons(LessonBrowser::defaultLessonDirectory()), qPrintable(browser.errorString()));
    QCOMPARE(browser.currentLessonId(), QStringLiteral("placement-strategies"));
    QVERIFY(browser.selectLesson(QStringLiteral("straggler-12-6-4-2")));
    QCOMPARE(browser.currentLessonId(), QStringLiteral("straggler-12-6-4-2"));
    QVERIFY(browser.currentLesson());
    QCOMPARE(browser.currentQuestion(), 0);
    QVERIFY(!browser.selectLesson(QStringLiteral("no-such-lesson")));
    browser.setCurrentStep(2);
    QCOMPARE(browser.currentStep(), 2);
    browser.setCurrentStep(99); // ignored
    QCOMPARE(browser.currentStep(), 2);
}

void TestLessonBrowser::checksANumericAnswerInBothLanguages()
{
    LessonBrowser browser;
    browser.setLanguage(Language::English);
    QVERIFY(browser.loadLessons(LessonBrowser::defaultLessonDirectory()));
    QVERIFY(browser.selectLesson(QStringLiteral("speedup-1-6x")));
    QSignalSpy checked(&browser, &LessonBrowser::answerChecked);
    QuestionPanel* panel = browser.questionPanel();
    panel->setAnswerText(QStringLiteral("2"));
    QVERIFY(!panel->check());
    QVERIFY(panel->resultText().startsWith(QStringLiteral("Not quite.")));
    QVERIFY(panel->resultText().contains(QStringLiteral("ideal"))); // the listed mistake
    panel->setAnswerText(QStringLiteral("1.6x"));
    QVERIFY(panel->check());
    QVERIFY(panel->resultText().startsWith(QStringLiteral("Right.")));
    QCOMPARE(checked.count(), 2);
    QCOMPARE(checked.last().at(0).toString(), QStringLiteral("speedup-1-6x"));
    QCOMPARE(checked.last().at(2).toBool(), true);
    browser.setLanguage(Language::Chinese);
    QVERIFY(panel->resultText().startsWith(QStringLiteral("答对了")));
    QCOMPARE(panel->answerText(), QStringLiteral("1.6x")); // the answer survives the switch
    panel->setAnswerText(QStringLiteral("fast"));
    QVERIFY(!panel->check());
    QVERIFY(panel->resultText().contains(QStringLiteral("not a number")));
    QCOMPARE(checked.count(), 2); // unreadable answers are not checked answers
}

void TestLessonBrowser::checksChoiceAndCollectiveAnswers()
{
    LessonBrowser browser;
    browser.setLanguage(Language::English);
    QVERIFY(browser.loadLessons(LessonBrowser::defaultLessonDirectory()));
    QVERIFY(browser.selectLesson(QStringLiteral("efficiency-8-to-16")));
    browser.setCurrentQuestion(1);
    QuestionPanel* panel = browser.questionPanel();
    QCOMPARE(panel->questionIndex(), 1);
    panel->setAnswerText(QStringLiteral("a,b"));
    QCOMPARE(panel->answerText(), QStringLiteral("a, b"));
    QVERIFY(!panel->check());
    QVERIFY(panel->resultText().contains(QStringLiteral("Also right")));
    panel->setAnswerText(QStringLiteral("a,b,c,d"));
    QVERIFY(panel->check());

    QVERIFY(browser.selectLesson(QStringLiteral("choosing-collectives")));
    browser.setCurrentQuestion(2);
    panel->setAnswerText(QStringLiteral("all_reduce"));
    QVERIFY(!panel->check());
    QVERIFY(panel->resultText().contains(QStringLiteral("cannot even run")));
    panel->setAnswerText(QStringLiteral("all_gather_v"));
    QVERIFY(panel->check());
}

void TestLessonBrowser::showAnswerFillsTheRightAnswer()
{
    LessonBrowser browser;
    QVERIFY(browser.loadLessons(LessonBrowser::defaultLessonDirectory()));
    QVERIFY(browser.selectLesson(QStringLiteral("balanced-ownership")));
    for (int q = 0; q < 3; ++q) {
        browser.setCurrentQuestion(q);
        QPushButton* show = nullptr;
        for (QPushButton* b : browser.questionPanel()->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Show answer"))
                show = b;
        QVERIFY(show);
        show->click();
        QVERIFY2(browser.questionPanel()->check(), qPrintable(browser.questionPanel()->answerText()));
    }
}

void TestLessonBrowser::asksTheMainWindowToOpenScenariosAndViews()
{
    LessonBrowser browser;
    QVERIFY(browser.loadLessons(LessonBrowser::defaultLessonDirectory()));
    QVERIFY(browser.selectLesson(QStringLiteral("balanced-ownership")));
    QSignalSpy open(&browser, &LessonBrowser::openScenarioRequested);
    QSignalSpy step(&browser, &LessonBrowser::stepActivated);
    for (QPushButton* b : browser.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Open the lesson's scenario")
            || b->text() == QStringLiteral("Open the comparison scenario"))
            b->click();
    QCOMPARE(open.count(), 2);
    QVERIFY(open.at(0).at(0).toString().endsWith(QStringLiteral("balance-14-10.shardlab.json")));
    QVERIFY(open.at(1).at(0).toString().endsWith(QStringLiteral("balance-12-12.shardlab.json")));
    QVERIFY(QFileInfo::exists(open.at(0).at(0).toString()));
    browser.setCurrentStep(2); // "Open 12/12": a step on the comparison scenario
    for (QPushButton* b : browser.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Show me"))
            b->click();
    QCOMPARE(step.count(), 1);
    QCOMPARE(step.at(0).at(0).toString(), QStringLiteral("timeline"));
    QVERIFY(step.at(0).at(1).toString().endsWith(QStringLiteral("balance-12-12.shardlab.json")));
}

void TestLessonBrowser::badFolderKeepsTheLessons()
{
    LessonBrowser browser;
    QVERIFY(browser.loadLessons(LessonBrowser::defaultLessonDirectory()));
    QVERIFY(!browser.loadLessons(QStringLiteral("/nonexistent")));
    QVERIFY(browser.errorString().contains(QStringLiteral("/nonexistent")));
    QCOMPARE(browser.model()->rowCount(), 15);
}

// For reviews: SHARDLAB_SCREENSHOT_DIR=folder saves the browser in English and in Chinese.
void TestLessonBrowser::screenshots()
{
    const QString dir = qEnvironmentVariable("SHARDLAB_SCREENSHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set SHARDLAB_SCREENSHOT_DIR to save screenshots");
    LessonBrowser browser;
    browser.resize(1280, 860);
    QVERIFY(browser.loadLessons(LessonBrowser::defaultLessonDirectory()));
    QVERIFY(browser.selectLesson(QStringLiteral("straggler-12-6-4-2")));
    browser.setCurrentStep(1);
    browser.setCurrentQuestion(2);
    browser.questionPanel()->setAnswerText(QStringLiteral("a"));
    browser.questionPanel()->check();
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    for (Language l : {Language::English, Language::Chinese}) {
        browser.setLanguage(l);
        QTest::qWait(50);
        QVERIFY(browser.grab().save(dir + QStringLiteral("/lessons-") + QString::fromLatin1(languageCode(l))
                                    + QStringLiteral(".png")));
    }
}

QTEST_MAIN(TestLessonBrowser)
#include "test_lesson_browser.moc"
