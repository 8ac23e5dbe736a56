// The course's worked examples, as the foundation issue lists them, with hand-computed answers.
#include "../test_helpers.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/model/capacity.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/semantics.h"
#include "shardlab/model/strategies.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::test;

TEST(Course, ReplicatedTwentyFourGigabytesDoNotFitSixteenGigabyteCards)
{
    const Scenario s = loadExample("capacity-replicate-24gb.shardlab.json");
    const CapacityReport cap = capacityOf(s);
    ASSERT_EQ(cap.ranks.size(), 4u);
    for (const RankMemory& rm : cap.ranks) {
        EXPECT_EQ(rm.owned, 24'000'000'000ULL);
        EXPECT_FALSE(rm.fits());
        EXPECT_EQ(rm.excess(), 8'000'000'000ULL);
    }
    EXPECT_FALSE(cap.allFit());
    ASSERT_FALSE(cap.warnings.empty());
    EXPECT_NE(cap.warnings[0].find("No rank fits"), std::string::npos);
    // 64 GB in total would hold 24 GB once: the app says to split instead of replicating
    bool suggestsSplit = false;
    for (const auto& w : cap.warnings)
        suggestsSplit = suggestsSplit || w.find("split") != std::string::npos;
    EXPECT_TRUE(suggestsSplit);
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(summarize(s, *run).bottleneck, Bottleneck::Capacity);
}

TEST(Course, ShardedZero3StyleItFitsAtSixGigabytesEach)
{
    const Scenario s = loadExample("capacity-zero3-24gb.shardlab.json");
    const CapacityReport cap = capacityOf(s);
    for (const RankMemory& rm : cap.ranks) {
        EXPECT_EQ(rm.owned, 6'000'000'000ULL);
        EXPECT_TRUE(rm.fits());
    }
    EXPECT_TRUE(cap.allFit());
    // The same placement from the strategy generator, on the replicated scenario.
    Scenario r = loadExample("capacity-replicate-24gb.shardlab.json");
    applyStrategy(r, Strategy::Zero3);
    for (const RankMemory& rm : capacityOf(r).ranks)
        EXPECT_EQ(rm.owned, 6'000'000'000ULL);
}

TEST(Course, FourteenTenAndTwelveTwelveBothFitButOnlyTwelveTwelveIsBalanced)
{
    const Scenario a = loadExample("balance-14-10.shardlab.json");
    const Scenario b = loadExample("balance-12-12.shardlab.json");
    const CapacityReport ca = capacityOf(a), cb = capacityOf(b);
    EXPECT_TRUE(ca.allFit());
    EXPECT_TRUE(cb.allFit());
    EXPECT_NEAR(cb.imbalancePct, 0.0, 1e-9);           // 12.1/12.1 GB with the gradients
    EXPECT_NEAR(ca.imbalancePct, 2000.0 / 121.0, 0.1); // (14.1 - 12.1) / 12.1 GB with the gradients
    bool unbalancedWarning = false;
    for (const auto& w : ca.warnings)
        unbalancedWarning = unbalancedWarning || w.find("unbalanced") != std::string::npos;
    EXPECT_TRUE(unbalancedWarning);
    EXPECT_TRUE(cb.warnings.empty());

    // The 14/10 step is set by the 14 GB rank: 140 ms of compute (3.36 TFLOP x 14/24 at 14 TFLOP/s).
    auto ra = simulate(a);
    auto rb = simulate(b);
    ASSERT_TRUE(ra.ok() && rb.ok());
    const Summary sa = summarize(a, *ra), sb = summarize(b, *rb);
    const double comm = ra->collectives[0].durationUs() / 1e3;
    EXPECT_NEAR(sa.stepTimeMs, 140.0 + comm, 1e-6);
    EXPECT_NEAR(sb.stepTimeMs, 120.0 + comm, 1e-6);
    ASSERT_TRUE(sa.straggler.has_value());
    EXPECT_EQ(*sa.straggler, 0);
    EXPECT_FALSE(sb.straggler.has_value());
    EXPECT_NEAR(sa.perRank[1].waitMs, 40.0, 1e-6);
}

TEST(Course, TwoGpusGiveOnePointSixNotTwo)
{
    const Scenario s = loadExample("speedup-1-6x.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    const Summary sum = summarize(s, *run);
    // one GPU: 4 TFLOP / 10 TFLOP/s = 400 ms; two: 200 ms each
    EXPECT_NEAR(sum.oneGpuMs, 400.0, 1e-9);
    EXPECT_NEAR(sum.perRank[0].computeMs, 200.0, 1e-9);
    // all-reduce of 630 MB on 2 ranks over PCIe at 15.75 GB/s x 0.8: S / 12.6 GB/s = 50 ms, plus
    // launch + base + 2 steps of latency (tens of microseconds)
    const CostProfile p = CostProfile::defaults();
    const double latency = p.launchUs + p.protocol[2].baseUs + 2 * (p.link[1].hopUs[2] + 1.0);
    EXPECT_NEAR(run->collectives[0].durationUs(), 50'000.0 + latency, 1e-6);
    EXPECT_NEAR(sum.stepTimeMs, 250.0, 0.05);
    EXPECT_NEAR(sum.speedup, 1.6, 0.001);
    EXPECT_NEAR(sum.efficiency, 0.8, 0.001);
}

TEST(Course, TwelveSixFourTwoMakesRankZeroTheStraggler)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    const Summary sum = summarize(s, *run);
    ASSERT_TRUE(sum.straggler.has_value());
    EXPECT_EQ(*sum.straggler, 0);
    EXPECT_EQ(sum.bottleneck, Bottleneck::Wait);
    // compute 120/60/40/20 ms: the others wait 60, 80 and 100 ms for rank 0
    const double compute[] = {120, 60, 40, 20};
    for (int r = 0; r < 4; ++r) {
        EXPECT_NEAR(sum.perRank[static_cast<size_t>(r)].computeMs, compute[r], 1e-6);
        EXPECT_NEAR(sum.perRank[static_cast<size_t>(r)].waitMs, compute[0] - compute[r], 1e-6);
    }
    EXPECT_NE(sum.sentence.find("Rank 0 holds 12 GB of 24 GB"), std::string::npos) << sum.sentence;
}

TEST(Course, AFifthGpuMakesASmallCommunicationHeavyJobSlower)
{
    const Scenario four = loadExample("fifth-gpu-4.shardlab.json");
    const Scenario five = loadExample("fifth-gpu-5.shardlab.json");
    auto r4 = simulate(four), r5 = simulate(five);
    ASSERT_TRUE(r4.ok() && r5.ok());
    const Summary s4 = summarize(four, *r4), s5 = summarize(five, *r5);
    EXPECT_LT(s5.perRank[0].computeMs, s4.perRank[0].computeMs); // less compute each...
    EXPECT_GT(s5.stepTimeMs, s4.stepTimeMs);                     // ...but a slower step
    EXPECT_EQ(s5.bottleneck, Bottleneck::Communication);
}

TEST(Course, AllGatherConcatenatesWhereAllReduceSums)
{
    // features of unequal length on three ranks
    const RankValues in = {{1, 2}, {3}, {4, 5, 6}};
    auto gathered = applyCollective(OpKind::AllGatherV, in);
    ASSERT_TRUE(gathered.ok());
    for (const auto& v : *gathered)
        EXPECT_EQ(v, (std::vector<double>{1, 2, 3, 4, 5, 6}));
    // an all-reduce cannot even take unequal pieces...
    auto wrong = applyCollective(OpKind::AllReduce, in);
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().message.find("rank 1"), std::string::npos);
    // ...and on equal pieces it sums what should have been concatenated
    const RankValues eq = {{1, 2}, {3, 4}, {5, 6}};
    auto summed = applyCollective(OpKind::AllReduce, eq);
    ASSERT_TRUE(summed.ok());
    for (const auto& v : *summed)
        EXPECT_EQ(v, (std::vector<double>{9, 12}));
}

TEST(Course, ReduceScatterLeavesOneNthAndUsesLessMemoryThanAllReduce)
{
    const RankValues in = {{1, 2, 3, 4}, {10, 20, 30, 40}, {100, 200, 300, 400}, {1000, 2000, 3000, 4000}};
    auto rs = applyCollective(OpKind::ReduceScatter, in);
    ASSERT_TRUE(rs.ok());
    EXPECT_EQ((*rs)[0], (std::vector<double>{1111}));
    EXPECT_EQ((*rs)[3], (std::vector<double>{4444}));
    auto ar = applyCollective(OpKind::AllReduce, in);
    EXPECT_EQ((*ar)[2], (std::vector<double>{1111, 2222, 3333, 4444}));
    const Bytes S = 8'000'000'000ULL;
    EXPECT_EQ(resultBytesPerRank(OpKind::ReduceScatter, S, 4, false), S / 4);
    EXPECT_EQ(resultBytesPerRank(OpKind::AllReduce, S, 4, false), S);
    EXPECT_LT(resultBytesPerRank(OpKind::ReduceScatter, S, 4, false),
              resultBytesPerRank(OpKind::AllReduce, S, 4, false));
    // reduce-scatter then all-gather gives every rank what all-reduce gives
    auto rsag = applyCollective(OpKind::ReduceScatterAllGather, in);
    EXPECT_EQ(*rsag, *ar);
}

TEST(Course, ChoosingTheCollectiveFromWhatTheNextStepNeeds)
{
    EXPECT_EQ(collectiveFor(Need::SumOnOneRank), OpKind::Reduce);
    EXPECT_EQ(collectiveFor(Need::SumOnEveryRank), OpKind::AllReduce);
    EXPECT_EQ(collectiveFor(Need::SliceOfSumOnEveryRank), OpKind::ReduceScatter);
    EXPECT_EQ(collectiveFor(Need::ConcatenationOnEveryRank), OpKind::AllGather);
    EXPECT_EQ(collectiveFor(Need::ConcatenationOnEveryRank, true), OpKind::AllGatherV);
    EXPECT_EQ(collectiveFor(Need::CopyOfOneRanksData), OpKind::Broadcast);
}

TEST(Course, EightToSixteenGpusCrossesTheNetwork)
{
    const Topology t = *preset("2x8-h100-ib");
    CostModel m(t);
    std::vector<int> eight{0, 1, 2, 3, 4, 5, 6, 7}, sixteen;
    for (int i = 0; i < 16; ++i)
        sixteen.push_back(i);
    const Bytes S = 1ULL << 30;
    const auto c8 = m.collective(OpKind::AllReduce, S, eight);
    const auto c16 = m.collective(OpKind::AllReduce, S, sixteen);
    EXPECT_GT(c16.timeUs, c8.timeUs);
    EXPECT_EQ(t.links[static_cast<size_t>(c16.bottleneckLink)].kind, LinkKind::Network);
}
