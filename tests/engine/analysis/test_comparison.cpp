#include "../test_helpers.h"

#include "shardlab/analysis/collective_comparison.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::test;

TEST(Comparison, MemoryBytesAndTimesByHand)
{
    CostModel m(nvswitchBox(4), unitProfile());
    const Bytes S = 4'000'000'000ULL;
    const CollectiveComparison c = compareAllReduceWithRsAg(m, {0, 1, 2, 3}, S);
    EXPECT_EQ(c.ranks, 4);
    // held afterwards: S for all-reduce and for the pair, S/4 for reduce-scatter alone
    EXPECT_EQ(c.allReduce.heldAfterPerRank, S);
    EXPECT_EQ(c.reduceScatterOnly.heldAfterPerRank, S / 4);
    EXPECT_EQ(c.reduceScatterAllGather.heldAfterPerRank, S);
    // peak: 2S out of place for all-reduce; S + S/4 for reduce-scatter (then all-gather)
    EXPECT_EQ(c.allReduce.peakPerRank, 2 * S);
    EXPECT_EQ(c.reduceScatterAllGather.peakPerRank, S + S / 4);
    EXPECT_LT(c.reduceScatterAllGather.peakPerRank, c.allReduce.peakPerRank);
    // ring traffic per rank: 2(n-1)/n S = 6 GB either way, 3 GB for reduce-scatter alone
    EXPECT_EQ(c.allReduce.sentPerRank, 6'000'000'000ULL);
    EXPECT_EQ(c.reduceScatterAllGather.sentPerRank, 6'000'000'000ULL);
    EXPECT_EQ(c.reduceScatterOnly.sentPerRank, 3'000'000'000ULL);
    // times (unit profile, 100 GB/s, HBM 1000 GB/s; see test_cost_model): all-reduce 9 + 21 + 60000 us
    // of data stretched by the ring's receive-only last step, x (1 + 2 x 100 / 850 / 6) = 62,352.941
    // us; the pair is the sum of reduce-scatter, 9 + 10.5 + 30000 x (1 + 3 x 100 / 850 / 3), and
    // all-gather, 9 + 10.5 + 30000 x (1 + 2 x 100 / 850 / 3) (docs/cost-model.md, section 3)
    EXPECT_NEAR(c.allReduce.timeUs, 9 + 21 + 60000 * (1 + 2 * 100 / 850.0 / 6), 1e-6);
    EXPECT_NEAR(c.allReduce.timeUs, 62382.941, 0.001);
    EXPECT_NEAR(c.reduceScatterAllGather.timeUs,
                (9 + 10.5 + 30000 * (1 + 3 * 100 / 850.0 / 3)) + (9 + 10.5 + 30000 * (1 + 2 * 100 / 850.0 / 3)), 1e-6);
    EXPECT_NEAR(c.reduceScatterAllGather.timeUs, 65921.353, 0.001);
    EXPECT_FALSE(c.sentence.empty());
}

TEST(Comparison, ExampleValuesShowWhatEachRankHolds)
{
    CostModel m(nvswitchBox(2), unitProfile());
    const CollectiveComparison c = compareAllReduceWithRsAg(m, {0, 1}, 1'000'000);
    // rank 0: 10 11 12 13, rank 1: 20 21 22 23
    EXPECT_EQ(c.allReduce.exampleResult[0], (std::vector<double>{30, 32, 34, 36}));
    EXPECT_EQ(c.reduceScatterOnly.exampleResult[0], (std::vector<double>{30, 32}));
    EXPECT_EQ(c.reduceScatterOnly.exampleResult[1], (std::vector<double>{34, 36}));
    EXPECT_EQ(c.reduceScatterAllGather.exampleResult, c.allReduce.exampleResult);
}
