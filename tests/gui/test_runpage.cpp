// The run page end to end on the straggler example (12/6/4/2 GB): rank 0 is the straggler, the
// other lanes show wait spans as long as the engine says, the summary shows the engine's figures,
// playback emits frames, and a long run can be cancelled while the page stays responsive.
#include "gui_test_main.h"
#include "style/theme.h"
#include "run_test_helpers.h"
#include "run/playbackcontroller.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "run/summarymodels.h"
#include "run/summarypanel.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"

#include "shardlab/sim/simulator.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QRadioButton>
#include <QtTest>

using namespace shardlab;
using namespace shardlab::gui;

class TstRunPage : public QObject {
    Q_OBJECT
private slots:
    // Issue 29: a peak that does not fit is in the red the diagram and the legend call "does not
    // fit" (it was orange, the legend's "over 90 %").
    void aPeakThatDoesNotFitIsRed()
    {
        const Scenario s = test::loadExample("capacity-replicate-24gb.shardlab.json");
        auto run = simulate(s);
        QVERIFY(run.ok());
        RankTableModel model;
        model.setSummary(summarize(s, *run));
        const QModelIndex memory = model.index(0, RankTableModel::Memory);
        QVERIFY(memory.data(Qt::ToolTipRole).toString().contains(QStringLiteral("more than")));
        QCOMPARE(memory.data(Qt::ForegroundRole).value<QBrush>().color(), theme::overflow());
    }

    void stragglerRunShowsWhoWaitsAndHowLong()
    {
        const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        RunPage page;
        page.resize(1600, 900);
        page.show();
        QAbstractItemModelTester ranksTester(page.summary()->rankModel(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester cmpTester(page.summary()->comparisonModel(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&page, &RunPage::runFinished);
        QVERIFY(!page.runButton()->isEnabled()); // nothing to run yet
        page.setScenario(s);
        QTest::mouseClick(page.runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(10000));

        auto direct = simulate(s);
        QVERIFY(direct.ok());
        const Summary expected = summarize(s, *direct);
        QCOMPARE(expected.straggler, std::optional<int>(0));
        const RunOutcomePtr out = page.lastOutcome();
        QVERIFY(out);
        QCOMPARE(out->summary.straggler, std::optional<int>(0));

        // the timeline: rank 0 highlighted, no waits on its lane, the others' waits as the engine has them
        TimelineView* view = page.timeline();
        QCOMPARE(view->straggler(), std::optional<int>(0));
        const TimelineData* data = view->data();
        QCOMPARE(data, out->timeline.get());
        QCOMPARE(int(data->lane(0, LaneBand::Main)->track(SpanKind::Wait).size()), 0);
        for (int r = 1; r < 4; ++r) {
            std::vector<double> engineWaits;
            for (const Span& sp : direct->spans)
                if (sp.rank == r && sp.kind == SpanKind::Wait)
                    engineWaits.push_back(sp.durationUs());
            const TimelineTrack& drawn = data->lane(r, LaneBand::Main)->track(SpanKind::Wait);
            QCOMPARE(int(drawn.size()), s.iterations);
            QCOMPARE(drawn.size(), engineWaits.size());
            double totalMs = 0;
            for (size_t i = 0; i < drawn.size(); ++i) {
                QCOMPARE(drawn.end[i] - drawn.begin[i], engineWaits[i]);
                const Span& sp = data->span(LaneBand::Main, drawn.span[i]);
                QCOMPARE(sp.waitedFor, 0);
                totalMs += (drawn.end[i] - drawn.begin[i]) / 1e3;
            }
            QVERIFY(qAbs(totalMs / s.iterations - expected.perRank[size_t(r)].waitMs) < 1e-9);
        }
        // and the redraw labels every wait with whom and how long
        view->replotNow();
        const auto& labels = view->spanLayer(SpanKind::Wait)->annotations();
        QCOMPARE(int(labels.size()), 3 * s.iterations);
        for (const auto& a : labels) {
            const Span& sp = data->span(LaneBand::Main, a.span);
            QVERIFY2(a.text.contains(QStringLiteral("for rank 0")), qPrintable(a.text));
            QVERIFY2(a.text.contains(QString::fromStdString(formatDuration(sp.durationUs()))), qPrintable(a.text));
        }

        // the summary: the engine's figures
        QCOMPARE(page.summary()->sentence(), QString::fromStdString(expected.sentence));
        QVERIFY(page.summary()->figure(QStringLiteral("straggler")).contains(QStringLiteral("rank 0")));
        QVERIFY(page.summary()
                    ->figure(QStringLiteral("step"))
                    .contains(QString::number(expected.stepTimeMs, 'f', 2) + QStringLiteral(" ms")));
        QCOMPARE(page.summary()->rankModel()->rowCount(), 4);
        QVERIFY(page.summary()
                    ->rankModel()
                    ->index(0, RankTableModel::Rank)
                    .data()
                    .toString()
                    .contains(QStringLiteral("straggler")));
        const RunResult& reported = finished.at(0).at(0).value<RunResult>();
        QCOMPARE(reported.spans.size(), direct->spans.size());

        // playback: stepping emits frames, the cursor follows
        QSignalSpy frames(&page, &RunPage::activityAvailable);
        page.playback()->stepForward();
        QCOMPARE(frames.count(), 1);
        const ActivitySnapshot f = frames.at(0).at(0).value<ActivitySnapshot>();
        QCOMPARE(f.ranks[3], ActivityState::Wait);
        QCOMPARE(f.waitingFor[3], 0);
        QCOMPARE(view->cursorTime(), page.playback()->time());
    }

    void liveIsDisabledWithAReason()
    {
        RunPage page;
        auto* live = page.findChild<QRadioButton*>(QString(), Qt::FindChildrenRecursively);
        QVERIFY(live);
        QSignalSpy probed(page.controller(), &RunController::liveAvailabilityChanged);
        QVERIFY(probed.wait(5000) || !page.controller()->liveExplanation().isEmpty());
        if (!page.controller()->liveAvailable()) {
            page.setMode(RunKind::Live);
            QCOMPARE(page.mode(), RunKind::Simulate);
            bool found = false;
            for (QRadioButton* b : page.findChildren<QRadioButton*>())
                if (!b->isEnabled()) {
                    found = true;
                    QVERIFY(!b->toolTip().isEmpty());
                }
            QVERIFY(found);
        }
    }

    void cancelKeepsThePageResponsive()
    {
        RunPage page;
        page.resize(1400, 800);
        page.show();
        QSignalSpy finished(&page, &RunPage::runFinished);
        page.setScenario(test::loadExample("straggler-12-6-4-2.shardlab.json"));
        page.run();
        QVERIFY(finished.wait(10000));
        const TimelineData* good = page.timeline()->data();

        // a long run, streamed into the timeline and held at a gate after 20 iterations, so that it
        // is still going when Cancel is clicked however fast or loaded the machine is
        test::RunGate gate(20);
        page.controller()->setIterationHook(gate.hook());
        QSignalSpy cancelled(page.controller(), &RunController::cancelled);
        QSignalSpy progress(page.controller(), &RunController::progress);
        page.setScenario(test::longScenario(2000, 16));
        page.run();
        QVERIFY(page.cancelButton()->isEnabled());
        QVERIFY(gate.waitUntilHeld());
        // responsive: the GUI thread never blocks on the engine. The engine thread is inside the run
        // and cannot leave it, yet the page's timers fire and the stream is drawn. (How long the event
        // loop may stall while a large run streams in, 50 ms, is measured by bench_timeline.)
        int ticks = 0;
        QTimer tick;
        tick.setInterval(5);
        connect(&tick, &QTimer::timeout, this, [&] { ++ticks; });
        tick.start();
        QTRY_VERIFY_WITH_TIMEOUT(ticks >= 10, 60000);
        tick.stop();
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(page.timeline()->data() != good, 60000); // the stream is being drawn
        QVERIFY(page.cancelButton()->isEnabled());
        QTest::mouseClick(page.cancelButton(), Qt::LeftButton);
        QVERIFY(cancelled.wait(60000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(page.timeline()->data(), good); // back to the last finished run
        QVERIFY(!page.cancelButton()->isEnabled());
        QVERIFY(page.runButton()->isEnabled());
    }

    void liveRunShowsTheSimulationNextToIt()
    {
        // a stand-in for the GPUs: the "measurement" is the simulation with every rank 25% slower
        const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        RunPage page;
        page.resize(1600, 900);
        page.show();
        page.useLiveRunner(test::standInLiveRunner(1.25), QStringLiteral("stand-in"));
        QAbstractItemModelTester tester(page.summary()->comparisonModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.setScenario(s);
        page.setMode(RunKind::Live);
        QCOMPARE(page.mode(), RunKind::Live);
        QSignalSpy finished(&page, &RunPage::outcomeAvailable);
        page.run();
        QVERIFY(finished.wait(10000));
        const RunOutcomePtr out = page.lastOutcome();
        QCOMPARE(out->kind, RunKind::Live);
        QVERIFY(page.timeline()->data()->layout().reference);
        // one row per phase and one for the whole step; compute is predicted 20% too fast
        ComparisonModel* m = page.summary()->comparisonModel();
        QCOMPARE(m->rowCount(), int(s.program.size()) + 1);
        QCOMPARE(m->index(0, ComparisonModel::Error).data().toString(), QStringLiteral("-20.0%"));
        QCOMPARE(m->index(1, ComparisonModel::Error).data().toString(), QStringLiteral("0.0%"));
        QVERIFY(page.message().contains(QStringLiteral("simulation")));
    }

    // A run whose ranks took turns on one GPU (Run > Live with N ranks on this one GPU) says so in
    // its banner and status, not "read from a run stream" (issue 29, the GPU run of 2026-12-05).
    void aRunOfRanksSharingOneGpuSaysSo()
    {
        const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        RunPage page;
        page.resize(1600, 900);
        page.show();
        const auto inner = test::standInLiveRunner(1.0);
        page.useLiveRunner(
            [inner](const Scenario& sc, const LiveOptions& o) {
                auto r = inner(sc, o);
                if (r)
                    r->sharedGpu = sc.ranks();
                return r;
            },
            QStringLiteral("stand-in"));
        page.setScenario(s);
        page.setMode(RunKind::Live);
        QSignalSpy finished(&page, &RunPage::outcomeAvailable);
        page.run();
        QVERIFY(finished.wait(10000));
        // (the English plural forms are the translation's: without it, "4 rank(s)")
        QVERIFY2(page.message().startsWith(QStringLiteral("Measured with 4 rank")), qPrintable(page.message()));
        QVERIFY(page.message().contains(QStringLiteral("taking turns on this one GPU")));
        QVERIFY(page.message().contains(QStringLiteral("times are not those of 4 GPU")));
        QVERIFY2(page.statusText().startsWith(QStringLiteral("Measured with 4 rank")), qPrintable(page.statusText()));
        QVERIFY(page.statusText().contains(QStringLiteral("sharing one GPU")));
    }

    void hangIsExplained()
    {
        Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        Mismatch m;
        m.type = Mismatch::Type::WrongCount;
        m.rank = 2;
        m.op = 1;
        m.iteration = 1;
        m.bytes = 1000;
        s.perturbations.mismatches.push_back(m);
        RunPage page;
        QSignalSpy finished(&page, &RunPage::outcomeAvailable);
        page.setScenario(s);
        page.run();
        QVERIFY(finished.wait(10000));
        QVERIFY(page.lastOutcome()->run->hang);
        QVERIFY2(page.message().contains(QStringLiteral("hung")), qPrintable(page.message()));
        QVERIFY2(page.message().contains(QStringLiteral("rank 2")), qPrintable(page.message()));
    }

    void badScenarioShowsAMessage()
    {
        RunPage page;
        Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        s.program[1].group = {0, 9};
        QSignalSpy failed(&page, &RunPage::runFailed);
        page.setScenario(s);
        page.run();
        QVERIFY(failed.wait(5000));
        QVERIFY2(page.message().contains(QStringLiteral("$.program[1]")), qPrintable(page.message()));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_runpage, TstRunPage)
#include "test_runpage.moc"
