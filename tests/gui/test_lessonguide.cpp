// Issue 13, lessons that guide and playback that keeps its keys: every view a lesson step may name
// has a page and a tab; Open and Show me go there; opening a lesson's second scenario does not ask
// to save an untouched document; the examples come in the course's order with their titles; the
// analysis page opens on the new run's diagnosis; the playback keys survive File > Open and Ctrl+R;
// a newly opened scenario clears the playback on the diagram; the dock is readable, opens with a
// welcome on the first start, and a quiz's verdict is in view after Check.
#include "gui_test_main.h"
#include "analysis/analysispage.h"
#include "common/resourcepaths.h"
#include "document/document.h"
#include "document/documentcontroller.h"
#include "editor/editorpage.h"
#include "gui_test_helpers.h"
#include "i18n/language.h"
#include "lessons/lesson_browser.h"
#include "program/opeditor.h"
#include "lessons/question_panel.h"
#include "plan/plandialog.h"
#include "run/playbackcontroller.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/lessons/lesson_check.h"
#include "shardlab/lessons/lessons.h"
#include "shell/mainwindow.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

#include <algorithm>
#include <map>

using namespace shardlab;
using namespace shardlab::gui;

namespace {
QString lessonDirForTest() { return QStringLiteral(SHARDLAB_SCENARIO_DIR "/../lessons"); }

QString scenarioPathForTest(const char* file)
{
    return QStringLiteral(SHARDLAB_SCENARIO_DIR "/") + QString::fromLatin1(file);
}

QPushButton* buttonNamed(QWidget* root, const QString& text)
{
    for (QPushButton* b : root->findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

QTabWidget* analysisTabs(MainWindow& w) { return w.analysisPage()->findChild<QTabWidget*>(); }

// Whether the first 20 pixels of `widget` (a line of text) lie inside the visible part of `scroll`.
bool inView(QScrollArea* scroll, QWidget* widget)
{
    const QRect r(widget->mapTo(scroll->viewport(), QPoint(0, 0)), QSize(std::max(1, widget->width()), 20));
    return widget->isVisible() && scroll->viewport()->rect().contains(r);
}
} // namespace

class TestLessonGuide : public QObject {
    Q_OBJECT
private slots:
    // Issue 29: "Next question" kept the dock where the reader was; it jumped to the top of the
    // lesson, far above the question.
    void nextQuestionKeepsTheQuestionInView()
    {
        LessonBrowser browser;
        QVERIFY(browser.loadLessons(lessonDirForTest()));
        browser.resize(380, 420);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        QVERIFY(browser.selectLesson(QStringLiteral("straggler-12-6-4-2")));
        QScrollArea* scroll = browser.scrollArea();
        QPushButton* next = buttonNamed(&browser, QStringLiteral("Next question"));
        QVERIFY(next && next->isEnabled());
        scroll->ensureWidgetVisible(next, 10, 10);
        QCoreApplication::processEvents();
        QVERIFY(scroll->verticalScrollBar()->value() > 0); // the question is below the first screen
        next->click();
        QCoreApplication::processEvents();
        QTest::qWait(50);
        QCOMPARE(browser.currentQuestion(), 1);
        QVERIFY2(scroll->verticalScrollBar()->value() > 0, "the dock jumped to the top");
        const int y = next->mapTo(scroll->viewport(), QPoint(0, next->height() / 2)).y();
        QVERIFY2(y >= 0 && y <= scroll->viewport()->height(),
                 qPrintable(QStringLiteral("Next question at y %1 of %2").arg(y).arg(scroll->viewport()->height())));
    }

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-lessonguide"));
        QSettings().clear();
    }

    // Fails when a lesson may name a view (the engine's list) that the window cannot show.
    void everyLessonViewHasAPageAndATab()
    {
        enum EditorTab { Workload, Program, Machine, Capacity };
        struct Where {
            int page; // 0 editor, 1 run, 2 analysis
            int tab;  // of the editor's side tabs, the run page's side tabs or the analysis page
        };
        const std::map<std::string, Where> expected = {
            {"workload", {0, Workload}},
            {"program", {0, Program}},
            {"topology", {0, Machine}},
            {"memory", {0, Capacity}},
            {"timeline", {1, 0}},
            {"summary", {1, 0}},
            {"collectives", {1, 0}},
            {"report", {1, 0}},
            {"comparison", {2, AnalysisPage::ComparisonTab}},
            {"scaling", {2, AnalysisPage::ScalingTab}},
            {"plan", {-1, -1}}, // the plan dialog beside the window; the page stays
        };
        MainWindow w;
        w.show();
        for (const std::string& view : lessonViews()) {
            const QString v = QString::fromStdString(view);
            QVERIFY2(expected.count(view), qPrintable(QStringLiteral("no expectation for the view ") + v));
            w.pages()->setCurrentIndex(0);
            w.editorPage()->sideTabs()->setCurrentIndex(view == "workload" ? Program : Workload);
            w.runPage()->sideTabs()->setCurrentIndex(w.runPage()->sideTabs()->count() - 1);
            analysisTabs(w)->setCurrentIndex(AnalysisPage::DiagnosisTab);
            QVERIFY2(w.showView(v), qPrintable(v));
            const Where where = expected.at(view);
            if (where.page < 0) {
                QVERIFY(w.planDialog() && w.planDialog()->isVisible());
                QCOMPARE(w.pages()->currentIndex(), 0);
                w.planDialog()->hide();
                continue;
            }
            QCOMPARE(w.pages()->currentIndex(), where.page);
            QTabWidget* tabs = where.page == 0   ? w.editorPage()->sideTabs()
                               : where.page == 1 ? w.runPage()->sideTabs()
                                                 : analysisTabs(w);
            QVERIFY2(tabs->currentIndex() == where.tab, qPrintable(v));
        }
        QVERIFY(!w.showView(QStringLiteral("no-such-view")));

        // and every shipped lesson names only those views (the loader refuses others)
        auto lessons = loadLessons(lessonDirForTest().toStdString());
        QVERIFY2(lessons.ok(), lessons ? "" : lessons.error().message.c_str());
        for (const Lesson& l : *lessons)
            for (const LessonStep& s : l.steps)
                QVERIFY(s.view.empty() || expected.count(s.view));
    }

    // Lesson 1: opening the scenario goes to step 1's memory view; step 2 (apply a strategy) to
    // the workload tab that holds the strategy box, not to the step program.
    void openAndShowMeGoWhereTheStepSays()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        w.show();
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("placement-strategies")));
        buttonNamed(w.lessons(), QStringLiteral("Open the lesson's scenario"))->click();
        QCOMPARE(QString::fromStdString(w.scenario().name), QStringLiteral("24 GB replicated on four 16 GB cards"));
        QCOMPARE(w.pages()->currentWidget(), w.editorPage());
        QCOMPARE(w.editorPage()->sideTabs()->currentIndex(), 3); // Capacity per GPU
        w.lessons()->setCurrentStep(1);
        w.lessons()->showStepButton()->click();
        QCOMPARE(w.editorPage()->sideTabs()->currentIndex(), 0); // Workload & shards, with the strategy box
        // the comparison scenario goes to the step about it (step 4, the timeline)
        buttonNamed(w.lessons(), QStringLiteral("Open the comparison scenario"))->click();
        QCOMPARE(w.lessons()->currentStep(), 3);
        QCOMPARE(w.pages()->currentWidget(), w.runPage());
    }

    // Issue 27: a plan lesson's "plan" steps open the planner beside the window on the step's plan
    // (the compare plan for a step about the compare scenario), with the lesson's figures; its
    // "Open as scenario" opens the same scenario the lesson ships.
    void aPlanStepShowsItsPlanInThePlanner()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        w.show();
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("zero-stages-memory")));
        const ResolvedLesson* l = w.lessons()->currentLesson();
        QVERIFY(l && l->main.plan && l->compare && l->compare->plan);
        w.lessons()->setCurrentStep(0);
        w.lessons()->showStepButton()->click();
        PlanDialog* planner = w.planDialog();
        QVERIFY(planner && planner->isVisible());
        QVERIFY(planner->estimate());
        QCOMPARE(planner->estimate()->stepUs, l->main.plan->estimate.stepUs);
        QVERIFY(!planner->estimate()->fits);                // plain data parallelism does not fit
        QCOMPARE(w.scenario().name, l->main.scenario.name); // the step's scenario opened too

        w.lessons()->setCurrentStep(2); // about the compare plan: ZeRO-1
        w.lessons()->showStepButton()->click();
        QCOMPARE(w.planDialog(), planner); // the same window, set to the other plan
        QCOMPARE(planner->request().plan.zero, ZeroStage::Optimizer);
        QCOMPARE(planner->estimate()->stages.front().memory.peak(),
                 l->compare->plan->estimate.stages.front().memory.peak());

        planner->accept();
        QCOMPARE(serializeScenario(w.scenario()),
                 serializeScenario(namedIn(l->compare->scenario, i18n::engineLanguage())));
    }

    // Issue 29: lesson 2's steps 3 and 4 are about its comparison scenario (ZeRO-3): Show me opens
    // it (it stayed on the replicated one), and step 4's timeline has what its text describes, the
    // parameters' all-gather before the step and the gradients' reduce-scatter after it. Step 1's
    // Show me goes back to the lesson's own scenario; a scenario already open is not reopened.
    void showMeOpensTheScenarioOfTheStep()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        w.show();
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("capacity-is-ownership")));
        buttonNamed(w.lessons(), QStringLiteral("Open the lesson's scenario"))->click();
        const Scenario replicated = w.scenario();
        const auto zero3 = loadScenario(scenarioPathForTest("capacity-zero3-24gb.shardlab.json").toStdString());
        QVERIFY(zero3.ok());

        w.lessons()->setCurrentStep(2);
        w.lessons()->showStepButton()->click();
        QCOMPARE(w.scenario().name, zero3->name);
        QCOMPARE(w.editorPage()->sideTabs()->currentIndex(), 3); // its memory

        w.lessons()->setCurrentStep(3);
        QSignalSpy done(w.runPage(), &RunPage::outcomeAvailable);
        w.lessons()->showStepButton()->click();
        QCOMPARE(w.pages()->currentWidget(), w.runPage());
        QVERIFY(done.wait(20000));
        const RunOutcomePtr outcome = w.runPage()->lastOutcome();
        QVERIFY(outcome->scenario == namedIn(*zero3, Language::English)); // as it opens in English
        std::vector<OpKind> kinds;
        for (const Op& op : outcome->scenario.program)
            kinds.push_back(op.kind);
        QCOMPARE(kinds, (std::vector<OpKind>{OpKind::AllGather, OpKind::Compute, OpKind::AllGather, OpKind::Compute,
                                             OpKind::ReduceScatter}));
        const Lesson& lesson = w.lessons()->currentLesson()->lesson;
        const std::string text = lesson.steps[3].text.in(Language::English);
        QVERIFY(text.find("all-gathered before the forward pass and again before the backward pass")
                != std::string::npos);
        QVERIFY(text.find("reduce-scattered after") != std::string::npos);

        // an edit of the open scenario is kept: Show me does not reopen it
        QVERIFY(w.document()->apply(QStringLiteral("rename"), [](Scenario& s) { s.name = "mine"; }).ok());
        w.lessons()->setCurrentStep(2);
        w.lessons()->showStepButton()->click();
        QCOMPARE(QString::fromStdString(w.scenario().name), QStringLiteral("mine"));
        QCOMPARE(prompter.saveQuestions, 0);

        // step 1 is about the lesson's own scenario (asking about the edit first)
        prompter.saveChoice = Prompter::SaveChoice::Discard;
        w.lessons()->setCurrentStep(0);
        w.lessons()->showStepButton()->click();
        QCOMPARE(prompter.saveQuestions, 1);
        QVERIFY(w.scenario() == replicated);
    }

    void theSecondScenarioDoesNotAskToSaveAnUntouchedDocument()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        prompter.saveChoice = Prompter::SaveChoice::Cancel;
        w.setPrompter(&prompter);
        w.show();
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("balanced-ownership")));
        buttonNamed(w.lessons(), QStringLiteral("Open the lesson's scenario"))->click();
        QVERIFY(w.lessons()->currentStep() == 0);
        // the steps of the lesson: run it, look around, as a learner does
        for (int step = 0; step < 4; ++step) {
            w.lessons()->setCurrentStep(step);
            w.lessons()->showStepButton()->click();
            QTRY_VERIFY(!w.runPage()->controller()->isRunning());
        }
        QVERIFY2(!w.document()->isModified(), "looking and running changed the document");
        buttonNamed(w.lessons(), QStringLiteral("Open the comparison scenario"))->click();
        QCOMPARE(prompter.saveQuestions, 0);
        QCOMPARE(QString::fromStdString(w.scenario().name), QStringLiteral("Balanced ownership 12/12 GB"));

        // an edit is worth a question
        QVERIFY(w.document()->apply(QStringLiteral("rename"), [](Scenario& s) { s.name = "mine"; }).ok());
        buttonNamed(w.lessons(), QStringLiteral("Open the lesson's scenario"))->click();
        QCOMPARE(prompter.saveQuestions, 1);
        QCOMPARE(QString::fromStdString(w.scenario().name), QStringLiteral("mine"));
    }

    // Leaving a step's fields without typing (the learner clicks through the program a lesson
    // shows) changes nothing, though the fields show rounded values.
    void lookingAtTheProgramDoesNotModifyTheDocument()
    {
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QString());
        QVERIFY(doc.apply(QStringLiteral("odd sizes"),
                          [](Scenario& s) {
                              s.program[0].flops = 1.23456789e12;  // shown as 1.23 TFLOP
                              s.program[2].bytes = 123'456'789ULL; // shown as 123 MB
                          })
                    .ok());
        doc.markSaved(QString());
        QVERIFY(!doc.isModified());
        OpEditor editor(&doc);
        for (int step : {0, 2}) {
            editor.setStep(step);
            emit editor.workEdit()->editingFinished();
            emit editor.sizeEdit()->editingFinished();
        }
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.scenario().program[0].flops, 1.23456789e12);
        // typing still edits
        editor.setStep(2);
        editor.sizeEdit()->setText(QStringLiteral("64 MB"));
        emit editor.sizeEdit()->editingFinished();
        QCOMPARE(doc.scenario().program[2].bytes.value_or(0), 64'000'000ULL);
    }

    void examplesComeInTheCourseOrderWithTheirTitles()
    {
        const QList<ExampleScenario> examples = examplesInCourseOrder(lessonDirForTest());
        QVERIFY(examples.size() >= 16);
        auto lessons = loadLessons(lessonDirForTest().toStdString());
        QVERIFY(lessons.ok());
        // lesson 1's scenario first, its comparison second, lesson 2's compare (lesson 2 reuses
        // lesson 1's main scenario) third
        QCOMPARE(QFileInfo(examples[0].path).fileName(), QStringLiteral("capacity-replicate-24gb.shardlab.json"));
        QCOMPARE(examples[0].title, QStringLiteral("24 GB replicated on four 16 GB cards"));
        QCOMPARE(QFileInfo(examples[1].path).fileName(), QStringLiteral("oversubscription-unified-24gb.shardlab.json"));
        QCOMPARE(QFileInfo(examples[2].path).fileName(), QStringLiteral("capacity-zero3-24gb.shardlab.json"));
        // every lesson's scenario comes before the next lesson's
        int last = -1;
        for (const Lesson& l : *lessons) {
            const QString file = QFileInfo(QString::fromStdString(l.scenarioPath().string())).fileName();
            int at = -1;
            for (int i = 0; i < examples.size(); ++i)
                if (QFileInfo(examples[i].path).fileName() == file)
                    at = i;
            QVERIFY2(at >= 0, qPrintable(file));
            QVERIFY2(at >= last || file == QStringLiteral("capacity-replicate-24gb.shardlab.json"), qPrintable(file));
            last = std::max(last, at);
        }
        for (const ExampleScenario& e : examples) {
            auto s = loadScenario(e.path.toStdString());
            QVERIFY(s.ok());
            QCOMPARE(e.title, QString::fromStdString(s->name)); // the scenario's title, not its file stem
            QVERIFY(!QFileInfo(e.path).fileName().startsWith(e.title));
        }

        // the File menu lists them so
        MainWindow w;
        QMenu* menu = nullptr;
        for (QMenu* m : w.findChildren<QMenu*>())
            if (m->title() == QStringLiteral("Open &example"))
                menu = m;
        QVERIFY(menu);
        const QList<QAction*> actions = menu->actions();
        QCOMPARE(actions.size(), examplesInCourseOrder().size());
        for (int i = 0; i < actions.size(); ++i) {
            QCOMPARE(actions[i]->text(), examples[i].title);
            QCOMPARE(QFileInfo(actions[i]->data().toString()).fileName(), QFileInfo(examples[i].path).fileName());
        }
    }

    void theAnalysisPageOpensOnTheNewRunsDiagnosis()
    {
        MainWindow w;
        w.show();
        w.pages()->setCurrentWidget(w.analysisPage());
        w.analysisPage()->showTab(AnalysisPage::ScalingTab);
        QSignalSpy done(w.runPage(), &RunPage::outcomeAvailable);
        w.action(QStringLiteral("run.run"))->trigger();
        QVERIFY(done.wait(20000));
        w.pages()->setCurrentWidget(w.analysisPage());
        QCOMPARE(analysisTabs(w)->currentIndex(), int(AnalysisPage::DiagnosisTab));
    }

    // After File > Open and Ctrl+R, with the focus on the pages' tab bar, Space and the arrows
    // drive the playback (Right used to switch the tab); a text field keeps its keys.
    void playbackKeysSurviveOpenAndRun()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        prompter.openPath = scenarioPathForTest("straggler-12-6-4-2.shardlab.json");
        w.setPrompter(&prompter);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.action(QStringLiteral("file.open"))->trigger();
        QCOMPARE(QString::fromStdString(w.scenario().name),
                 QString::fromStdString(test::loadExample("straggler-12-6-4-2.shardlab.json").name));
        QSignalSpy done(w.runPage(), &RunPage::outcomeAvailable);
        QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(done.wait(20000));
        QCOMPARE(w.pages()->currentWidget(), w.runPage());
        PlaybackController* p = w.runPage()->playback();
        p->setTime(0);

        w.pages()->tabBar()->setFocus();
        QWidget* focus = QApplication::focusWidget();
        QVERIFY(focus);
        QTest::keyClick(focus, Qt::Key_Right);
        QVERIFY(p->time() > 0);
        QCOMPARE(w.pages()->currentWidget(), w.runPage());
        QTest::keyClick(focus, Qt::Key_End);
        QCOMPARE(p->time(), p->endTime());
        QTest::keyClick(focus, Qt::Key_Home);
        QCOMPARE(p->time(), 0.0);
        QTest::keyClick(focus, Qt::Key_Space);
        QVERIFY(p->isPlaying());
        QTest::keyClick(focus, Qt::Key_Space);
        QVERIFY(!p->isPlaying());

        // after a page switch and back
        w.action(QStringLiteral("view.page2"))->trigger();
        w.action(QStringLiteral("view.page1"))->trigger();
        focus = QApplication::focusWidget() ? QApplication::focusWidget() : &w;
        QTest::keyClick(focus, Qt::Key_Right);
        QVERIFY(p->time() > 0);

        // a text field where the user types keeps Space and the arrows
        auto* field = new QLineEdit(w.runPage());
        field->show();
        field->setFocus();
        p->setTime(0);
        QTest::keyClick(field, Qt::Key_Space);
        QTest::keyClick(field, Qt::Key_Left);
        QCOMPARE(p->time(), 0.0);
        QVERIFY(!p->isPlaying());
        QCOMPARE(field->text(), QStringLiteral(" "));
    }

    void openingAnotherScenarioClearsThePlaybackOnBothDiagrams()
    {
        MainWindow w;
        w.show();
        w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        QSignalSpy done(w.runPage(), &RunPage::outcomeAvailable);
        w.runPage()->run();
        QVERIFY(done.wait(20000));
        PlaybackController* p = w.runPage()->playback();
        p->setTime(p->endTime() / 2);
        QVERIFY(!w.topologyScene()->activity().ranks.empty());
        QVERIFY(w.runDiagram()->scene() == w.topologyScene()); // the run page's diagram is a view of it
        QVERIFY(w.controller()->openExample(scenarioPathForTest("balance-12-12.shardlab.json"), false));
        QVERIFY(w.topologyScene()->activity().ranks.empty());
        QVERIFY(!p->isPlaying());
        // scrubbing the old run draws nothing on the new machine
        p->setTime(p->endTime() / 3);
        QVERIFY(w.topologyScene()->activity().ranks.empty());

        // the same machine (four 16 GB cards on PCIe) loses the overlay as well
        w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        w.runPage()->run();
        QVERIFY(done.wait(20000));
        p->setTime(p->endTime() / 2);
        QVERIFY(!w.topologyScene()->activity().ranks.empty());
        QVERIFY(w.controller()->openExample(scenarioPathForTest("capacity-replicate-24gb.shardlab.json"), false));
        QVERIFY(w.topologyScene()->activity().ranks.empty());
        // a new run animates again
        w.runPage()->run();
        QVERIFY(done.wait(20000));
        p->setTime(p->endTime() / 2);
        QVERIFY(!w.topologyScene()->activity().ranks.empty());
    }

    // First start: the dock opens with the welcome, at 1366x768 its lesson needs no sideways
    // scrolling and Show me is visible; afterwards the dock is as the user left it.
    void theDockOpensOnTheFirstStartAndIsReadable()
    {
        QSettings().remove(QStringLiteral("lessons/dockVisible"));
        {
            MainWindow w;
            w.resize(1366, 720);
            w.restoreLessonsDock();
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.lessonsDock()->isVisible());
            QVERIFY(w.lessons()->isWelcomeVisible());
            QScrollArea* scroll = w.lessons()->scrollArea();
            QVERIFY(w.lessonsDock()->width() >= 300);
            for (const char* id : {"placement-strategies", "choosing-collectives", "hang-mismatch"}) {
                QVERIFY(w.lessons()->selectLesson(QString::fromLatin1(id)));
                QTRY_VERIFY2(scroll->widget()->minimumSizeHint().width() <= scroll->viewport()->width(),
                             qPrintable(QStringLiteral("%1: %2 > %3")
                                            .arg(QString::fromLatin1(id))
                                            .arg(scroll->widget()->minimumSizeHint().width())
                                            .arg(scroll->viewport()->width())));
                QVERIFY(!scroll->horizontalScrollBar()->isVisible());
                QPushButton* show = w.lessons()->showStepButton();
                QVERIFY(show->isVisible());
                QVERIFY(show->mapTo(scroll->widget(), QPoint(show->width(), 0)).x() <= scroll->viewport()->width());
            }
            w.close(); // closing the window does not count as closing the dock
        }
        {
            MainWindow again;
            again.restoreLessonsDock();
            again.show();
            QVERIFY(again.lessonsDock()->isVisible());
            QVERIFY(!again.lessons()->isWelcomeVisible());      // only on the first start
            again.lessonsDock()->toggleViewAction()->trigger(); // the user closes it
            QVERIFY(again.lessonsDock()->isHidden());
            again.close();
        }
        MainWindow third;
        third.restoreLessonsDock();
        QVERIFY(third.lessonsDock()->isHidden());
        third.action(QStringLiteral("help.welcome"))->trigger();
        QVERIFY(!third.lessonsDock()->isHidden());
        QVERIFY(third.lessons()->isWelcomeVisible());
    }

    void theQuizVerdictIsInViewAfterCheck()
    {
        MainWindow w;
        w.resize(1366, 720);
        w.lessonsDock()->show();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("straggler-12-6-4-2")));
        QScrollArea* scroll = w.lessons()->scrollArea();
        scroll->verticalScrollBar()->setValue(0);
        QuestionPanel* q = w.lessons()->questionPanel();
        q->setAnswerText(QStringLiteral("1"));
        // the learner scrolled just far enough to see Check: the verdict's place is out of view
        QPushButton* check = buttonNamed(q, QStringLiteral("Check"));
        scroll->ensureWidgetVisible(check, 0, 0);
        QVERIFY(inView(scroll, check));
        QVERIFY2(!inView(scroll, q->resultLabel()), "the test needs the verdict's place out of view before Check");
        check->click();
        QVERIFY(!q->resultText().isEmpty());
        QTRY_VERIFY2(inView(scroll, q->resultLabel()), "the verdict is out of view");
    }
};

SHARDLAB_GUI_TEST_MAIN(test_lessonguide, TestLessonGuide)
#include "test_lessonguide.moc"
