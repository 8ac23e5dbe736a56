// The engine thread: results of the straggler example, streaming, cancel, a newer run superseding
// an older one, errors as messages, and live runs with their comparison. Runs that must still be
// going when they are cancelled or superseded are held at a test::RunGate, so nothing here depends
// on how fast the machine simulates; how fast a cancel takes effect (the 200 ms target of issue 5)
// is measured by bench_cancel.
#include "gui_test_main.h"
#include "run_test_helpers.h"
#include "run/runcontroller.h"
#include "timeline/timelinedata.h"

#include "shardlab/sim/simulator.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

// The ids carried by a spy's signals (first argument).
QList<quint64> ids(const QSignalSpy& spy)
{
    QList<quint64> out;
    for (const QList<QVariant>& args : spy)
        out << args.at(0).toULongLong();
    return out;
}

RunOutcomePtr outcomeOf(const QSignalSpy& spy, int i = 0) { return spy.at(i).at(0).value<RunOutcomePtr>(); }

// Starts `s` as `kind` on `c`, held at iteration 10 by a test::RunGate until the first iterations
// have streamed in (however fast the machine), then lets it finish. Nothing is left out of the
// stream (a capacity no run here reaches). False, with the failure recorded, where a step did not
// happen.
struct StreamedRun {
    std::shared_ptr<TimelineData> timeline; // what streamed in
    RunOutcomePtr outcome;                  // the finished run
};
bool streamHeldRun(RunController& c, const Scenario& s, RunKind kind, StreamedRun& out)
{
    test::RunGate gate(10);
    c.setIterationHook(gate.hook());
    c.setCoalesceInterval(5);
    c.setStreamCapacity(100'000'000);
    QSignalSpy partial(&c, &RunController::partialAvailable);
    QSignalSpy done(&c, &RunController::resultAvailable);
    c.start(s, kind);
    out.timeline = c.streamingTimeline();
    [&] {
        QVERIFY(out.timeline);
        QVERIFY(gate.waitUntilHeld());
        QTRY_VERIFY_WITH_TIMEOUT(!partial.isEmpty(), 60000); // the first iterations, before the end
        QCOMPARE(done.count(), 0);
    }();
    gate.open();
    if (QTest::currentTestFailed())
        return false;
    if (!done.wait(60000)) {
        QTest::qFail("the run did not finish within 60 s", __FILE__, __LINE__);
        return false;
    }
    out.outcome = outcomeOf(done);
    return true;
}

} // namespace

class TstRunController : public QObject {
    Q_OBJECT
private slots:
    void stragglerExampleMatchesTheEngine()
    {
        const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        RunController c;
        QSignalSpy done(&c, &RunController::resultAvailable);
        QSignalSpy progress(&c, &RunController::progress);
        const quint64 id = c.start(s, RunKind::Simulate);
        QVERIFY(c.isRunning());
        QVERIFY(done.wait(10000));
        QVERIFY(!c.isRunning());
        const RunOutcomePtr out = outcomeOf(done);
        QCOMPARE(out->id, id);
        QCOMPARE(out->summary.straggler, std::optional<int>(0));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(1).toInt(), s.iterations);

        // the same numbers as the engine run directly
        auto direct = simulate(s);
        QVERIFY(direct.ok());
        QCOMPARE(out->run->spans.size(), direct->spans.size());
        const Summary expected = summarize(s, *direct);
        QCOMPARE(out->summary.stepTimeMs, expected.stepTimeMs);
        QCOMPARE(out->summary.sentence, expected.sentence);
        QVERIFY(out->activity);
        QVERIFY(out->timeline);
        QCOMPARE(out->timeline->spanCount(), direct->spans.size());
    }

    void streamsIterationsAsTheyFinish()
    {
        const Scenario s = test::longScenario(150, 8);
        RunController c;
        StreamedRun streamed;
        QVERIFY(streamHeldRun(c, s, RunKind::Simulate, streamed));
        // what streamed in is the run's spans, without loss
        QVERIFY(!c.streamIncomplete());
        QCOMPARE(streamed.timeline->runSpanCount(), streamed.outcome->run->spans.size());
        QCOMPARE(streamed.timeline->run().iterations.size(), size_t(150));
        QCOMPARE(streamed.timeline->run().collectives.size(), streamed.outcome->run->collectives.size());

        // a GUI that cannot keep up gets fewer spans in the live view, never a stale or partial
        // final result
        c.setIterationHook({});
        c.setStreamCapacity(10);
        QSignalSpy done(&c, &RunController::resultAvailable);
        c.start(s, RunKind::Simulate);
        auto small = c.streamingTimeline();
        QVERIFY(done.wait(30000));
        QVERIFY(c.streamIncomplete());
        QVERIFY(small->runSpanCount() < outcomeOf(done)->run->spans.size());
        QCOMPARE(small->run().iterations.size(), size_t(150)); // the axis still grows
        QCOMPARE(outcomeOf(done)->run->spans.size(), streamed.outcome->run->spans.size());
    }

    void liveRunsStreamIterationsAsTheyFinish()
    {
        // The live executor hands each iteration over as it completes (LiveOptions::iterationDone),
        // as the simulator does; here a stand-in live runner (the simulator, passing its
        // iterations on), held at iteration 10 until part of the run has streamed in.
        const Scenario s = test::longScenario(60, 8);
        RunController c;
        c.setLiveRunner([](const Scenario& sc, const LiveOptions& o) {
            SimulationOptions so;
            so.cancel = o.cancel;
            so.iterationDone = o.iterationDone;
            auto run = simulate(sc, so);
            if (run)
                run->mode = RunMode::Live;
            return run;
        });
        StreamedRun streamed;
        QVERIFY(streamHeldRun(c, s, RunKind::Live, streamed));
        QVERIFY(!c.streamIncomplete());
        QCOMPARE(streamed.timeline->runSpanCount(), streamed.outcome->run->spans.size());
        QCOMPARE(streamed.timeline->run().iterations.size(), size_t(60));
    }

    void cancelStopsTheRun()
    {
        test::RunGate gate(3);
        RunController c;
        c.setIterationHook(gate.hook());
        QSignalSpy cancelled(&c, &RunController::cancelled);
        QSignalSpy done(&c, &RunController::resultAvailable);
        QSignalSpy progress(&c, &RunController::progress);
        const quint64 id = c.start(test::longScenario(1500), RunKind::Simulate);
        QVERIFY(gate.waitUntilHeld()); // under way, and it cannot finish on its own
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 60000);
        QVERIFY(c.isRunning());
        c.cancel();
        QVERIFY(cancelled.wait(60000));
        QCOMPARE(cancelled.at(0).at(0).toULongLong(), id);
        QVERIFY(!c.isRunning());

        // still responsive: the next run goes through at once. The engine thread runs one run
        // after another and its signals arrive in order, so a stray result of the cancelled run
        // would have come before this one's.
        const quint64 next = c.start(test::loadExample("straggler-12-6-4-2.shardlab.json"), RunKind::Simulate);
        QVERIFY(done.wait(60000));
        QCOMPARE(done.count(), 1);
        QCOMPARE(outcomeOf(done)->id, next);
    }

    void newerRunSupersedesTheOlder()
    {
        test::RunGate gate(3); // holds the first run only
        RunController c;
        c.setIterationHook(gate.hook());
        QSignalSpy done(&c, &RunController::resultAvailable);
        QSignalSpy progress(&c, &RunController::progress);
        QSignalSpy partial(&c, &RunController::partialAvailable);
        QSignalSpy cancelled(&c, &RunController::cancelled);
        QSignalSpy failed(&c, &RunController::failed);
        const quint64 first = c.start(test::longScenario(1500), RunKind::Simulate);
        QVERIFY(gate.waitUntilHeld());
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 60000);
        const int progressBefore = progress.count();
        const int partialBefore = partial.count();
        const quint64 second = c.start(test::loadExample("straggler-12-6-4-2.shardlab.json"), RunKind::Simulate);
        QVERIFY(second != first);
        QVERIFY(done.wait(60000));
        // The engine thread ran the first run to its end before the second, and its signals arrive
        // in order: anything of the first run came before the second's result.
        QCOMPARE(done.count(), 1);
        QCOMPARE(outcomeOf(done)->id, second);
        QCOMPARE(outcomeOf(done)->scenario.name, std::string("Straggler: shards of 12/6/4/2 GB"));
        for (quint64 i : ids(progress).mid(progressBefore))
            QCOMPARE(i, second);
        for (quint64 i : ids(partial).mid(partialBefore))
            QCOMPARE(i, second);
        QCOMPARE(cancelled.count(), 0); // the superseded run is dropped silently
        QCOMPARE(failed.count(), 0);
    }

    void badScenarioBecomesAMessage()
    {
        Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        s.iterations = 0;
        RunController c;
        QSignalSpy failed(&c, &RunController::failed);
        c.start(s, RunKind::Simulate);
        QVERIFY(failed.wait(5000));
        QVERIFY2(failed.at(0).at(1).toString().contains(QStringLiteral("$.iterations")),
                 qPrintable(failed.at(0).at(1).toString()));
        QVERIFY(!c.isRunning());
    }

    // Issue 14: a run that would record more events than a run may hold (here 70 billion) is
    // refused at once with its size and what to reduce, as on the command line.
    void aRunTooLargeToHoldBecomesAMessage()
    {
        Scenario s = test::loadExample("speedup-1-6x.shardlab.json");
        s.program[0].buckets = 100000;
        s.program[1].buckets = 100000;
        s.program[1].overlap = true;
        s.iterations = 100000;
        RunController c;
        QSignalSpy failed(&c, &RunController::failed);
        QSignalSpy done(&c, &RunController::resultAvailable);
        c.start(s, RunKind::Simulate);
        QVERIFY(failed.wait(5000));
        const QString message = failed.at(0).at(1).toString();
        QVERIFY2(message.startsWith(QStringLiteral("this run would record up to 70,000,200,000 events")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("reduce the iterations to 28 or fewer")), qPrintable(message));
        QCOMPARE(done.count(), 0);
        QVERIFY(!c.isRunning());
    }

    void liveAvailabilityIsExplained()
    {
        RunController c;
        QSignalSpy probed(&c, &RunController::liveAvailabilityChanged);
        c.probeLive();
        QVERIFY(probed.wait(5000));
        QCOMPARE(probed.at(0).at(0).toBool(), c.liveAvailable());
        QVERIFY(!c.liveExplanation().isEmpty());
        if (!liveBuiltIn()) {
            QVERIFY(!c.liveAvailable());
            QVERIFY(c.liveExplanation().contains(QStringLiteral("not built")));
        }
    }

    void liveRunIsComparedWithItsSimulation()
    {
        // A stand-in for the GPUs: the "measurement" is the simulation of the same scenario with
        // every rank 25% slower, so the model predicts compute 20% too fast.
        const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        RunController c;
        c.setLiveRunner(test::standInLiveRunner(1.25));
        QSignalSpy done(&c, &RunController::resultAvailable);
        c.start(s, RunKind::Live);
        QVERIFY(c.streamingTimeline() != nullptr); // live runs stream too (this stand-in hands nothing over)
        QVERIFY(done.wait(10000));
        const RunOutcomePtr out = outcomeOf(done);
        QCOMPARE(out->kind, RunKind::Live);
        QVERIFY(out->reference);
        QVERIFY(out->comparison);
        QCOMPARE(out->comparison->phases.size(), s.program.size());
        QVERIFY(qAbs(*out->comparison->phases[0].errorPct - (1 / 1.25 - 1) * 100) < 1e-6);
        QVERIFY(out->timeline->layout().reference);

        // a failing live run is a message, and the controller keeps working
        c.setLiveRunner([](const Scenario&, const LiveOptions&) -> Result<RunResult> {
            return runFailed(verbatim("CUDA error: out of memory on rank 2 (cudaMalloc of 12 GB)"));
        });
        QSignalSpy failed(&c, &RunController::failed);
        c.start(s, RunKind::Live);
        QVERIFY(failed.wait(5000));
        QVERIFY(failed.at(0).at(1).toString().contains(QStringLiteral("out of memory on rank 2")));
        c.start(s, RunKind::Simulate);
        QVERIFY(done.wait(5000));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_runcontroller, TstRunController)
#include "test_runcontroller.moc"
