// Clock alignment maths of live mode (shardlab/live_clock.h), with hand-computed values.
#include "shardlab/live/live_clock.h"

#include <gtest/gtest.h>

using namespace shardlab;

TEST(LiveClock, TheNarrowestBracketWinsAndBoundsTheError)
{
    // host before/after around three GPU readings; the second is the tightest (600 ns wide)
    const std::vector<ClockSample> samples = {
        {1000, 3000, 500'000},   // 2000 ns bracket
        {5000, 5600, 504'100},   // 600 ns: midpoint 5300
        {9000, 10'000, 508'200}, // 1000 ns
        {12'000, 11'000, 0},     // negative bracket: ignored
    };
    const ClockFit fit = fitClock(samples, 32);
    ASSERT_TRUE(fit.valid());
    EXPECT_DOUBLE_EQ(fit.gpuNs, 504'100);
    EXPECT_DOUBLE_EQ(fit.hostNs, 5300);
    EXPECT_DOUBLE_EQ(fit.errorNs, 300 + 32);
    EXPECT_FALSE(fitClock({}, 32).valid());
}

TEST(LiveClock, TimerTickIsTheSmallestStep)
{
    EXPECT_DOUBLE_EQ(timerResolutionNs({100, 100, 132, 132, 164, 1164}), 32);
    EXPECT_DOUBLE_EQ(timerResolutionNs({7, 7, 7}), 0);
}

TEST(LiveClock, TwoFitsCorrectDrift)
{
    // GPU timer runs 10 ppm slow: 1 s of host time is 0.99999 s of GPU time.
    const ClockFit a{1'000'000'000.0, 5'000'000'000.0, 400};
    const ClockFit b{1'999'990'000.0, 6'000'000'000.0, 800};
    const ClockMap map(a, b);
    EXPECT_NEAR(map.driftPpm(), 10.0001, 1e-3);
    EXPECT_DOUBLE_EQ(map.toHostNs(a.gpuNs), 5'000'000'000.0);
    EXPECT_NEAR(map.toHostNs(b.gpuNs), 6'000'000'000.0, 1e-3);
    // half way in GPU time is half way in host time
    EXPECT_NEAR(map.toHostNs(1'499'995'000.0), 5'500'000'000.0, 1e-3);
    EXPECT_DOUBLE_EQ(map.errorNs(), 800);
    // Without drift correction the middle would be off by 5 us: more than the 5 us target.
    const ClockMap offsetOnly(a);
    EXPECT_NEAR(offsetOnly.toHostNs(1'499'995'000.0) - 5'500'000'000.0, -5000, 1e-3);
}

TEST(LiveClock, FitsTooCloseKeepAConstantOffset)
{
    const ClockFit a{1000, 2000, 100};
    const ClockFit b{1500, 2600, 100}; // 500 ns apart: no drift information
    const ClockMap map(a, b);
    EXPECT_DOUBLE_EQ(map.driftPpm(), 0);
    EXPECT_DOUBLE_EQ(map.toHostNs(11'000), 12'000);
}
