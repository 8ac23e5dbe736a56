// Live runs through the GUI's own path (RunController -> EngineWorker on its thread -> runLive
// with the run's cancel token), stressed on real GPUs (CTest label `gpu`; docs/reliability.md):
//  * 100 start/cancel cycles, cancelled at points spread over set-up, warm-up and the timed
//    iterations (0..1.5 s after the start), leave every GPU's used memory and the process's
//    thread count where they were;
//  * a collective buffer larger than the GPU's free memory fails with a message naming the rank,
//    the bytes asked and the bytes free, and the next run in the same process works.
// Skips with the reason where live mode cannot run (no GPU, no driver, no live library).
#include "../gpu/gpu_test_helpers.h"
#include "run/runcontroller.h"

#include "shardlab/live/live.h"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <string>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

// STRESS_CYCLES overrides the 100 cycles (a quick look on a busy machine).
int cycles()
{
    return qEnvironmentVariableIsSet("STRESS_CYCLES") ? qEnvironmentVariableIntValue("STRESS_CYCLES") : 100;
}

int threadCount()
{
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("Threads:", 0) == 0)
            return std::stoi(line.substr(8));
    return -1;
}

// Bytes in use on each GPU (total - free, cudaMemGetInfo through liveDevices()).
std::vector<double> usedMiB()
{
    std::vector<double> used;
    auto devices = liveDevices();
    if (devices)
        for (const LiveDevice& d : *devices)
            used.push_back(static_cast<double>(d.memory - d.freeMemory) / (1 << 20));
    return used;
}

QString format(const std::vector<double>& v)
{
    QStringList parts;
    for (double x : v)
        parts << QString::number(x, 'f', 1);
    return parts.join(QStringLiteral(", "));
}

// `n` ranks on one NVSwitch: 2 ms of compute in 4 buckets overlapped with a bucketed 64 MiB
// all-reduce (the communication stream), then an all-reduce of `tailBytes` (the compute stream).
Scenario stressScenario(int n, int iterations, Bytes tailBytes = 16 << 20)
{
    Scenario s = test::nvSwitchScenario(n, 64 << 20, "live stress");
    s.topology.name = "stress";
    Op compute;
    compute.kind = OpKind::Compute;
    compute.name = "backward";
    compute.item = "data";
    compute.flops = 2e-3 * 10e12 * n;
    compute.buckets = 4;
    Op bucketed;
    bucketed.kind = OpKind::AllReduce;
    bucketed.name = "gradient all-reduce";
    bucketed.item = "grads";
    bucketed.buckets = 4;
    bucketed.overlap = true;
    Op tail;
    tail.kind = OpKind::AllReduce;
    tail.name = "loss all-reduce";
    tail.bytes = tailBytes;
    s.program = {compute, bucketed, tail};
    s.iterations = iterations;
    return s;
}

} // namespace

class LiveStressTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_controller = new RunController(this);
        bool answered = false;
        connect(m_controller, &RunController::liveAvailabilityChanged, this, [&answered] { answered = true; });
        m_controller->probeLive();
        QTRY_VERIFY_WITH_TIMEOUT(answered, 60000);
        if (!m_controller->liveAvailable())
            QSKIP(qPrintable(QStringLiteral("live runs are not possible here: ") + m_controller->liveExplanation()));
        auto devices = liveDevices();
        QVERIFY(devices.ok());
        m_ranks = std::min<int>(2, static_cast<int>(devices->size()));
        qInfo("%d GPU(s): %s; stress runs use %d rank(s)", static_cast<int>(devices->size()),
              qPrintable(m_controller->liveExplanation()), m_ranks);
    }

    void startCancelCyclesLeaveNothingBehind()
    {
        // One whole run first: CUDA contexts, NCCL's library state and the compute calibration are
        // made once per process and stay; the baseline is taken after them.
        QVERIFY(runToEnd(stressScenario(m_ranks, 3)));
        const std::vector<double> memBefore = usedMiB();
        const int threadsBefore = threadCount();
        qInfo("baseline: GPU memory used %s MiB, %d threads", qPrintable(format(memBefore)), threadsBefore);

        // 400 iterations of about 2.5 ms: the timed part lasts about a second after a set-up of
        // about half a second, so cancels 0..1.5 s after the start land in every phase.
        const Scenario s = stressScenario(m_ranks, 400);
        std::vector<double> cancelInSetupMs, cancelInIterationsMs;
        int finished = 0, cancelled = 0;
        std::vector<double> memAt10;
        int threadsAt10 = 0;
        for (int i = 0; i < cycles(); ++i) {
            // Cancel 0..1.5 s after the start: in set-up, in the warm-up, or mid-iterations.
            const int delay = (i * 151) % 1500;
            Outcome out = startAndCancel(s, delay);
            QVERIFY2(out.ended,
                     qPrintable(QStringLiteral("cycle %1: the run did not end within 60 s of its cancel").arg(i)));
            QVERIFY2(out.error.isEmpty(), qPrintable(QStringLiteral("cycle %1 failed: %2").arg(i).arg(out.error)));
            if (out.cancelled)
                (out.iterationsBeforeCancel > 0 ? cancelInIterationsMs : cancelInSetupMs).push_back(out.cancelToEndMs);
            (out.cancelled ? cancelled : finished)++;
            if (i == 9) {
                memAt10 = usedMiB();
                threadsAt10 = threadCount();
            }
            if ((i + 1) % 10 == 0) // idle or not, a trace of the trend
                qInfo("cycle %d: %d cancelled, %d finished first; GPU memory used %s MiB, %d threads", i + 1, cancelled,
                      finished, qPrintable(format(usedMiB())), threadCount());
        }
        // A whole run last, as before the baseline: it also waits for the worker to be idle.
        QVERIFY(runToEnd(stressScenario(m_ranks, 3)));
        const std::vector<double> memAfter = usedMiB();
        const int threadsAfter = threadCount();
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v.empty() ? 0.0 : v[v.size() / 2];
        };
        auto most = [](const std::vector<double>& v) {
            return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
        };
        qInfo("%d cycles: %d cancelled (%d in set-up or warm-up, %d mid-iterations), %d finished first", cycles(),
              cancelled, static_cast<int>(cancelInSetupMs.size()), static_cast<int>(cancelInIterationsMs.size()),
              finished);
        qInfo("cancel -> cancelled signal: in set-up median %.0f ms, max %.0f ms; mid-iterations median %.0f ms, max "
              "%.0f ms",
              median(cancelInSetupMs), most(cancelInSetupMs), median(cancelInIterationsMs), most(cancelInIterationsMs));
        qInfo("after 10 cycles: GPU memory used %s MiB, %d threads", qPrintable(format(memAt10)), threadsAt10);
        qInfo("after %d cycles: GPU memory used %s MiB, %d threads", cycles(), qPrintable(format(memAfter)),
              threadsAfter);
        QVERIFY(cancelled > cycles() / 2);
        QVERIFY2(!cancelInSetupMs.empty() && !cancelInIterationsMs.empty(),
                 "cancels should land in set-up and mid-run");
        // Tolerances: 16 MiB per GPU (the driver's own bookkeeping moves by a few MiB), no extra thread.
        QCOMPARE(memAfter.size(), memBefore.size());
        for (size_t d = 0; d < memBefore.size(); ++d)
            QVERIFY2(
                std::abs(memAfter[d] - memBefore[d]) <= 16,
                qPrintable(
                    QStringLiteral("GPU %1: %2 MiB used before, %3 after").arg(d).arg(memBefore[d]).arg(memAfter[d])));
        QCOMPARE(threadsAfter, threadsBefore);
    }

    void oversizedBufferFailsPerRankAndTheNextRunWorks()
    {
        auto devices = liveDevices();
        QVERIFY(devices.ok());
        const std::vector<double> memBefore = usedMiB();
        const int threadsBefore = threadCount();
        // An all-reduce of twice the GPU's memory, at the size asked (no scaling down to fit: the
        // GUI's runner with LiveOptions::fitToMemory off, as `shardlab live --no-scale`).
        m_controller->setLiveRunner([](const Scenario& sc, const LiveOptions& o) {
            LiveOptions exact = o;
            exact.fitToMemory = false;
            return runLive(sc, exact);
        });
        const Bytes asked = (*devices)[0].memory * 2;
        Outcome out = run(stressScenario(m_ranks, 2, asked));
        QVERIFY(out.ended);
        qInfo("oversized: %s", qPrintable(out.error));
        QVERIFY2(!out.error.isEmpty(), "the oversized run should fail");
        QVERIFY2(out.error.contains(QStringLiteral("rank 0")), qPrintable(out.error));
        QVERIFY2(out.error.contains(QStringLiteral("could not allocate")), qPrintable(out.error));
        QVERIFY2(out.error.contains(QStringLiteral("free")), qPrintable(out.error));
        QVERIFY2(out.error.contains(QString::fromStdString(formatBytes(asked))), qPrintable(out.error));
        m_controller->setLiveRunner([](const Scenario& sc, const LiveOptions& o) { return runLive(sc, o); });
        QVERIFY(runToEnd(stressScenario(m_ranks, 3)));
        const std::vector<double> memAfter = usedMiB();
        for (size_t d = 0; d < memBefore.size() && d < memAfter.size(); ++d)
            QVERIFY2(std::abs(memAfter[d] - memBefore[d]) <= 16,
                     qPrintable(
                         QStringLiteral("GPU %1: %2 MiB before, %3 after").arg(d).arg(memBefore[d]).arg(memAfter[d])));
        QCOMPARE(threadCount(), threadsBefore);
    }

private:
    struct Outcome {
        bool ended = false, cancelled = false;
        int iterationsBeforeCancel = 0; // the engine's progress before the cancel (0: still setting up)
        QString error;
        RunOutcomePtr result;
        double cancelToEndMs = 0;
    };

    // Starts a live run, cancels it after `cancelAfterMs` (never: -1) and waits for its end.
    Outcome startAndCancel(const Scenario& s, int cancelAfterMs)
    {
        Outcome out;
        const quint64 id = m_controller->start(s, RunKind::Live);
        QMetaObject::Connection c1 =
            connect(m_controller, &RunController::resultAvailable, this, [&](const RunOutcomePtr& o) {
                if (o->id == id) {
                    out.result = o;
                    out.ended = true;
                }
            });
        QMetaObject::Connection c2 =
            connect(m_controller, &RunController::failed, this, [&](quint64 i, const QString& m) {
                if (i == id) {
                    out.error = m;
                    out.ended = true;
                }
            });
        QMetaObject::Connection c3 = connect(m_controller, &RunController::cancelled, this, [&](quint64 i) {
            if (i == id) {
                out.cancelled = true;
                out.ended = true;
            }
        });
        int done = 0;
        QMetaObject::Connection c4 = connect(m_controller, &RunController::progress, this, [&](quint64 i, int d, int) {
            if (i == id)
                done = d;
        });
        QElapsedTimer clock;
        if (cancelAfterMs >= 0) {
            QTest::qWait(cancelAfterMs);
            clock.start();
            out.iterationsBeforeCancel = done;
            if (!out.ended)
                m_controller->cancel();
        } else {
            clock.start();
        }
        QElapsedTimer limit;
        limit.start();
        while (!out.ended && limit.elapsed() < 60000)
            QTest::qWait(2);
        out.cancelToEndMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        disconnect(c1);
        disconnect(c2);
        disconnect(c3);
        disconnect(c4);
        return out;
    }
    Outcome run(const Scenario& s) { return startAndCancel(s, -1); }

    bool runToEnd(const Scenario& s)
    {
        const Outcome out = run(s);
        if (!out.result) {
            qWarning("a whole live run did not finish: %s", qPrintable(out.error));
            return false;
        }
        for (const CollectiveRecord& c : out.result->run->collectives)
            if (c.wrongElements != 0)
                return false;
        return !out.result->run->hang.has_value();
    }

    RunController* m_controller = nullptr;
    int m_ranks = 1;
};

QTEST_MAIN(LiveStressTest)
#include "test_live_stress.moc"
