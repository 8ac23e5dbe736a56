// Two runs side by side (issue 29): the difference of lesson 2's pair, replicated against ZeRO-3,
// from their summaries and programs; a run against itself differs in nothing.
#include "../test_helpers.h"

#include "shardlab/analysis/run_difference.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {

Summary summaryOf(const Scenario& s)
{
    auto run = simulate(s);
    EXPECT_TRUE(run.ok());
    return summarize(s, *run);
}

double meanComm(const Summary& s)
{
    double sum = 0;
    for (const RankBreakdown& r : s.perRank)
        sum += r.commMs;
    return sum / static_cast<double>(s.perRank.size());
}

} // namespace

TEST(RunDifference, ZeroThreeAgainstReplicatedNamesTheGathersAndTheMemory)
{
    const Scenario a = test::loadExample("capacity-replicate-24gb.shardlab.json");
    const Scenario b = test::loadExample("capacity-zero3-24gb.shardlab.json");
    const Summary sa = summaryOf(a), sb = summaryOf(b);
    const RunDifference d = runDifference(a, sa, b, sb, "replicated", "ZeRO-3");
    EXPECT_EQ(d.stepMsA, sa.stepTimeMs);
    EXPECT_EQ(d.stepMsB, sb.stepTimeMs);
    EXPECT_DOUBLE_EQ(d.commMsB - d.commMsA, meanComm(sb) - meanComm(sa));
    // the programs, counted by hand: replicated has one all-reduce; ZeRO-3 gathers the parameters
    // before the forward and the backward pass and reduce-scatters the gradients
    const std::vector<std::pair<OpKind, int>> change{
        {OpKind::AllReduce, -1}, {OpKind::AllGather, 2}, {OpKind::ReduceScatter, 1}};
    EXPECT_EQ(d.collectives, change);
    // 24 GB replicated on every GPU against a quarter of it (and its buffers)
    ASSERT_TRUE(d.peakA && d.peakB);
    EXPECT_GE(*d.peakA, 24'000'000'000ULL);
    EXPECT_LT(*d.peakB, *d.peakA / 2);
    const std::string sentence = english(d.message);
    EXPECT_NE(sentence.find("ZeRO-3 against replicated: step "), std::string::npos) << sentence;
    EXPECT_NE(sentence.find("per iteration -1 All-Reduce, +2 All-Gather, +1 Reduce-Scatter"), std::string::npos)
        << sentence;
    EXPECT_NE(
        sentence.find("peak memory per GPU " + formatBytes(*d.peakB) + " against " + formatBytes(*d.peakA) + " (-"),
        std::string::npos)
        << sentence;
    // the step's change, in percent of A's step
    const double stepChange = (sb.stepTimeMs - sa.stepTimeMs) / sa.stepTimeMs;
    ASSERT_GT(stepChange, 0);
    EXPECT_NE(sentence.find("(+" + formatPercent(stepChange) + ")"), std::string::npos) << sentence;
    // and in Chinese
    const std::string zh = render(d.message, Language::Chinese);
    EXPECT_NE(zh.find("ZeRO-3 对比 replicated"), std::string::npos) << zh;
    EXPECT_NE(zh.find("每次迭代 -1 All-Reduce"), std::string::npos) << zh;
}

TEST(RunDifference, ARunAgainstItselfDiffersInNothing)
{
    const Scenario a = test::loadExample("straggler-12-6-4-2.shardlab.json");
    const Summary sa = summaryOf(a);
    const RunDifference d = runDifference(a, sa, a, sa, "A", "B");
    EXPECT_TRUE(d.collectives.empty());
    const std::string sentence = english(d.message);
    EXPECT_NE(sentence.find("(+0%)"), std::string::npos) << sentence;
    EXPECT_NE(sentence.find("exposed communication +0.00 ms per rank"), std::string::npos) << sentence;
    EXPECT_NE(sentence.find("the same collectives per iteration"), std::string::npos) << sentence;
    EXPECT_NE(sentence.find("(+0 B)"), std::string::npos) << sentence;
}

TEST(RunDifference, CollectivesAreCountedPerKindInTheCataloguesOrder)
{
    const Scenario b = test::loadExample("capacity-zero3-24gb.shardlab.json");
    const std::vector<std::pair<OpKind, int>> counts{{OpKind::AllGather, 2}, {OpKind::ReduceScatter, 1}};
    EXPECT_EQ(collectiveCounts(b), counts);
}
