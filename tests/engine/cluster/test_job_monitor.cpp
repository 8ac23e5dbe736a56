// Failure behaviour (job_monitor.h): what the watcher concludes from heartbeats, and the monitor
// threads over an in-process job where one rank dies.
#include "shardlab/cluster/in_process_job.h"
#include "shardlab/cluster/job_monitor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

using namespace shardlab;

namespace {

Heartbeat beat(int rank, ProcessState state, int last, long long progress = 0)
{
    Heartbeat b;
    b.rank = rank;
    b.state = state;
    b.lastCompleted = last;
    b.progress = progress;
    if (last >= 0)
        b.lastLabel = Message("live.collective.named")
                          .with("op", "all_reduce")
                          .with("name", "grads")
                          .with("step", 2)
                          .with("iteration", last);
    b.host = "node-" + std::to_string(rank / 2);
    return b;
}

MonitorOptions options(double silenceMs = 1000, double stallMs = 0)
{
    MonitorOptions o;
    o.silenceMs = silenceMs;
    o.stallMs = stallMs;
    return o;
}

// A clock the test moves by hand (milliseconds), shared by the monitors of one test.
class TestClock {
public:
    void set(double ms) { m_ms->store(ms); }
    JobMonitor::Clock function() const
    {
        return [ms = m_ms] { return ms->load(); };
    }

private:
    std::shared_ptr<std::atomic<double>> m_ms = std::make_shared<std::atomic<double>>(0.0);
};

// The detector's verdict at `nowMs`, in English (nullopt: nothing to report).
std::optional<std::string> verdictAt(const FailureDetector& d, double nowMs)
{
    if (auto v = d.verdict(nowMs))
        return english(*v);
    return std::nullopt;
}

// Waits until the monitor has completed `cycles` watch cycles (false after a minute: it hangs).
bool waitForCycles(const JobMonitor& monitor, long long cycles)
{
    for (int i = 0; i < 60000; ++i) {
        if (monitor.cycles() >= cycles)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

} // namespace

TEST(JobMonitor, HeartbeatsSurviveTheWire)
{
    Heartbeat b = beat(3, ProcessState::Failed, 7, 12);
    b.activity = Message("live.activity.computing").with("step", 2).with("iteration", 3);
    b.why = Message("job.who.host").with("rank", 3).with("host", "node-1");
    auto back = decodeHeartbeat(encodeHeartbeat(b));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->rank, b.rank);
    EXPECT_EQ(back->state, b.state);
    EXPECT_EQ(back->progress, b.progress);
    EXPECT_EQ(back->lastCompleted, b.lastCompleted);
    EXPECT_EQ(english(back->lastLabel), english(b.lastLabel));
    EXPECT_EQ(english(back->activity), english(b.activity));
    EXPECT_EQ(render(back->activity, Language::Chinese), "正在计算第 2 步（第 3 次迭代）");
    EXPECT_EQ(back->host, b.host);
    EXPECT_EQ(english(back->why), english(b.why));
    EXPECT_EQ(back->why.id, b.why.id);
    EXPECT_EQ(render(back->why, Language::Chinese), render(b.why, Language::Chinese));
    EXPECT_FALSE(decodeHeartbeat(Bytes8{0x01}).ok());
}

TEST(JobMonitor, ASilentRankIsNamedWithItsLastCollective)
{
    FailureDetector d(0, 4, options(1000), 0);
    for (int r = 1; r < 4; ++r)
        d.heard(beat(r, ProcessState::Running, 5, 10), 100);
    d.self(beat(0, ProcessState::Running, 6), 100);
    EXPECT_FALSE(verdictAt(d, 900).has_value());
    d.heard(beat(1, ProcessState::Running, 6, 11), 1000);
    d.heard(beat(3, ProcessState::Running, 6, 11), 1000);
    // rank 2 was last heard at 100 ms
    auto msg = verdictAt(d, 1150);
    ASSERT_TRUE(msg.has_value());
    EXPECT_EQ(msg->rfind("rank 2 (node-1) stopped responding: nothing heard from it for 1.1 s", 0), 0u) << *msg;
    EXPECT_NE(msg->find("its last completed collective was #5 all_reduce 'grads' (step 2, iteration 5)"),
              std::string::npos)
        << *msg;
    EXPECT_NE(msg->find("rank 0 #6, rank 1 #6, rank 2 #5, rank 3 #6"), std::string::npos) << *msg;
    // the same verdict in Chinese, the collective's label included (its process sent it as a message)
    const std::string zh = render(*d.verdict(1150), Language::Chinese);
    EXPECT_EQ(zh.rfind("Rank 2（node-1） 没有响应：已有 1.1 s 没有收到它的消息", 0), 0u) << zh;
    EXPECT_NE(zh.find("它最后完成的 Collective 是 #5 all_reduce“grads”（第 2 步，第 5 次迭代）"), std::string::npos)
        << zh;
    EXPECT_NE(zh.find("Rank 0 #6、Rank 1 #6、Rank 2 #5、Rank 3 #6"), std::string::npos) << zh;
}

TEST(JobMonitor, NobodyHeardFromIsSilentToo)
{
    FailureDetector d(0, 2, options(500), 0);
    auto msg = verdictAt(d, 600);
    ASSERT_TRUE(msg.has_value());
    EXPECT_NE(msg->find("rank 1 stopped responding"), std::string::npos);
    EXPECT_NE(msg->find("it had not completed any collective"), std::string::npos) << *msg;
}

TEST(JobMonitor, OtherRanksWatchOnlyRankZero)
{
    FailureDetector d(2, 4, options(500), 0);
    d.heard(beat(0, ProcessState::Running, 3), 400);
    EXPECT_FALSE(verdictAt(d, 800).has_value()); // ranks 1 and 3 are rank 0's business
    auto msg = verdictAt(d, 1000);
    ASSERT_TRUE(msg.has_value());
    EXPECT_EQ(msg->rfind("rank 0 (node-0) stopped responding", 0), 0u) << *msg;
}

TEST(JobMonitor, LeavingIsNotDying)
{
    FailureDetector d(0, 2, options(500), 0);
    d.heard(beat(1, ProcessState::Leaving, 9), 100);
    EXPECT_FALSE(verdictAt(d, 5000).has_value());
}

TEST(JobMonitor, AFailedRankIsReportedWithItsReason)
{
    FailureDetector d(0, 3, options(1000), 0);
    d.heard(beat(1, ProcessState::Running, 2), 10);
    Heartbeat f = beat(2, ProcessState::Failed, 1);
    f.why = verbatim("cudaMalloc of 8 GB failed: out of memory");
    d.heard(f, 10);
    auto msg = verdictAt(d, 20);
    ASSERT_TRUE(msg.has_value());
    EXPECT_EQ(
        msg->rfind("rank 2 (node-1) failed: cudaMalloc of 8 GB failed: out of memory; its last completed collective "
                   "was #1",
                   0),
        0u)
        << *msg;
}

TEST(JobMonitor, AStallNamesTheRankFurthestBehind)
{
    FailureDetector d(0, 3, options(1000, 5000), 0);
    d.heard(beat(1, ProcessState::Running, 8, 20), 100);
    Heartbeat stuck = beat(2, ProcessState::Running, 7, 19);
    stuck.activity = Message("live.activity.in")
                         .with("collective", Message("live.collective.named")
                                                 .with("op", "all_reduce")
                                                 .with("name", "grads")
                                                 .with("step", 2)
                                                 .with("iteration", 8));
    d.heard(stuck, 100);
    d.self(beat(0, ProcessState::Running, 8, 20), 100);
    // beats keep coming (alive), progress does not move
    for (double t = 200; t <= 5000; t += 100) {
        d.heard(beat(1, ProcessState::Running, 8, 20), t);
        d.heard(stuck, t);
    }
    EXPECT_FALSE(verdictAt(d, 5000).has_value());
    auto msg = verdictAt(d, 5200);
    ASSERT_TRUE(msg.has_value());
    EXPECT_EQ(msg->rfind("rank 2 (node-1) seems hung: no running rank has made progress for 5.1 s", 0), 0u) << *msg;
    EXPECT_NE(msg->find("its last completed collective was #7"), std::string::npos);
    EXPECT_NE(msg->find("it is in all_reduce 'grads' (step 2, iteration 8)"), std::string::npos) << *msg;
    // progress anywhere resets it
    d.heard(beat(1, ProcessState::Running, 9, 21), 5300);
    EXPECT_FALSE(verdictAt(d, 5400).has_value());
}

TEST(JobMonitor, RanksWhoseProgramEndedAreNotHung)
{
    // Ranks 1 and 2 have ended (keeping their communicators until rank 0 has too) and make no
    // more progress: that is not a stall.
    FailureDetector d(0, 3, options(1000, 5000), 0);
    for (double t = 100; t <= 9000; t += 100) {
        d.heard(beat(1, ProcessState::Finishing, 8, 20), t);
        d.heard(beat(2, ProcessState::Finishing, 7, 19), t);
    }
    EXPECT_FALSE(verdictAt(d, 9000).has_value());
    // the same beats saying Running are a stall: what makes this test able to fail
    FailureDetector running(0, 3, options(1000, 5000), 0);
    for (double t = 100; t <= 9000; t += 100) {
        running.heard(beat(1, ProcessState::Running, 8, 20), t);
        running.heard(beat(2, ProcessState::Running, 7, 19), t);
    }
    EXPECT_TRUE(verdictAt(running, 9000).has_value());
}

TEST(JobMonitor, RankZeroStillCompletingCollectivesAloneIsNotHung)
{
    // Ranks 1 and 2 ended early; rank 0, the last one running, goes on completing collectives
    // for longer than the stall limit (a pipeline's first stage ends the step). Found live: a
    // TP 2 x PP 2 plan on four processes was ended as hung 30 s into its last collective.
    FailureDetector d(0, 3, options(1000, 5000), 0);
    int done = 20;
    for (double t = 100; t <= 20000; t += 100) {
        d.heard(beat(1, ProcessState::Finishing, 30, 30), t);
        d.heard(beat(2, ProcessState::Finishing, 30, 30), t);
        if (static_cast<int>(t) % 1000 == 0)
            ++done; // one collective a second
        d.self(beat(0, ProcessState::Running, done, done), t);
        ASSERT_FALSE(verdictAt(d, t).has_value()) << "at " << t << " ms: " << *verdictAt(d, t);
    }
    // and when rank 0 itself stops progressing for the stall limit, it is named
    for (double t = 20100; t <= 25100; t += 100) {
        d.heard(beat(1, ProcessState::Finishing, 30, 30), t);
        d.heard(beat(2, ProcessState::Finishing, 30, 30), t);
        d.self(beat(0, ProcessState::Running, done, done), t);
    }
    auto msg = verdictAt(d, 25100);
    ASSERT_TRUE(msg.has_value());
    EXPECT_EQ(msg->rfind("rank 0 (node-0) seems hung: no running rank has made progress for 5.1 s", 0), 0u) << *msg;
}

TEST(JobMonitor, NoRankGoesOnBeforeEveryRanksProgramHasEnded)
{
    // Three ranks end their programs in the order 1, 0, 2 (rank 2 much later). None may return
    // from endTogether() before rank 2 has ended: rank 1 waits for rank 0, which waits for rank 2.
    InProcessJob job(3);
    MonitorOptions o = options(60'000);
    o.beatIntervalMs = 5;
    std::vector<RankProgress> progress(3);
    std::vector<std::unique_ptr<JobMonitor>> monitors;
    for (int r = 0; r < 3; ++r) {
        monitors.push_back(std::make_unique<JobMonitor>(job.transport(r), progress[static_cast<size_t>(r)],
                                                        "host" + std::to_string(r), o, [](const Message&) {}));
        monitors.back()->setState(ProcessState::Running);
    }
    std::atomic<bool> lastEnded{false};
    std::vector<int> sawLastEnded(3, -1), together(3, -1);
    auto end = [&](int r) {
        if (r == 2) {
            std::this_thread::sleep_for(std::chrono::milliseconds(300)); // a slow last rank
            lastEnded = true;
        }
        together[static_cast<size_t>(r)] = monitors[static_cast<size_t>(r)]->endTogether(60'000);
        sawLastEnded[static_cast<size_t>(r)] = lastEnded.load();
    };
    std::thread one(end, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::thread zero(end, 0), two(end, 2);
    one.join();
    zero.join();
    two.join();
    for (auto& m : monitors)
        m->stop();
    EXPECT_EQ(sawLastEnded, (std::vector<int>{1, 1, 1}));
    EXPECT_EQ(together, (std::vector<int>{1, 1, 1}));
}

TEST(JobMonitor, EndingTogetherStopsWaitingWhenTheWatchEnds)
{
    // Rank 1 waits for rank 0, which never ends: the job is aborted (as a failure report does),
    // the watch ends, and endTogether() returns false instead of waiting out its minute.
    InProcessJob job(2);
    MonitorOptions o = options(60'000);
    o.beatIntervalMs = 5;
    RankProgress p0, p1;
    JobMonitor m0(job.transport(0), p0, "a", o, [](const Message&) {});
    JobMonitor m1(job.transport(1), p1, "b", o, [](const Message&) {});
    m0.setState(ProcessState::Running);
    std::thread abort([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        job.transport(0).abort(3);
    });
    EXPECT_FALSE(m1.endTogether(60'000));
    abort.join();
}

TEST(JobMonitor, ADeadRankEndsTheJobWithinTheDeadline)
{
    // Four ranks with monitors on one clock of the test's own; rank 2 completes collective #3 and
    // dies. Rank 0 must report it once the silence deadline has passed on that clock, and not
    // before, naming rank 2 and #3; nobody else reports. No assertion depends on how fast the
    // machine is: the test moves the clock and waits for the monitors' cycles.
    InProcessJob job(4);
    MonitorOptions o = options(600);
    o.beatIntervalMs = 20;
    TestClock clock;
    std::vector<RankProgress> progress(4);
    std::mutex m;
    std::vector<std::pair<int, std::string>> reports;
    std::vector<std::unique_ptr<JobMonitor>> monitors;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c <= 3; ++c)
            progress[static_cast<size_t>(r)].collectiveCompleted(c,
                                                                 verbatim("all_reduce 'grads' #" + std::to_string(c)));
        monitors.push_back(std::make_unique<JobMonitor>(
            job.transport(r), progress[static_cast<size_t>(r)], "host" + std::to_string(r), o,
            [&, r](const Message& msg) {
                std::lock_guard lock(m);
                reports.emplace_back(r, english(msg));
                job.transport(r).abort(3);
            },
            clock.function()));
        monitors.back()->setState(ProcessState::Running);
    }
    // Every rank has sent beats, and rank 0 has heard them at time 0.
    for (int r : {1, 2, 3})
        ASSERT_TRUE(waitForCycles(*monitors[static_cast<size_t>(r)], 2));
    ASSERT_TRUE(waitForCycles(*monitors[0], monitors[0]->cycles() + 2));
    for (int r : {0, 1, 3})
        progress[static_cast<size_t>(r)].collectiveCompleted(4, verbatim("all_reduce 'grads' #4"));
    job.kill(2);
    // Rank 0 takes in what rank 2 sent before it died, still at time 0 (a beat read later would be
    // heard later, and its silence would start then).
    ASSERT_TRUE(waitForCycles(*monitors[0], monitors[0]->cycles() + 2));
    // Time moves on in steps of 100 ms; after each, ranks 1 and 3 beat again and rank 0 hears
    // them, so only rank 2 falls silent. 500 ms of silence is within the 600 ms deadline.
    const auto step = [&](double nowMs) {
        clock.set(nowMs);
        for (int r : {1, 3})
            if (!waitForCycles(*monitors[static_cast<size_t>(r)], monitors[static_cast<size_t>(r)]->cycles() + 2))
                return false;
        return waitForCycles(*monitors[0], monitors[0]->cycles() + 2);
    };
    for (double t = 100; t <= 500; t += 100)
        ASSERT_TRUE(step(t)) << "at " << t << " ms";
    {
        std::lock_guard lock(m);
        EXPECT_TRUE(reports.empty()) << "reported within the deadline: " << reports[0].second;
    }
    EXPECT_FALSE(job.aborted().has_value());
    // 700 ms of silence: past the deadline.
    clock.set(700);
    for (int i = 0; i < 60000 && !job.aborted(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (auto& mon : monitors)
        mon->stop();
    ASSERT_TRUE(job.aborted().has_value()) << "rank 0 did not report rank 2 after 700 ms of silence";
    EXPECT_EQ(job.aborted()->first, 0);
    EXPECT_EQ(job.aborted()->second, 3);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].first, 0);
    EXPECT_EQ(reports[0].second.rfind("rank 2 (host2) stopped responding: nothing heard from it for 0.7 s", 0), 0u)
        << reports[0].second;
    EXPECT_NE(reports[0].second.find("its last completed collective was #3 all_reduce 'grads' #3"), std::string::npos)
        << reports[0].second;
    EXPECT_NE(reports[0].second.find("rank 1 #4, rank 2 #3, rank 3 #4"), std::string::npos) << reports[0].second;
}

namespace {

// Rank 1 of two leaves (saying goodbye, or vanishing without a word) and rank 0 then watches
// until 5 s on the test's clock, far past the 300 ms silence deadline. Returns how many failures
// rank 0 reported.
int reportsAfterRankOneLeaves(bool sayGoodbye)
{
    InProcessJob job(2);
    MonitorOptions o = options(300);
    o.beatIntervalMs = 20;
    TestClock clock;
    RankProgress p0, p1;
    std::atomic<int> failures{0};
    JobMonitor m0(
        job.transport(0), p0, "a", o, [&](const Message&) { ++failures; }, clock.function());
    {
        JobMonitor m1(
            job.transport(1), p1, "b", o, [&](const Message&) { ++failures; }, clock.function());
        EXPECT_TRUE(waitForCycles(m1, 2));
        if (!sayGoodbye)
            job.kill(1);                             // gone before it could say goodbye
    }                                                // rank 1 leaves: a goodbye is on its way to rank 0
    EXPECT_TRUE(waitForCycles(m0, m0.cycles() + 2)); // heard
    clock.set(5000);
    // judged at 5 s: either a report, which ends rank 0's watch, or two more quiet cycles
    const long long judged = m0.cycles() + 2;
    for (int i = 0; i < 60000 && !m0.failed() && m0.cycles() < judged; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    m0.stop();
    return failures.load();
}

} // namespace

TEST(JobMonitor, StoppingSaysGoodbye)
{
    // The goodbye keeps rank 0 from taking the exit for a death.
    EXPECT_EQ(reportsAfterRankOneLeaves(true), 0);
}

TEST(JobMonitor, ASilentExitIsADeath)
{
    // Without it (the process vanished) rank 0 reports rank 1 once the deadline has passed. This
    // is what makes the test above able to fail.
    EXPECT_EQ(reportsAfterRankOneLeaves(false), 1);
}
