// Playback: the speed ladder, stepping through events (span boundaries and ring steps), frames
// for the topology diagram, playing in real time, and the keyboard.
#include "gui_test_main.h"
#include "run_test_helpers.h"
#include "run/playbackbar.h"
#include "run/playbackcontroller.h"

#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <QComboBox>
#include <QSlider>
#include <QtTest>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

std::shared_ptr<const ActivityIndex> indexOf(const Scenario& s)
{
    CostModel model(s.topology, *profileFor(s));
    auto r = simulate(s, model);
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return std::make_shared<const ActivityIndex>(s, std::make_shared<const RunResult>(std::move(r).value()), model);
}

} // namespace

class TstPlayback : public QObject {
    Q_OBJECT
private slots:
    void speedLadder()
    {
        const std::vector<double> s = PlaybackController::speedSteps();
        QCOMPARE(int(s.size()), 16);
        QCOMPARE(s.front(), 1e-4);
        QCOMPARE(s.back(), 10.0);
        QVERIFY(std::is_sorted(s.begin(), s.end()));
        // a 450 ms run plays in about 15 s at 0.02x (0.03 wanted, snapped down)
        QCOMPARE(PlaybackController::speedToPlayIn(450e3, 15), 0.02);
        QCOMPARE(PlaybackController::speedToPlayIn(1, 15), 1e-4);
        QCOMPARE(PlaybackController::speedToPlayIn(1e9, 15), 10.0);
        QCOMPARE(PlaybackBar::speedLabel(1e-4), QString::fromUtf8("0.0001x (1 s shows 100 \xc2\xb5s)"));
    }

    void stepsVisitEventsAndEmitFrames()
    {
        const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        PlaybackController p;
        QSignalSpy frames(&p, &PlaybackController::activityAvailable);
        QSignalSpy times(&p, &PlaybackController::timeChanged);
        auto index = indexOf(s);
        p.setIndex(index);
        QCOMPARE(p.time(), 0.0);
        QCOMPARE(frames.count(), 1);
        const ActivitySnapshot first = frames.last().at(0).value<ActivitySnapshot>();
        QCOMPARE(int(first.ranks.size()), 4);
        for (ActivityState a : first.ranks)
            QCOMPARE(a, ActivityState::Compute);
        QCOMPARE(first.links.size(), s.topology.links.size());

        // stepping forward: rank 3 finishes first and waits for rank 0
        p.stepForward();
        QCOMPARE(p.time(), index->nextEvent(0));
        const ActivitySnapshot f = p.currentFrame();
        QCOMPARE(f.ranks[3], ActivityState::Wait);
        QCOMPARE(f.waitingFor[3], 0);
        QCOMPARE(f.ranks[0], ActivityState::Compute);

        // step until the all-reduce runs: then links carry traffic, step by ring step
        const CollectiveRecord& ar = index->run().collectives.front();
        while (p.time() < ar.startUs)
            p.stepForward();
        QCOMPARE(p.time(), ar.startUs);
        const int steps = index->stepsOf(0);
        QCOMPARE(steps, 6); // ring all-reduce on 4 ranks: 2(n-1)
        for (int k = 0; k < steps; ++k) {
            const ActivitySnapshot g = p.currentFrame();
            double busiest = 0;
            int step = -1;
            for (const LinkActivity& l : g.links)
                if (l.utilisation > busiest) {
                    busiest = l.utilisation;
                    step = l.step;
                }
            QVERIFY(busiest > 0);
            QCOMPARE(step, k);
            for (ActivityState a : g.ranks)
                QCOMPARE(a, ActivityState::Communicate);
            p.stepForward();
        }
        QCOMPARE(p.time(), ar.endUs);
        p.stepBackward();
        QVERIFY(p.time() < ar.endUs && p.time() > ar.startUs);
        QVERIFY(frames.count() > steps);
        QCOMPARE(times.count(), frames.count());
    }

    void playsInRealTimeAtTheChosenSpeed()
    {
        // The clock is the test's: how far playback moves is exact, whatever the machine's load
        // (bench_timeline measures the frame rate reached).
        qint64 nowNs = 0;
        PlaybackController p;
        p.setClock([&nowNs] { return nowNs; });
        p.setIndex(indexOf(test::loadExample("straggler-12-6-4-2.shardlab.json")));
        p.setSpeed(0.1); // 100 ms of run per second
        QSignalSpy frames(&p, &PlaybackController::activityAvailable);
        p.play();
        QVERIFY(p.isPlaying());
        const int before = frames.count();
        nowNs = 500'000'000; // half a second passes
        QTRY_VERIFY(p.time() > 0);
        p.pause();
        QVERIFY(!p.isPlaying());
        QCOMPARE(p.time(), 0.1 * 500'000.0); // 50 ms of run in 500 ms
        QVERIFY(frames.count() > before);    // each step of time is a frame
        // 60 frames per second
        QCOMPARE(p.frameIntervalMs(), 16);
        // playing past the end stops there
        p.setSpeed(10);
        p.setTime(p.endTime() - 1);
        p.play();
        nowNs += 1'000'000;
        QTRY_VERIFY(!p.isPlaying());
        QCOMPARE(p.time(), p.endTime());
    }

    void keyboardControlsPlayback()
    {
        QWidget w;
        w.setFocusPolicy(Qt::StrongFocus);
        PlaybackController p;
        p.installShortcuts(&w);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.setFocus();
        p.setIndex(indexOf(test::loadExample("straggler-12-6-4-2.shardlab.json")));
        const double speed = p.speed();
        QTest::keyClick(&w, Qt::Key_Right);
        QVERIFY(p.time() > 0);
        const double t = p.time();
        QTest::keyClick(&w, Qt::Key_Right);
        QVERIFY(p.time() > t);
        QTest::keyClick(&w, Qt::Key_Left);
        QCOMPARE(p.time(), t);
        QTest::keyClick(&w, Qt::Key_Equal);
        QVERIFY(p.speed() > speed);
        QTest::keyClick(&w, Qt::Key_Minus);
        QCOMPARE(p.speed(), speed);
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(p.isPlaying());
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(!p.isPlaying());
        QTest::keyClick(&w, Qt::Key_End);
        QCOMPARE(p.time(), p.endTime());
        QTest::keyClick(&w, Qt::Key_Home);
        QCOMPARE(p.time(), 0.0);
        QVERIFY(!p.isPlaying());
    }

    void barFollowsAndDrivesThePlayback()
    {
        PlaybackController p;
        PlaybackBar bar(&p);
        QVERIFY(!bar.scrubber()->isEnabled());
        p.setIndex(indexOf(test::loadExample("straggler-12-6-4-2.shardlab.json")));
        bar.refresh();
        QVERIFY(bar.scrubber()->isEnabled());
        bar.scrubber()->setValue(5000); // halfway
        QVERIFY(qAbs(p.time() - p.endTime() / 2) < 1e-9 * p.endTime() + 1e-6);
        p.setTime(p.endTime() / 4);
        QCOMPARE(bar.scrubber()->value(), 2500);
        p.setSpeed(1e-3);
        QCOMPARE(bar.speedBox()->currentData().toDouble(), 1e-3);
    }
};

SHARDLAB_GUI_TEST_MAIN(test_playback, TstPlayback)
#include "test_playback.moc"
