// Clock alignment (clock_sync.h): Cristian's estimate and its bound, drift, applying offsets, and
// the ping-pong protocol over an in-process job whose ranks have known clock offsets.
#include "shardlab/cluster/clock_sync.h"
#include "shardlab/cluster/in_process_job.h"

#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>

using namespace shardlab;

namespace {
// An exchange with one-way delays `forward` and `back` against a peer whose clock is root + offset.
PingSample exchange(double sendUs, double forward, double back, double offset)
{
    return {sendUs, sendUs + forward + offset, sendUs + forward + back};
}
} // namespace

TEST(ClockSync, CristianByHand)
{
    // sent at 100, 5 us out, 3 us back, true offset 1000: remote = 1105, back at 108;
    // estimate = 1105 - (100 + 108) / 2 = 1001, off by (5 - 3) / 2 = 1 <= round trip / 2 = 4.
    auto o = estimateOffset({exchange(100, 5, 3, 1000)});
    ASSERT_TRUE(o.ok());
    EXPECT_DOUBLE_EQ(o->offsetUs, 1001);
    EXPECT_DOUBLE_EQ(o->errorUs, 4);
    EXPECT_DOUBLE_EQ(o->atUs, 104);
}

TEST(ClockSync, TheSmallestRoundTripWins)
{
    auto o = estimateOffset({exchange(0, 40, 2, -500), exchange(100, 2, 1, -500), exchange(200, 1, 30, -500)});
    ASSERT_TRUE(o.ok());
    EXPECT_DOUBLE_EQ(o->offsetUs, -500 + 0.5);
    EXPECT_DOUBLE_EQ(o->errorUs, 1.5);
    EXPECT_EQ(o->samples, 3);
}

TEST(ClockSync, NoSampleOrTimeGoingBackwardsIsAnError)
{
    EXPECT_FALSE(estimateOffset({}).ok());
    EXPECT_FALSE(estimateOffset({{100, 50, 90}}).ok());
}

TEST(ClockSync, TheBoundHoldsUnderJitter)
{
    // Random one-way delays (queueing adds up to 200 us to either direction): the estimate is
    // always within its stated bound, and the bound shrinks with more exchanges.
    std::mt19937_64 rng(11);
    std::exponential_distribution<double> queue(1 / 30.0);
    for (int trial = 0; trial < 200; ++trial) {
        const double offset = std::uniform_real_distribution<double>(-1e9, 1e9)(rng);
        std::vector<PingSample> samples;
        for (int i = 0; i < 16; ++i)
            samples.push_back(
                exchange(1e6 + 1000 * i, 2 + std::min(queue(rng), 200.0), 2 + std::min(queue(rng), 200.0), offset));
        auto o = estimateOffset(samples);
        ASSERT_TRUE(o.ok());
        EXPECT_LE(std::fabs(o->offsetUs - offset), o->errorUs + 1e-6) << trial;
        EXPECT_GE(o->errorUs, 2.0); // no better than the fixed delays allow
    }
}

TEST(ClockSync, DriftIsInterpolated)
{
    // The peer's clock runs 20 ppm fast: offset 1000 us at root time 0, 1000 + 20 at 1e6 us.
    ProcessClockFit f;
    f.before = {1000, 1, 0, 8};
    f.after = ClockOffset{1020, 2, 1e6, 8};
    EXPECT_NEAR(f.driftPpm(), 20, 1e-9);
    EXPECT_DOUBLE_EQ(f.errorUs(), 2);
    // A local time L maps to root t with L = t + 1000 + 20e-6 t.
    for (double t : {0.0, 250e3, 1e6}) {
        const double local = t + 1000 + 20e-6 * t;
        EXPECT_NEAR(f.toRoot(local), t, 1e-6);
    }
    // Two measurements too close together: their mean, with the disagreement in the bound.
    ProcessClockFit close;
    close.before = {1000, 1, 0, 8};
    close.after = ClockOffset{1004, 1, 10, 8};
    EXPECT_DOUBLE_EQ(close.toRoot(5000), 5000 - 1002);
    EXPECT_DOUBLE_EQ(close.errorUs(), 1 + 2);
    EXPECT_DOUBLE_EQ(close.driftPpm(), 0);
    // One measurement: a constant offset.
    EXPECT_DOUBLE_EQ(exactClock(-7).toRoot(3), 10);
}

TEST(ClockSync, ApplyMovesEveryTime)
{
    RunResult run;
    run.spans.push_back({.rank = 0, .kind = SpanKind::Compute, .beginUs = 110, .endUs = 120});
    CollectiveRecord c;
    c.group = {0, 1};
    c.arrivalUs = {120, std::nan("")};
    c.startUs = 120;
    c.endUs = 130;
    run.collectives.push_back(c);
    run.iterations.push_back({100, 130});
    applyClockFit(run, exactClock(100));
    EXPECT_DOUBLE_EQ(run.spans[0].beginUs, 10);
    EXPECT_DOUBLE_EQ(run.spans[0].endUs, 20);
    EXPECT_DOUBLE_EQ(run.collectives[0].arrivalUs[0], 20);
    EXPECT_TRUE(std::isnan(run.collectives[0].arrivalUs[1]));
    EXPECT_DOUBLE_EQ(run.collectives[0].endUs, 30);
    EXPECT_DOUBLE_EQ(run.iterations[0].beginUs, 0);
}

TEST(ClockSync, PingPongOverAnInProcessJob)
{
    // Three ranks whose clocks are the steady clock shifted by known offsets; the measured
    // offsets must be within their own bounds of the truth.
    const std::vector<double> truth = {0, 12'345.5, -987'654.25};
    InProcessJob job(3);
    std::vector<Result<std::vector<ClockOffset>>> results(3, std::vector<ClockOffset>{});
    std::vector<std::thread> threads;
    for (int r = 0; r < 3; ++r)
        threads.emplace_back([&, r] {
            const Clock clock = [&truth, r] { return processClockUs() + truth[static_cast<size_t>(r)]; };
            results[static_cast<size_t>(r)] = measureClockOffsets(job.transport(r), clock, 16, deadlineIn(30'000));
        });
    for (auto& t : threads)
        t.join();
    for (auto& r : results)
        ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(results[0]->size(), 3u);
    EXPECT_TRUE(results[1]->empty());
    EXPECT_DOUBLE_EQ((*results[0])[0].offsetUs, 0);
    for (int r = 1; r < 3; ++r) {
        const ClockOffset& o = (*results[0])[static_cast<size_t>(r)];
        EXPECT_EQ(o.samples, 16);
        EXPECT_LE(std::fabs(o.offsetUs - truth[static_cast<size_t>(r)]), o.errorUs + 1e-6) << "rank " << r;
    }
    const std::vector<ProcessClockFit> fits = {exactClock(0), ProcessClockFit{(*results[0])[1], std::nullopt}};
    EXPECT_NE(clockNote(fits, 16, "test").find("residual error <="), std::string::npos);
    EXPECT_EQ(clockNote(fits, 16, "test"), english(clockMessage(fits, 16, "test")));
    const std::string zh = render(clockMessage(fits, 16, "test"), Language::Chinese);
    EXPECT_NE(zh.find("剩余误差 <="), std::string::npos) << zh;
    EXPECT_EQ(untranslatedWords(zh, {"test"}), std::vector<std::string>{}) << zh;
}

TEST(ClockSync, ASilentPeerIsNamed)
{
    InProcessJob job(2);
    auto r = measureClockOffsets(job.transport(0), processClockUs, 4, deadlineIn(50));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("to rank 1 and got no answer"), std::string::npos) << r.error().message;
}

TEST(ClockSync, AHeldOffsetIsBoundedByTheSecondMeasurement)
{
    // before: offset 100 us +- 2; after: 103.5 us +- 1.5. Held at 100 through the run, the offset
    // is off by at most |103.5 - 100| + 1.5 + 2 * 2 = 9 us.
    ProcessClockFit fit;
    fit.before = {100, 2, 0, 8};
    fit.after = ClockOffset{103.5, 1.5, 1e6, 8};
    EXPECT_DOUBLE_EQ(heldErrorUs(fit), 9.0);
    const ProcessClockFit held = heldBefore(fit);
    EXPECT_FALSE(held.after.has_value());
    EXPECT_DOUBLE_EQ(held.toRoot(1100), 1000); // the first offset, unchanged through the run
    EXPECT_DOUBLE_EQ(heldErrorUs(held), 2.0);  // without a second measurement: the first's error
    ProcessClockFit rank1 = fit;
    rank1.after->offsetUs = 100.5; // 0.5 + 1.5 + 4 = 6 us
    const std::string note = heldClockNote({exactClock(0), rank1, fit}, 32, "MPI");
    EXPECT_NE(note.find("clocks of 3 processes aligned to rank 0's by 32 ping-pongs each over MPI before the run"),
              std::string::npos)
        << note;
    EXPECT_NE(note.find("held through it"), std::string::npos) << note;
    EXPECT_NE(note.find("moved by <= 3.5 us: error <= 9.0 us (rank 2)"), std::string::npos) << note;
}
