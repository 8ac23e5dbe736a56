// Issue 29: after a failed remote run or profile the run page shows no earlier run as if it were
// the current one (the timeline, playback and summary are cleared and say that the run failed;
// no "Profiling your program…" is left), and the status bar's message stays clear of the
// permanent summary on its right (one line, shortened, the whole text in its tooltip).
#include "gui_test_main.h"
#include "gui_test_helpers.h"
#include "screenshot.h"
#include "remote/remotetarget.h"
#include "run/runpage.h"
#include "run/summarypanel.h"
#include "shell/mainwindow.h"
#include "timeline/timelineview.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

// A "remote" run on this machine whose command complains at length and fails (after reading the
// scenario, for a run; a profile is given none).
RemoteTarget failingTarget(bool readsScenario)
{
    RemoteTarget here;
    here.host = QStringLiteral("this machine");
    here.onThisMachine = true;
    here.command =
        QStringLiteral("echo 'starting' >&2; echo 'error: the program ./allreduce does not exist on this "
                       "machine, and neither does anything else that this very long message goes on to name' >&2; "
                       "exit 3");
    if (readsScenario)
        here.command.prepend(QStringLiteral("cat > /dev/null; "));
    return here;
}

// The permanent widget on the status bar's right (the placement summary).
QLabel* permanentSummary(MainWindow& w)
{
    for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
        if (l->isVisible() && l->text().contains(QStringLiteral("GPU")))
            return l;
    return nullptr;
}

} // namespace

class TestFailedRun : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-failedrun"));
    }

    void aFailedRemoteRunOrProfileClearsThePage_data()
    {
        QTest::addColumn<bool>("profile");
        QTest::newRow("remote run") << false;
        QTest::newRow("profile") << true;
    }

    void aFailedRemoteRunOrProfileClearsThePage()
    {
        QFETCH(bool, profile);
        MainWindow w;
        w.resize(1024, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RunPage* page = w.runPage();
        w.pages()->setCurrentWidget(page);
        QSignalSpy done(page, &RunPage::outcomeAvailable);
        page->run();
        QVERIFY(done.wait(20000));
        QVERIFY(page->timeline()->sharedData());

        QSignalSpy failed(page, &RunPage::runFailed);
        if (profile)
            page->runProfile(failingTarget(false), QStringLiteral("./allreduce"), QString());
        else
            page->runRemote(failingTarget(true));
        QVERIFY(failed.wait(30000));
        QCoreApplication::processEvents();
        test::saveScreen(&w, QStringLiteral("failedrun-") + QLatin1String(profile ? "profile" : "remote"));

        // nothing of the earlier run is shown as the current one
        QVERIFY(!page->lastOutcome());
        QVERIFY(!page->timeline()->sharedData());
        const QString sentence = page->summary()->sentence();
        QVERIFY2(!sentence.contains(QStringLiteral("Profiling")), qPrintable(sentence));
        QVERIFY2(sentence.contains(QStringLiteral("failed")), qPrintable(sentence));
        QVERIFY2(page->message().contains(QStringLiteral("does not exist")), qPrintable(page->message()));

        // the status bar's message: one line, ending before the permanent summary
        const QString message = w.statusBar()->currentMessage();
        QVERIFY(!message.isEmpty());
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
        QLabel* summary = permanentSummary(w);
        QVERIFY(summary);
        const int end = w.statusBar()->fontMetrics().horizontalAdvance(message) + 6;
        QVERIFY2(end <= summary->x(), qPrintable(QStringLiteral("message ends at %1, the summary begins at %2: %3")
                                                     .arg(end)
                                                     .arg(summary->x())
                                                     .arg(message)));
        QVERIFY2(w.statusBar()->toolTip().contains(QStringLiteral("goes on to name")),
                 qPrintable(w.statusBar()->toolTip()));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_failedrun, TestFailedRun)
#include "test_failedrun.moc"
