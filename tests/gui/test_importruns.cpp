// File > Open on what other tools recorded (issue 28, section 3): a folder of PyTorch profiler
// traces, several traces at once, NCCL Inspector logs and NCCL profiler plugin traces, a Flight
// Recorder hang and an nccl-tests sweep, read off the GUI thread with progress and Cancel; each
// job opens as its own (untitled) document with the ranks it ran on, its run on the run page,
// diagnosed on the Analysis page; a bad selection names the file and changes nothing. The files are the real samples of
// tests/import/data.
#include "gui_test_main.h"
#include "document/document.h"
#include "gui_test_helpers.h"
#include "run/runpage.h"
#include "shell/mainwindow.h"
#include "shell/runfileopener.h"

#include "shardlab/analysis/summary.h"

#include <QAction>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

const QString kData = QStringLiteral(SHARDLAB_IMPORT_DATA);

// Opens `paths` and waits for the run to be shown (or a failure, a sweep, a cancel).
RunOutcomePtr openRuns(MainWindow& w, const QStringList& paths)
{
    QSignalSpy shown(w.runPage(), &RunPage::outcomeAvailable);
    QSignalSpy failed(w.runFiles(), &RunFileOpener::failed);
    if (!w.openFiles(paths))
        return nullptr;
    for (int i = 0; i < 300 && shown.isEmpty() && failed.isEmpty(); ++i)
        shown.wait(100);
    return shown.isEmpty() ? nullptr : w.runPage()->lastOutcome();
}

} // namespace

class TstImportRuns : public QObject {
    Q_OBJECT
private slots:
    void aFolderOfTracesOpensAsTheJobsRun()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QVERIFY(RunFileOpener::holdsRun(kData + QStringLiteral("/kineto/ddp2")));
        const RunOutcomePtr out = openRuns(w, {kData + QStringLiteral("/kineto/ddp2")});
        QVERIFY2(prompter.errors.isEmpty(), qPrintable(prompter.errors.join(QLatin1Char('\n'))));
        QVERIFY(out);
        QVERIFY(out->run);
        QCOMPARE(out->run->ranks, 2);
        QCOMPARE(out->scenario.ranks(), 2); // the document is the observed job, on as many GPUs as it had ranks
        QCOMPARE(w.scenario(), out->scenario);
        QVERIFY(w.document()->filePath().isEmpty()); // untitled: saving never writes over the traces
        const Summary sum = summarize(out->scenario, *out->run);
        QVERIFY(sum.straggler.has_value());
        QCOMPARE(*sum.straggler, 1);
    }

    void severalFilesAtOnceAreOneJob()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QStringList files;
        for (int r = 0; r < 4; ++r)
            files << kData + QStringLiteral("/kineto/ddp4/kineto_rank%1.json.gz").arg(r);
        const RunOutcomePtr out = openRuns(w, files);
        QVERIFY2(prompter.errors.isEmpty(), qPrintable(prompter.errors.join(QLatin1Char('\n'))));
        QVERIFY(out);
        QCOMPARE(out->run->ranks, 4);
        // and the Inspector logs of another job, through the folder
        const RunOutcomePtr logs = openRuns(w, {kData + QStringLiteral("/inspector/ddp2")});
        QVERIFY(logs);
        QCOMPARE(logs->run->ranks, 2);
        // and the NCCL profiler plugin's traces of a third (gzip, one file per rank), through the folder
        QVERIFY(RunFileOpener::holdsRun(kData + QStringLiteral("/ncclprof/ddp4")));
        const RunOutcomePtr traces = openRuns(w, {kData + QStringLiteral("/ncclprof/ddp4")});
        QVERIFY2(prompter.errors.isEmpty(), qPrintable(prompter.errors.join(QLatin1Char('\n'))));
        QVERIFY(traces);
        QCOMPARE(traces->run->ranks, 4);
        QCOMPARE(*summarize(traces->scenario, *traces->run).straggler, 1);
    }

    void aFlightRecorderHangOpensWithItsHangReport()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        const RunOutcomePtr out = openRuns(w, {kData + QStringLiteral("/flight_recorder/hang2/fr_hang_rank0.json"),
                                               kData + QStringLiteral("/flight_recorder/hang2/fr_hang_rank1.json")});
        QVERIFY2(prompter.errors.isEmpty(), qPrintable(prompter.errors.join(QLatin1Char('\n'))));
        QVERIFY(out);
        QVERIFY(out->run->hang.has_value());
        QCOMPARE(out->run->hang->firstMismatchRank, 1);
    }

    void anNcclTestsSweepOpensBesideTheSimulation()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QSignalSpy sweep(w.runFiles(), &RunFileOpener::sweepShown);
        const Scenario before = w.scenario();
        QVERIFY(w.openFiles({kData + QStringLiteral("/nccl_tests/all_reduce_perf_2ranks.json")}));
        QVERIFY(sweep.wait(20000));
        const QString text = w.runFiles()->lastSweepText();
        QVERIFY2(text.contains(QStringLiteral("out-of-place")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("simulated")), qPrintable(text)); // the default machine has 2+ GPUs
        QVERIFY(!text.contains(QStringLiteral("NCCL_HOSTID")));                 // the file's environment is never shown
        QCOMPARE(w.scenario(), before); // a sweep is not a job: the document stays
    }

    void aBadSelectionNamesTheFileAndChangesNothing()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        const Scenario before = w.scenario();
        QSignalSpy failed(w.runFiles(), &RunFileOpener::failed);
        QVERIFY(w.openFiles({kData + QStringLiteral("/kineto/ddp2/kineto_rank0.json.gz"),
                             kData + QStringLiteral("/inspector/ddp2/rank1_vm-pid1308.log")}));
        QVERIFY(failed.wait(20000));
        QCOMPARE(prompter.errors.size(), 1);
        QVERIFY2(prompter.errors.front().contains(QStringLiteral("rank1_vm-pid1308.log")),
                 qPrintable(prompter.errors.front()));
        QCOMPARE(w.scenario(), before);
        QVERIFY(!w.runPage()->lastOutcome());
    }

    void cancelLeavesEverythingAsItWas()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        const Scenario before = w.scenario();
        QSignalSpy cancelled(w.runFiles(), &RunFileOpener::cancelled);
        QSignalSpy shown(w.runPage(), &RunPage::outcomeAvailable);
        QVERIFY(w.openFiles({kData + QStringLiteral("/kineto/ddp4")}));
        w.runFiles()->cancel(); // the progress dialog's Cancel
        QCOMPARE(cancelled.size(), 1);
        QVERIFY(!w.runFiles()->isLoading());
        QTest::qWait(1500); // the job's result, if it arrives, is dropped
        QVERIFY(shown.isEmpty());
        QCOMPARE(w.scenario(), before);
        QVERIFY(prompter.errors.isEmpty());
    }

    void droppedFilesOpenAsFileOpenOpensThem()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QVERIFY(w.acceptDrops());
        QSignalSpy shown(w.runPage(), &RunPage::outcomeAvailable);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(kData + QStringLiteral("/inspector/ddp2"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted()); // the window takes local files
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        QVERIFY(shown.wait(20000));
        QCOMPARE(w.runPage()->lastOutcome()->run->ranks, 2);
    }

    void theFileMenuOffersAFolder()
    {
        MainWindow w;
        QAction* folder = w.action(QStringLiteral("file.openFolder"));
        QVERIFY(folder);
        QVERIFY(!folder->shortcut().isEmpty());
        QVERIFY(!folder->toolTip().isEmpty());
    }
};

SHARDLAB_GUI_TEST_MAIN(test_importruns, TstImportRuns)
#include "test_importruns.moc"
