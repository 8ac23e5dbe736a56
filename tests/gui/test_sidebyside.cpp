// Issue 29, two runs side by side: lesson 2's pair (replicated against ZeRO-3) from the Lessons
// dock, both timelines on one time axis under their names and step times, the difference named
// as the engine words it; Run > Compare side by side… with a file, and with a broken one.
#include "gui_test_main.h"
#include "gui_test_helpers.h"
#include "i18n/language.h"
#include "lessons/lesson_browser.h"
#include "shell/mainwindow.h"
#include "shell/sidebyside.h"
#include "timeline/timelineview.h"

#include "shardlab/analysis/run_difference.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/sim/simulator.h"

#include <QAction>
#include <QPushButton>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

Summary summaryOf(const Scenario& s)
{
    auto run = simulate(s);
    return run.ok() ? summarize(s, *run) : Summary{};
}

} // namespace

class TestSideBySide : public QObject {
    Q_OBJECT
private slots:
    void lessonTwosPairOnOneAxisWithTheDifferenceNamed()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        w.show();
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("capacity-is-ownership")));
        QPushButton* button = nullptr;
        for (QPushButton* b : w.lessons()->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Side by side"))
                button = b;
        QStringList texts;
        for (QPushButton* b : w.lessons()->findChildren<QPushButton*>())
            texts << b->text();
        QVERIFY2(button, qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(!button->isHidden());
        button->click();
        SideBySideView* v = w.sideBySide();
        QVERIFY(v);
        QSignalSpy shown(v, &SideBySideView::shown);
        QVERIFY(shown.wait(20000));
        QVERIFY(v->isVisible());

        // the engine's difference of the two runs, worded as the engine words it
        const Scenario a = test::loadExample("capacity-replicate-24gb.shardlab.json");
        const Scenario b = test::loadExample("capacity-zero3-24gb.shardlab.json");
        const Summary sa = summaryOf(a), sb = summaryOf(b);
        const RunDifference expected = runDifference(a, sa, b, sb, a.name, b.name);
        QCOMPARE(v->differenceText(), i18n::engineText(expected.message));
        QVERIFY(v->differenceText().contains(QStringLiteral("+2 All-Gather")));
        QCOMPARE(v->difference().collectives, expected.collectives);
        // each timeline under its name and step time
        QVERIFY(v->headerA().startsWith(QString::fromStdString(a.name)));
        QVERIFY2(v->headerA().contains(QString::number(sa.stepTimeMs, 'f', 2) + QStringLiteral(" ms")),
                 qPrintable(v->headerA()));
        QVERIFY(v->headerB().startsWith(QString::fromStdString(b.name)));
        QVERIFY(v->timelineA()->data() && v->timelineB()->data());
        QCOMPARE(v->timelineA()->data()->layout().ranks, 4);
        // one time axis: the longer run whole in both, and a zoom in one moves the other
        QCOMPARE(v->timelineA()->timeScale().beginUs, v->timelineB()->timeScale().beginUs);
        QCOMPARE(v->timelineA()->timeScale().endUs, v->timelineB()->timeScale().endUs);
        QVERIFY(v->timelineA()->timeScale().endUs >= sb.stepTimeMs * 1000 * b.iterations * 0.99);
        v->timelineA()->setTimeRange(100'000, 300'000);
        QVERIFY(qAbs(v->timelineA()->timeScale().beginUs - 100'000) < 1);
        QCOMPARE(v->timelineB()->timeScale().beginUs, v->timelineA()->timeScale().beginUs);
        QCOMPARE(v->timelineB()->timeScale().endUs, v->timelineA()->timeScale().endUs);
        v->timelineB()->setTimeRange(0, 50'000);
        QVERIFY(qAbs(v->timelineB()->timeScale().endUs - 50'000) < 1);
        QCOMPARE(v->timelineA()->timeScale().endUs, v->timelineB()->timeScale().endUs);
    }

    void aFileBesideTheOpenScenarioAndABrokenOne()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        w.show();
        w.openFile(QStringLiteral(SHARDLAB_SCENARIO_DIR "/balance-14-10.shardlab.json"));
        QAction* compare = w.action(QStringLiteral("run.sideBySide"));
        QVERIFY(compare);
        QCOMPARE(compare->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
        prompter.openPath = QStringLiteral(SHARDLAB_SCENARIO_DIR "/balance-12-12.shardlab.json");
        compare->trigger();
        QVERIFY(w.sideBySide());
        QSignalSpy shown(w.sideBySide(), &SideBySideView::shown);
        QVERIFY(shown.wait(20000));
        QVERIFY(w.sideBySide()->differenceText().contains(QStringLiteral("the same collectives per iteration")));
        // 12/12 is faster than 14/10: the step's change is negative
        QVERIFY2(w.sideBySide()->differenceText().contains(QStringLiteral("(-")),
                 qPrintable(w.sideBySide()->differenceText()));
        // a file that cannot be read: said, and the window keeps what it showed
        const QString before = w.sideBySide()->differenceText();
        w.compareWithFile(QStringLiteral("/nonexistent/x.shardlab.json"));
        QCOMPARE(prompter.errors.size(), 1);
        QVERIFY(prompter.errors.first().contains(QStringLiteral("/nonexistent/x.shardlab.json")));
        QCOMPARE(w.sideBySide()->differenceText(), before);
        // Cancel in the file dialog: nothing happens
        prompter.openPath.clear();
        compare->trigger();
        QCOMPARE(prompter.errors.size(), 1);
    }
};

SHARDLAB_GUI_TEST_MAIN(test_sidebyside, TestSideBySide)
#include "test_sidebyside.moc"
