// The practical's fill pattern and the closed form of each collective's result (verification.h).
#include "shardlab/model/verification.h"

#include <gtest/gtest.h>

using namespace shardlab;

TEST(Verification, FillPatternAndAllReduceClosedForm)
{
    EXPECT_DOUBLE_EQ(fillValue(0, 0), 1.0);
    EXPECT_DOUBLE_EQ(fillValue(1, 5), 2.0 + 5.0 / 16);
    EXPECT_DOUBLE_EQ(fillValue(3, 17), 4.0 + 1.0 / 16); // j mod 16
    // two ranks: 1 + 2 = 3 plus 2 * j/16; four ranks: 10 plus 4 * j/16
    EXPECT_DOUBLE_EQ(allReduceExpected(2, 0), 3.0);
    EXPECT_DOUBLE_EQ(allReduceExpected(2, 5), 3.625);
    EXPECT_DOUBLE_EQ(allReduceExpected(4, 15), 10.0 + 4 * 15.0 / 16);
}

TEST(Verification, EveryCollectiveMatchesItsClosedForm)
{
    const std::vector<int> group = {0, 1, 2, 3};
    for (OpKind kind : {OpKind::AllReduce, OpKind::Reduce, OpKind::Broadcast, OpKind::AllGather, OpKind::AllGatherV,
                        OpKind::ReduceScatter, OpKind::ReduceScatterAllGather, OpKind::SendRecv}) {
        auto v = verifyCollective(kind, group, 64, 1, 2);
        ASSERT_TRUE(v.ok()) << opName(kind) << ": " << v.error().message;
        ASSERT_EQ(v->size(), 4u);
        for (const VerifiedRank& r : *v) {
            EXPECT_EQ(r.wrong, 0u) << opName(kind) << " rank " << r.rank;
            EXPECT_EQ(r.result.size(), r.expected.size());
        }
    }
    // all-reduce: every rank holds 10 + 4 (j mod 16)/16
    auto ar = verifyCollective(OpKind::AllReduce, group, 32);
    EXPECT_DOUBLE_EQ((*ar)[2].result[3], 10.0 + 4 * 3.0 / 16);
    // reduce-scatter: rank 1 holds elements 8..15 of the sum of 32 per rank
    auto rs = verifyCollective(OpKind::ReduceScatter, group, 32);
    ASSERT_EQ((*rs)[1].result.size(), 8u);
    EXPECT_DOUBLE_EQ((*rs)[1].result[0], allReduceExpected(4, 8));
    // reduce-scatter rounds the count up to a multiple of the group
    auto odd = verifyCollective(OpKind::ReduceScatter, group, 30);
    EXPECT_EQ((*odd)[0].input.size(), 32u);
}

TEST(Verification, SubgroupsSumOnlyTheirMembers)
{
    auto v = verifyCollective(OpKind::AllReduce, {1, 3}, 4);
    ASSERT_TRUE(v.ok());
    EXPECT_DOUBLE_EQ((*v)[0].result[0], 2.0 + 4.0); // ranks 1 and 3 fill 2 and 4
    EXPECT_EQ((*v)[1].rank, 3);
}

TEST(Verification, ErrorsNameTheProblem)
{
    EXPECT_FALSE(verifyCollective(OpKind::Compute, {0, 1}, 4).ok());
    auto noRoot = verifyCollective(OpKind::Reduce, {0, 1}, 4, 5);
    ASSERT_FALSE(noRoot.ok());
    EXPECT_NE(noRoot.error().message.find("root rank 5"), std::string::npos);
    EXPECT_FALSE(verifyCollective(OpKind::AllReduce, {}, 4).ok());
}

TEST(Verification, FormatsTheFirstValues)
{
    EXPECT_EQ(formatValues({1, 1.0625, 1.125}, 4), "1.0000, 1.0625, 1.1250");
    EXPECT_EQ(formatValues({1, 2, 3, 4, 5}, 2), "1.0000, 2.0000, \xe2\x80\xa6 (5 values)");
}
