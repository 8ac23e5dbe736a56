// The consequences of choosing the wrong collective, on example values (semantics.h), and the
// comparison's measured times.
#include "../test_helpers.h"

#include "shardlab/analysis/collective_choice.h"
#include "shardlab/analysis/collective_comparison.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_measure.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::test;

TEST(CollectiveChoice, AllReduceWhereAllGatherWasNeededSumsWhatShouldBeConcatenated)
{
    // rank r holds 10(r+1), 10(r+1)+1: [10, 11], [20, 21], [30, 31], [40, 41]
    const ChoiceConsequence c = consequenceOfChoosing(OpKind::AllReduce, Need::ConcatenationOnEveryRank, 4, 1'000'000);
    EXPECT_EQ(c.right, OpKind::AllGather);
    EXPECT_FALSE(c.correct);
    EXPECT_TRUE(c.rejected.empty());
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(c.got[static_cast<size_t>(r)], (std::vector<double>{100, 104}));
        EXPECT_EQ(c.expected[static_cast<size_t>(r)], (std::vector<double>{10, 11, 20, 21, 30, 31, 40, 41}));
    }
    EXPECT_NE(c.sentence.find("[100, 104] (2 values) instead of [10, 11, 20, 21, 30, 31, 40, 41] (8 values)"),
              std::string::npos)
        << c.sentence;
    EXPECT_NE(c.sentence.find("added together"), std::string::npos);
    // per rank, for a 1 MB piece each: all-gather holds 4 MB and sends 3 MB; all-reduce 1 MB and 1.5 MB
    EXPECT_EQ(c.heldRight, 4'000'000u);
    EXPECT_EQ(c.sentRight, 3'000'000u);
    EXPECT_EQ(c.heldChosen, 1'000'000u);
    EXPECT_EQ(c.sentChosen, 1'500'000u);
}

TEST(CollectiveChoice, UnequalPiecesAreRejectedByAllReduce)
{
    const ChoiceConsequence c = consequenceOfChoosing(OpKind::AllReduce, Need::ConcatenationOnEveryRank, 3, 1000, true);
    EXPECT_EQ(c.right, OpKind::AllGatherV);
    EXPECT_FALSE(c.correct);
    EXPECT_NE(c.rejected.find("rank 1"), std::string::npos) << c.rejected;
    EXPECT_EQ(c.expected[2], (std::vector<double>{10, 20, 21, 30, 31, 32}));
    EXPECT_NE(c.sentence.find("Use All-Gather (unequal sizes)"), std::string::npos) << c.sentence;
}

TEST(CollectiveChoice, OtherWrongAndWastefulChoices)
{
    // reduce where every rank needs the sum: ranks other than the root keep their inputs
    ChoiceConsequence c = consequenceOfChoosing(OpKind::Reduce, Need::SumOnEveryRank, 2, 100);
    EXPECT_FALSE(c.correct);
    EXPECT_EQ(c.got[0], (std::vector<double>{30, 32}));
    EXPECT_EQ(c.got[1], (std::vector<double>{20, 21}));
    EXPECT_NE(c.sentence.find("only the root"), std::string::npos);
    // all-gather where the sum was needed
    c = consequenceOfChoosing(OpKind::AllGather, Need::SumOnEveryRank, 2, 100);
    EXPECT_FALSE(c.correct);
    EXPECT_NE(c.sentence.find("side by side"), std::string::npos);
    // all-reduce where each rank needs only its slice: right values, but 4x the memory and 2x the traffic
    c = consequenceOfChoosing(OpKind::AllReduce, Need::SliceOfSumOnEveryRank, 4, 4'000'000);
    EXPECT_TRUE(c.correct);
    EXPECT_EQ(c.heldChosen, 4'000'000u);
    EXPECT_EQ(c.heldRight, 1'000'000u);
    EXPECT_EQ(c.sentChosen, 6'000'000u);
    EXPECT_EQ(c.sentRight, 3'000'000u);
    EXPECT_NE(c.sentence.find("at a cost"), std::string::npos) << c.sentence;
    // the right choice says so
    c = consequenceOfChoosing(OpKind::ReduceScatter, Need::SliceOfSumOnEveryRank, 4, 4'000'000);
    EXPECT_TRUE(c.correct);
    EXPECT_NE(c.sentence.find("delivers"), std::string::npos);
    // broadcast where the sum was needed on one rank: the others' contributions are lost
    c = consequenceOfChoosing(OpKind::Broadcast, Need::SumOnOneRank, 3, 10);
    EXPECT_FALSE(c.correct);
    EXPECT_NE(c.sentence.find("lost"), std::string::npos);
}

TEST(MeasuredComparison, MeasuredTimesAreFilledFromTheMeasurement)
{
    CostModel m(nvswitchBox(4), unitProfile());
    CollectiveComparison c = compareAllReduceWithRsAg(m, {0, 1, 2, 3}, 1'000'000);
    std::vector<std::pair<OpKind, Bytes>> asked;
    const SweepMeasure fake = [&](OpKind k, int gpus,
                                  const std::vector<Bytes>& sizes) -> Result<std::vector<SweepRow>> {
        EXPECT_EQ(gpus, 4);
        asked.push_back({k, sizes.at(0)});
        SweepRow r;
        r.bytes = sizes[0];
        r.timeUs = k == OpKind::AllReduce ? 100 : k == OpKind::ReduceScatter ? 45 : 50;
        return std::vector<SweepRow>{r};
    };
    ASSERT_TRUE(fillMeasuredTimes(c, fake).ok());
    EXPECT_EQ(asked.size(), 3u);
    EXPECT_DOUBLE_EQ(*c.allReduce.measuredUs, 100);
    EXPECT_DOUBLE_EQ(*c.reduceScatterOnly.measuredUs, 45);
    EXPECT_DOUBLE_EQ(*c.reduceScatterAllGather.measuredUs, 95);

    CollectiveComparison d = compareAllReduceWithRsAg(m, {0, 1, 2, 3}, 1'000'000);
    const SweepMeasure failing = [](OpKind, int, const std::vector<Bytes>&) -> Result<std::vector<SweepRow>> {
        return badInput(verbatim("no GPU here"));
    };
    const Status st = fillMeasuredTimes(d, failing);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "no GPU here");
    EXPECT_FALSE(d.allReduce.measuredUs.has_value());
    // without live mode in this build, the live measurement explains itself
    if (!liveBuiltIn()) {
        const Status live = fillMeasuredTimes(d, liveSweepMeasure());
        ASSERT_FALSE(live.ok());
        EXPECT_NE(live.error().message.find("live mode"), std::string::npos);
    }
}
