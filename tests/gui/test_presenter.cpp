// Presenter mode (issue 7, item 6): full screen, larger fonts in widgets and plots, a
// high-contrast theme (remembered), the playback on the keyboard anywhere in the window, and
// leaving puts the window back as it was.
#include "gui_test_main.h"
#include "analysis/analysispage.h"
#include "document/document.h"
#include "editor/editorpage.h"
#include "gui_test_helpers.h"
#include "shell/mainwindow.h"
#include "run/playbackcontroller.h"
#include "timeline/qcustomplot_include.h"
#include "run/runpage.h"
#include "timeline/timelineview.h"
#include "topology/topologyview.h"
#include "shell/presentermode.h"

#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace shardlab;
using namespace shardlab::gui;

class TstPresenter : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-presenter"));
        QSettings().remove(QStringLiteral("presenter/theme"));
    }

    void presentingEnlargesAndLeavingRestores()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QSize size = w.size();
        const QByteArray layout = w.saveState();
        const QFont appFont = QApplication::font();
        const QPalette appPalette = QApplication::palette();
        QCustomPlot* timeline = w.runPage()->timeline()->plot();
        const QFont tickFont = timeline->xAxis->tickLabelFont();
        const QColor tickColour = timeline->xAxis->tickLabelColor();
        // a widget with a font of its own: the analysis page's tab bar (12 pt)
        QWidget* tabBar = w.analysisPage()->findChild<QTabWidget*>()->tabBar();
        const QFont ownFont = tabBar->font();
        QVERIFY(tabBar->testAttribute(Qt::WA_SetFont));

        w.presenter()->setTheme(PresenterMode::Theme::Dark);
        QSignalSpy changed(w.presenter(), &PresenterMode::activeChanged);
        w.action(QStringLiteral("view.presenter"))->trigger();
        QVERIFY(w.presenter()->isActive());
        QCOMPARE(changed.count(), 1);
        QVERIFY(w.windowState() & Qt::WindowFullScreen);
        QCOMPARE(QApplication::font().pointSizeF(), appFont.pointSizeF() * PresenterMode::kFontScale);
        // larger, as much as its tabs still show whole in the window's width (TabBarFit)
        QVERIFY(tabBar->font().pointSizeF() <= ownFont.pointSizeF() * PresenterMode::kFontScale + 1e-9);
        QVERIFY(tabBar->font().pointSizeF() >= ownFont.pointSizeF() * 0.85 - 1e-9);
        QVERIFY(tabBar->sizeHint().width() <= tabBar->parentWidget()->width()
                || tabBar->font().pointSizeF() < ownFont.pointSizeF());
        QCOMPARE(QApplication::palette().color(QPalette::Window),
                 PresenterMode::palette(PresenterMode::Theme::Dark).color(QPalette::Window));
        QCOMPARE(QApplication::palette().color(QPalette::WindowText), QColor(Qt::white));
        QCOMPARE(timeline->xAxis->tickLabelFont().pointSizeF(), tickFont.pointSizeF() * PresenterMode::kFontScale);
        QCOMPARE(timeline->xAxis->tickLabelColor(), QColor(Qt::white));
        QCOMPARE(w.editorPage()->view()->backgroundBrush().color(), QColor(0x0A, 0x0A, 0x0A));

        // switching the theme while presenting applies it at once
        w.action(QStringLiteral("view.themeLight"))->trigger();
        QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(Qt::white));
        QCOMPARE(timeline->xAxis->tickLabelColor(), tickColour);
        QCOMPARE(timeline->xAxis->tickLabelFont().pointSizeF(), tickFont.pointSizeF() * PresenterMode::kFontScale);
        w.action(QStringLiteral("view.themeDark"))->trigger();

        // Esc leaves; everything is as before
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.presenter()->isActive());
        QVERIFY(!(w.windowState() & Qt::WindowFullScreen));
        QVERIFY(!w.action(QStringLiteral("view.presenter"))->isChecked());
        QCOMPARE(QApplication::font(), appFont);
        QCOMPARE(QApplication::palette().color(QPalette::Window), appPalette.color(QPalette::Window));
        QCOMPARE(tabBar->font().pointSizeF(), ownFont.pointSizeF());
        QCOMPARE(timeline->xAxis->tickLabelFont(), tickFont);
        QCOMPARE(timeline->xAxis->tickLabelColor(), tickColour);
        QTRY_COMPARE(w.size(), size);
        QCOMPARE(w.saveState(), layout); // toolbars and docks where they were
    }

    void theThemeIsRemembered()
    {
        {
            MainWindow w;
            w.presenter()->setTheme(PresenterMode::Theme::Dark);
        }
        QCOMPARE(QSettings().value(QStringLiteral("presenter/theme")).toString(), QStringLiteral("dark"));
        MainWindow again;
        QCOMPARE(again.presenter()->theme(), PresenterMode::Theme::Dark);
        QVERIFY(again.action(QStringLiteral("view.themeDark"))->isChecked());
        again.presenter()->setTheme(PresenterMode::Theme::Light);
        MainWindow third;
        QCOMPARE(third.presenter()->theme(), PresenterMode::Theme::Light);
    }

    void theKeyboardDrivesThePlaybackAnywhere()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        QSignalSpy done(w.runPage(), &RunPage::outcomeAvailable);
        w.runPage()->run();
        QVERIFY(done.wait(10000));
        PlaybackController* p = w.runPage()->playback();

        // outside presenter mode the keys belong to the run page: on the editor, Space is the diagram's
        w.pages()->setCurrentWidget(w.editorPage());
        w.editorPage()->view()->setFocus();
        QTest::keyClick(w.editorPage()->view(), Qt::Key_Right);
        QCOMPARE(p->time(), 0.0);

        w.presenter()->setActive(true);
        QWidget* focus = w.editorPage()->view();
        focus->setFocus();
        QTest::keyClick(focus, Qt::Key_Right);
        QVERIFY(p->time() > 0);
        QTest::keyClick(focus, Qt::Key_End);
        QCOMPARE(p->time(), p->endTime());
        QTest::keyClick(focus, Qt::Key_Home);
        QCOMPARE(p->time(), 0.0);
        const double speed = p->speed();
        QTest::keyClick(focus, Qt::Key_Plus);
        QVERIFY(p->speed() > speed);
        QTest::keyClick(focus, Qt::Key_Minus);
        QCOMPARE(p->speed(), speed);
        QTest::keyClick(focus, Qt::Key_Space);
        QVERIFY(p->isPlaying());
        QTest::keyClick(focus, Qt::Key_Space);
        QVERIFY(!p->isPlaying());

        // F11 leaves too, and the keys go back to the run page
        w.action(QStringLiteral("view.presenter"))->trigger();
        QVERIFY(!w.presenter()->isActive());
        p->setTime(0);
        QTest::keyClick(focus, Qt::Key_Right);
        QCOMPARE(p->time(), 0.0);
    }
};

SHARDLAB_GUI_TEST_MAIN(test_presenter, TstPresenter)
#include "test_presenter.moc"
