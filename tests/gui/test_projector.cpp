// Issue 29, the projector view (View > Projector view, Shift+F11): the run's diagram and timeline
// together on the whole screen with the lesson's step as a large caption; the playback drives it;
// Esc closes it and leaves the main window as it was.
#include "gui_test_main.h"
#include "gui_test_helpers.h"
#include "offscreen_screen.h"
#include "lessons/lesson_browser.h"
#include "run/playbackcontroller.h"
#include "run/runpage.h"
#include "shell/mainwindow.h"
#include "shell/presentermode.h"
#include "shell/projectorview.h"
#include "timeline/timelineview.h"
#include "topology/gpucarditem.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"

#include "timeline/qcustomplot_include.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QScreen>

using namespace shardlab;
using namespace shardlab::gui;

// The window shown with the straggler example run, the Lessons dock closed.
void showStragglerRun(MainWindow& w, test::ScriptedPrompter& prompter, QSignalSpy& finished)
{
    w.setPrompter(&prompter);
    w.resize(1200, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFile(QStringLiteral(SHARDLAB_SCENARIO_DIR "/straggler-12-6-4-2.shardlab.json"));
    w.runPage()->run();
    QVERIFY(finished.wait(20000));
    w.lessonsDock()->hide();
}

class TestProjector : public QObject {
    Q_OBJECT
private slots:
    void showsTheRunLargeWithTheLessonStep()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        QSignalSpy finished(w.runPage(), &RunPage::runFinished);
        showStragglerRun(w, prompter, finished);
        if (QTest::currentTestFailed())
            return;

        QAction* toggle = w.action(QStringLiteral("view.projector"));
        QVERIFY(toggle);
        QCOMPARE(toggle->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F11));
        toggle->trigger();
        ProjectorView* p = w.projector();
        QVERIFY(p);
        QVERIFY(QTest::qWaitForWindowExposed(p));
        QVERIFY(toggle->isChecked());
        // the whole screen
        QCOMPARE(p->geometry(), w.screen()->geometry());
        // the run page's run: the same lanes and straggler, the editor's scene
        QCOMPARE(p->timeline()->data(), w.runPage()->timeline()->data());
        QCOMPARE(p->timeline()->straggler(), std::optional<int>(0));
        QCOMPARE(p->diagram()->scene(), static_cast<QGraphicsScene*>(w.topologyScene()));
        // without a lesson, the caption is the scenario and what its run says
        QVERIFY2(p->caption().contains(QString::fromStdString(w.scenario().name)), qPrintable(p->caption()));
        QVERIFY2(p->caption().contains(QStringLiteral("Rank 0 holds 12 GB")), qPrintable(p->caption()));
        // readable from the back: the axes' text and the diagram larger than on the run page
        const double runTicks = w.runPage()->timeline()->plot()->xAxis->tickLabelFont().pointSizeF();
        QVERIFY(p->timeline()->plot()->xAxis->tickLabelFont().pointSizeF()
                >= runTicks * ProjectorView::kFontScale * 0.99);
        // a GPU card on screen: wider than on the run page (where the diagram shares the page)
        w.pages()->setCurrentWidget(w.runPage());
        QCoreApplication::processEvents();
        const auto cardWidth = [&w](QGraphicsView* view) {
            return view->mapFromScene(w.topologyScene()->card(0)->sceneBoundingRect()).boundingRect().width();
        };
        QVERIFY2(
            cardWidth(p->diagram()) > 1.3 * cardWidth(w.runDiagram()),
            qPrintable(
                QStringLiteral("%1 px against %2 px").arg(cardWidth(p->diagram())).arg(cardWidth(w.runDiagram()))));
        // the playback moves its cursor, and its keys work in it
        PlaybackController* playback = w.runPage()->playback();
        playback->setTime(50'000);
        QCOMPARE(p->timeline()->cursorTime(), 50'000.0);
        QTest::keyClick(p, Qt::Key_End);
        QCOMPARE(playback->time(), playback->endTime());
        QCOMPARE(p->timeline()->cursorTime(), playback->endTime());
        // with the Lessons open, the lesson's step is the caption, and follows the step
        w.lessonsDock()->show();
        QCoreApplication::processEvents();
        const QRect withDock = w.geometry(); // (the dock may widen the window)
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("straggler-12-6-4-2")));
        w.lessons()->setCurrentStep(1);
        QVERIFY2(p->caption().contains(QStringLiteral("step 2 of")), qPrintable(p->caption()));
        QCOMPARE(p->caption(), w.lessons()->stepCaption());
        w.lessons()->setCurrentStep(2);
        QVERIFY2(p->caption().contains(QStringLiteral("step 3 of")), qPrintable(p->caption()));
        // a new run shows at once
        w.runPage()->run();
        QVERIFY(finished.wait(20000));
        QCOMPARE(p->timeline()->data(), w.runPage()->timeline()->data());
        // Esc closes it; the window is as it was
        QTest::keyClick(p, Qt::Key_Escape);
        QTRY_VERIFY(w.projector() == nullptr);
        QVERIFY(!toggle->isChecked());
        QCOMPARE(w.geometry(), withDock);
        // and the key opens it again, and closes it
        toggle->trigger();
        QVERIFY(w.projector());
        toggle->trigger();
        QTRY_VERIFY(w.projector() == nullptr);
        // Shift+F11 inside it closes it too
        toggle->trigger();
        QVERIFY(w.projector());
        QTest::keyClick(w.projector(), Qt::Key_F11, Qt::ShiftModifier);
        QTRY_VERIFY(w.projector() == nullptr);
        QVERIFY(!toggle->isChecked());
    }

    // Opened in presenter mode (dark): its fonts are the plain font times its own scale, not
    // times presenter mode's as well; the diagram keeps two fifths of the screen and is black;
    // leaving presenter mode leaves the projector's fonts alone.
    void inPresenterModeItKeepsItsOwnScaleAndTheDarkTheme()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        QSignalSpy finished(w.runPage(), &RunPage::runFinished);
        showStragglerRun(w, prompter, finished);
        if (QTest::currentTestFailed())
            return;
        const double plain = QApplication::font().pointSizeF();
        w.presenter()->setTheme(PresenterMode::Theme::Dark);
        w.presenter()->setActive(true);
        QCoreApplication::processEvents();
        w.action(QStringLiteral("view.projector"))->trigger();
        ProjectorView* p = w.projector();
        QVERIFY(p);
        QVERIFY(QTest::qWaitForWindowExposed(p));
        QCoreApplication::processEvents();
        QTRY_VERIFY(p->diagram()->width() > 0);
        QVERIFY2(qAbs(p->font().pointSizeF() - plain * ProjectorView::kFontScale) < 0.05,
                 qPrintable(QStringLiteral("%1 pt, plain %2 pt").arg(p->font().pointSizeF()).arg(plain)));
        QTRY_VERIFY2(p->diagram()->width() >= p->width() * 0.35,
                     qPrintable(QStringLiteral("diagram %1 px of %2").arg(p->diagram()->width()).arg(p->width())));
        QCOMPARE(p->diagram()->backgroundBrush().color().lightness() < 40, true);
        QVERIFY(p->timeline()->plot()->xAxis->tickLabelColor().lightness() > 200); // white ink
        const double projectorTicks = p->timeline()->plot()->xAxis->tickLabelFont().pointSizeF();
        w.presenter()->setActive(false);
        QCoreApplication::processEvents();
        QCOMPARE(p->timeline()->plot()->xAxis->tickLabelFont().pointSizeF(), projectorTicks);
        QVERIFY(qAbs(p->font().pointSizeF() - plain * ProjectorView::kFontScale) < 0.05);
        QTest::keyClick(p, Qt::Key_Escape);
        QTRY_VERIFY(w.projector() == nullptr);
    }
};

// on a laptop's screen, as a lecturer's would be
int shardlabGuiTest_test_projector(int argc, char** argv)
{
    shardlab::gui::test::useOffscreenScreen(QSize(1366, 768));
    QApplication app(argc, argv);
    TestProjector test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_projector.moc"
