#include "shardlab/model/semantics.h"

#include <gtest/gtest.h>

using namespace shardlab;

TEST(Semantics, ReduceAndBroadcastUseTheRoot)
{
    const RankValues in = {{1, 1}, {2, 2}, {3, 3}};
    auto red = applyCollective(OpKind::Reduce, in, 1);
    ASSERT_TRUE(red.ok());
    EXPECT_EQ((*red)[1], (std::vector<double>{6, 6}));
    EXPECT_EQ((*red)[0], (std::vector<double>{1, 1})); // others keep their input
    auto bc = applyCollective(OpKind::Broadcast, in, 2);
    for (const auto& v : *bc)
        EXPECT_EQ(v, (std::vector<double>{3, 3}));
    EXPECT_FALSE(applyCollective(OpKind::Reduce, in, 7).ok());
}

TEST(Semantics, AllGatherNeedsEqualPiecesAndReduceScatterADivisibleLength)
{
    EXPECT_FALSE(applyCollective(OpKind::AllGather, {{1}, {2, 3}}).ok());
    EXPECT_TRUE(applyCollective(OpKind::AllGatherV, {{1}, {2, 3}}).ok());
    EXPECT_FALSE(applyCollective(OpKind::ReduceScatter, {{1, 2, 3}, {1, 2, 3}}).ok());
}

TEST(Semantics, SendRecvCopiesToThePeer)
{
    auto r = applyCollective(OpKind::SendRecv, {{1}, {2}, {3}}, 0, 2);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)[2], (std::vector<double>{1}));
    EXPECT_EQ((*r)[1], (std::vector<double>{2}));
    EXPECT_FALSE(applyCollective(OpKind::SendRecv, {{1}, {2}}, 0, 0).ok());
}
