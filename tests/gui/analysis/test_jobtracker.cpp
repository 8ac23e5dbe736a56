// JobTracker: the latest job's result arrives on the GUI thread, older and cancelled ones never do,
// and a context destroyed while its jobs finish is never posted to (the race that crashed
// test_presenter when a window closed with an analysis job still running).
#include "analysis/jobtracker.h"

#include <QObject>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using shardlab::gui::JobTracker;

namespace {

// A context object with its tracker inside, as the analysis views hold theirs.
class Holder : public QObject {
public:
    JobTracker jobs{this};
};

} // namespace

class TstJobTracker : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

    void resultArrivesOnTheContextsThread()
    {
        Holder h;
        Qt::HANDLE doneThread = nullptr;
        int value = 0;
        h.jobs.start([](const std::atomic<bool>&) { return 42; },
                     [&](int v) {
                         value = v;
                         doneThread = QThread::currentThreadId();
                     });
        QVERIFY(h.jobs.running());
        QTRY_COMPARE(value, 42);
        QCOMPARE(doneThread, QThread::currentThreadId());
        QVERIFY(!h.jobs.running());
    }

    void aNewerJobSupersedesTheOlder()
    {
        Holder h;
        std::vector<int> seen;
        h.jobs.start(
            [](const std::atomic<bool>&) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                return 1;
            },
            [&](int v) { seen.push_back(v); });
        h.jobs.start([](const std::atomic<bool>&) { return 2; }, [&](int v) { seen.push_back(v); });
        QTRY_COMPARE(seen.size(), size_t(1));
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(seen, std::vector<int>{2});
    }

    void cancelRaisesTheFlagAndDropsTheResult()
    {
        Holder h;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        bool delivered = false;
        h.jobs.start(
            [sawCancel](const std::atomic<bool>& cancel) {
                for (int i = 0; i < 2000 && !cancel.load(); ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                sawCancel->store(cancel.load());
                return 0;
            },
            [&](int) { delivered = true; });
        h.jobs.cancel();
        QVERIFY(!h.jobs.running());
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(sawCancel->load());
        QVERIFY(!delivered);
    }

    void progressArrivesOnTheContextsThreadAndOnlyFromTheLatestJob()
    {
        Holder h;
        std::vector<int> seen;
        bool onGuiThread = true;
        auto first = h.jobs.reporter<int>([&](int v) { seen.push_back(v); });
        h.jobs.start(
            [first](const std::atomic<bool>&) {
                std::this_thread::sleep_for(std::chrono::milliseconds(30));
                first(-1); // superseded by then: dropped
                return 0;
            },
            [](int) {});
        auto second = h.jobs.reporter<int>([&](int v) {
            onGuiThread = onGuiThread && QThread::currentThread() == h.thread();
            seen.push_back(v);
        });
        int result = -1;
        h.jobs.start(
            [second](const std::atomic<bool>&) {
                for (int i = 1; i <= 3; ++i)
                    second(i);
                return 3;
            },
            [&](int v) { result = v; });
        QTRY_COMPARE(result, 3);
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(seen, (std::vector<int>{1, 2, 3}));
        QVERIFY(onGuiThread);
    }

    // Destroy the context at every moment of a job's end, hundreds of times: no crash, and no
    // result or progress delivered to a tracker that no longer exists.
    void contextDestroyedWhileJobsFinish()
    {
        std::atomic<int> delivered{0};
        for (int round = 0; round < 300; ++round) {
            auto* h = new Holder;
            const int spinUs = (round * 37) % 400;
            auto report = h->jobs.reporter<int>([&](int) { ++delivered; });
            h->jobs.start(
                [spinUs, report](const std::atomic<bool>&) {
                    for (int i = 0; i < 4; ++i) {
                        report(i);
                        std::this_thread::sleep_for(std::chrono::microseconds(spinUs / 4));
                    }
                    return std::vector<int>(1000, 7); // a result with a destructor of its own
                },
                [&](std::vector<int>) { ++delivered; });
            std::this_thread::sleep_for(std::chrono::microseconds((round * 53) % 400));
            if (round % 3 == 0)
                QCoreApplication::processEvents(); // sometimes the result is delivered first
            delete h;
        }
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(delivered.load() <= 100 * 5); // only rounds that processed events could see any
    }
};

QTEST_MAIN(TstJobTracker)
#include "test_jobtracker.moc"
