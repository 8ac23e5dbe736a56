// The hang sandbox (issue 8, item 4): a mismatched or skipped collective on a chosen rank, a
// watchdog deadline, a run that is aborted within it, a flight-recorder grid with the first
// mismatch marked and a sentence, and a next run that works without restarting. In simulation
// here; live runs go through the same runner with the live watchdog (a stand-in executor checks
// that the deadline reaches it).
#include "gui_test_main.h"
#include "document/document.h"
#include "gui_test_helpers.h"
#include "shell/mainwindow.h"
#include "run/runpage.h"
#include "sandbox/hanggridmodel.h"
#include "sandbox/hangsandbox.h"

#include "shardlab/sim/simulator.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

RunOutcomePtr runAndWait(MainWindow& w, const std::function<void()>& start)
{
    QSignalSpy shown(w.runPage(), &RunPage::outcomeAvailable);
    start();
    if (!shown.wait(120000))
        return nullptr;
    return w.runPage()->lastOutcome();
}

// The straggler example: the all-reduce is program step 1, three iterations.
constexpr int kAllReduce = 1;

} // namespace

class TstHangSandbox : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-sandbox"));
    }

    void aMismatchHangsIsAbortedAndTheNextRunWorks()
    {
        MainWindow w;
        w.resize(1500, 940);
        w.show();
        const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        w.document()->reset(s, QString());
        HangSandbox* box = w.hangSandbox();
        QAbstractItemModelTester tester(box->grid(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(s.program[kAllReduce].kind, OpKind::AllReduce);
        box->choose(Mismatch::Type::WrongOp, 2, kAllReduce, 1);
        box->setDeadlineMs(1500);
        QCOMPARE(w.runPage()->watchdogMs(), 1500.0);

        const RunOutcomePtr hung = runAndWait(w, [&] { QTest::mouseClick(box->runButton(), Qt::LeftButton); });
        QVERIFY(hung);
        QVERIFY(hung->run->hang.has_value());
        // the document is untouched: the mistake went into a copy
        QVERIFY(w.scenario().perturbations.mismatches.empty());
        QCOMPARE(hung->scenario.perturbations.mismatches.size(), size_t(1));

        // the watchdog's deadline on the simulated clock: every rank waits 1.5 s, then the abort
        const HangReport& h = *hung->run->hang;
        double waitsEnd = 0;
        int aborted = 0;
        for (const Span& sp : hung->run->spans)
            if (sp.iteration == 1 && sp.kind == SpanKind::Wait && sp.collective == -1) {
                ++aborted;
                waitsEnd = sp.endUs;
            }
        QCOMPARE(aborted, 4);
        QCOMPARE(hung->run->iterations.back().endUs, waitsEnd);
        QVERIFY(QString::fromStdString(h.explanation).contains(QStringLiteral("1.50 s after the last progress")));

        // the grid: everyone completed #0; rank 2 differs at #1, the others are stuck there
        HangGridModel* grid = box->grid();
        QCOMPARE(grid->rowCount(), 4);
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(grid->cell(r, 0), HangGridModel::Cell::Completed);
            QCOMPARE(grid->cell(r, 1), r == 2 ? HangGridModel::Cell::Differs : HangGridModel::Cell::Stuck);
            QCOMPARE(grid->index(r, 1).data().toString(), QStringLiteral("#0"));
        }
        QVERIFY(grid->index(2, 0).data().toString().contains(QStringLiteral("first mismatch")));
        QVERIFY(grid->index(2, grid->columnCount() - 1).data().toString().contains(QStringLiteral("all_gather")));
        QCOMPARE(grid->headerData(grid->sequenceColumn(1), Qt::Horizontal).toString(), QStringLiteral("#1"));
        QVERIFY(box->sentence().contains(QStringLiteral("Rank 2 is the first whose call differs")));
        QVERIFY(box->sentence().contains(QStringLiteral("completed collective #0 and are stuck in #1")));
        QVERIFY(box->sentence().contains(QStringLiteral("watchdog")));
        // the run page shows the sandbox beside the timeline
        QVERIFY(w.runPage()->sideTabs()->currentWidget()->isAncestorOf(box)); // in its scroll area

        // the deadline is on the simulated clock: an hour's deadline is not waited for in real time
        // (the run ends long before runAndWait's own limit, whatever the machine's load)
        box->setDeadlineMs(3.6e6);
        const RunOutcomePtr hour = runAndWait(w, [&] { box->runButton()->click(); });
        QVERIFY(hour);
        QVERIFY(hour->run->hang.has_value());
        box->setDeadlineMs(1500);

        // the next run works, without restarting: the scenario as it is
        const RunOutcomePtr next = runAndWait(w, [&] { w.runPage()->run(); });
        QVERIFY(next);
        QVERIFY(!next->run->hang);
        QCOMPARE(next->summary.straggler, std::optional<int>(0));
        QCOMPARE(grid->rowCount(), 0);
        QVERIFY(box->sentence().contains(QStringLiteral("No hang")));
    }

    void aSkippedCallIsNamed()
    {
        MainWindow w;
        w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        HangSandbox* box = w.hangSandbox();
        box->choose(Mismatch::Type::Skip, 1, kAllReduce, 0);
        box->setDeadlineMs(500);
        const RunOutcomePtr hung = runAndWait(w, [&] { box->runButton()->click(); });
        QVERIFY(hung && hung->run->hang);
        QCOMPARE(hung->run->hang->firstMismatchRank, 1);
        QCOMPARE(box->grid()->cell(1, 0), HangGridModel::Cell::Left);
        QCOMPARE(box->grid()->cell(0, 0), HangGridModel::Cell::Stuck);
        QCOMPARE(box->grid()->index(1, box->grid()->sequenceColumn(0)).data().toString(),
                 QStringLiteral("never called"));
    }

    void aWrongSizeIsAMismatchToo()
    {
        MainWindow w;
        w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        HangSandbox* box = w.hangSandbox();
        box->choose(Mismatch::Type::WrongCount, 3, kAllReduce, 2);
        auto s = box->scenarioWithMistake();
        QVERIFY(s.ok());
        const Mismatch& m = s->perturbations.mismatches.at(0);
        QCOMPARE(m.type, Mismatch::Type::WrongCount);
        QVERIFY(m.bytes > 0 && m.bytes < s->bytesOf(s->program[kAllReduce])); // half the size, by default
        const RunOutcomePtr hung = runAndWait(w, [&] { box->runButton()->click(); });
        QVERIFY(hung && hung->run->hang);
        QCOMPARE(hung->run->hang->firstMismatchRank, 3);
        QCOMPARE(box->grid()->cell(3, 2), HangGridModel::Cell::Differs);
    }

    void liveRunsGetTheDeadline()
    {
        // live runs go through the same runner: the live executor receives the sandbox's deadline
        MainWindow w;
        w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        auto seen = std::make_shared<std::atomic<double>>(0.0);
        w.runPage()->useLiveRunner(
            [seen](const Scenario& s, const LiveOptions& o) {
                seen->store(o.watchdogMs);
                SimulationOptions so; // a stand-in for the GPUs: the simulator's watchdog
                so.watchdogMs = o.watchdogMs;
                auto run = simulate(s, so);
                if (run)
                    run->mode = RunMode::Live;
                return run;
            },
            QStringLiteral("a stand-in"));
        w.runPage()->setMode(RunKind::Live);
        HangSandbox* box = w.hangSandbox();
        box->choose(Mismatch::Type::WrongOp, 0, kAllReduce, 1);
        box->setDeadlineMs(2500);
        const RunOutcomePtr hung = runAndWait(w, [&] { box->runButton()->click(); });
        QVERIFY(hung && hung->run->hang);
        QCOMPARE(hung->kind, RunKind::Live);
        QCOMPARE(seen->load(), 2500.0);
        QCOMPARE(box->grid()->cell(0, 1), HangGridModel::Cell::Differs);
    }

    void noCollectiveNoSandbox()
    {
        HangSandbox box;
        Scenario s = test::fourCardsOneItem();
        box.setScenario(s);
        QVERIFY(!box.runButton()->isEnabled());
        QVERIFY(!box.scenarioWithMistake().ok());
    }
};

SHARDLAB_GUI_TEST_MAIN(test_hangsandbox, TstHangSandbox)
#include "test_hangsandbox.moc"
