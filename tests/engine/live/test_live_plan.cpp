// How live mode sizes and issues collectives (shardlab/live_plan.h), checked by hand without a GPU.
#include "shardlab/live/live_plan.h"

#include "../test_helpers.h"

#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {

// shard i owned by rank i
std::vector<Shard> oneEach(std::vector<Shard> shards)
{
    for (size_t i = 0; i < shards.size(); ++i)
        shards[i].owners = {static_cast<int>(i)};
    return shards;
}

Scenario twoOps(int ranks, Bytes gradBytes)
{
    Scenario s;
    s.name = "plan";
    s.topology = test::nvswitchBox(ranks, 100, 0.25, 10); // 10 TFLOP/s GPUs
    WorkloadItem data{"data", ItemKind::Data, 4000, oneEach(evenShards(4000, ranks))};
    WorkloadItem grads{"grads", ItemKind::Gradients, gradBytes, {}};
    grads.shards.push_back({0, gradBytes, {}});
    for (int r = 0; r < ranks; ++r)
        grads.shards[0].owners.push_back(r);
    s.workload.items = {data, grads};
    Op compute;
    compute.kind = OpKind::Compute;
    compute.item = "data";
    compute.flops = 4e12; // 4 TFLOP over the whole item
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.item = "grads";
    s.program = {compute, ar};
    return s;
}

} // namespace

TEST(LivePlan, CallShapesFollowNcclTests)
{
    // 1000 bytes = 250 floats; 4 ranks.
    CallShape c = callShape(OpKind::AllReduce, 1000, 4, 1, 0);
    EXPECT_EQ(c.count, 250u);
    EXPECT_EQ(c.sendCount, 250u);
    EXPECT_EQ(c.recvCount, 250u);
    c = callShape(OpKind::AllGather, 1000, 4, 2, 0); // 250 / 4 = 62 per rank, 248 gathered
    EXPECT_EQ(c.perRank, 62u);
    EXPECT_EQ(c.count, 248u);
    EXPECT_EQ(c.sendCount, 62u);
    EXPECT_EQ(c.recvCount, 248u);
    c = callShape(OpKind::ReduceScatter, 1000, 4, 0, 0);
    EXPECT_EQ(c.sendCount, 248u);
    EXPECT_EQ(c.recvCount, 62u);
    c = callShape(OpKind::ReduceScatterAllGather, 1000, 4, 3, 0);
    EXPECT_EQ(c.sendCount, 248u);
    EXPECT_EQ(c.recvCount, 248u);
    c = callShape(OpKind::Reduce, 1000, 4, 1, 2); // not the root: nothing received
    EXPECT_EQ(c.recvCount, 0u);
    EXPECT_EQ(callShape(OpKind::Reduce, 1000, 4, 2, 2).recvCount, 250u);
    EXPECT_EQ(callShape(OpKind::Broadcast, 1000, 4, 1, 2).sendCount, 0u);
    EXPECT_EQ(callShape(OpKind::Broadcast, 1000, 4, 2, 2).sendCount, 250u);
    c = callShape(OpKind::AllGatherV, 0, 3, 1, 0, {10, 0, 30});
    EXPECT_EQ(c.count, 40u);
    EXPECT_EQ(c.sendCount, 0u);
    EXPECT_EQ(c.recvCount, 40u);
    c = callShape(OpKind::SendRecv, 8, 2, 0, 0);
    EXPECT_EQ(c.sendCount, 2u);
    EXPECT_EQ(c.recvCount, 0u);
    EXPECT_EQ(callShape(OpKind::SendRecv, 8, 2, 1, 0).recvCount, 2u);
    // anything smaller than one element still moves one
    EXPECT_EQ(callShape(OpKind::AllReduce, 1, 2, 0, 0).count, 1u);
}

TEST(LivePlan, GroupsPiecesAndBuffers)
{
    Scenario s = twoOps(4, 1'000'000);
    Op sub;
    sub.kind = OpKind::Broadcast;
    sub.bytes = 4000;
    sub.group = {3, 1};
    sub.root = 3;
    Op agv;
    agv.kind = OpKind::AllGatherV;
    agv.item = "data";
    agv.buckets = 2;
    s.program.push_back(sub);
    s.program.push_back(agv);
    s.workload.items[0].shards = oneEach(customShards({400, 800, 1200, 1600}));
    auto plan = planLive(s, std::vector<Bytes>(4, 100'000'000'000ULL), 0, 0.8, true);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->groups.size(), 2u);
    EXPECT_EQ(plan->groups[0], (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(plan->groups[1], (std::vector<int>{1, 3}));
    EXPECT_EQ(plan->opGroup, (std::vector<int>{-1, 0, 1, 0}));
    // all_gather_v: each rank's bytes of "data", halved per bucket, in floats: 400/2/4 = 50 ...
    EXPECT_EQ(plan->pieces[3], (std::vector<std::uint64_t>{50, 100, 150, 200}));
    EXPECT_DOUBLE_EQ(plan->scale, 1.0);
    EXPECT_TRUE(plan->notes.empty());
    // rank 0: all-reduce of 1 MB (send and receive 1 MB) is the largest
    EXPECT_EQ(plan->sendBytes[0], 1'000'000u);
    EXPECT_EQ(plan->recvBytes[0], 1'000'000u);
    // rank 2 is in no broadcast; its all_gather_v piece (600 B) is under the all-reduce
    EXPECT_EQ(plan->sendBytes[2], 1'000'000u);
    // liveCall: all_gather_v's size is what the pieces add up to
    EXPECT_EQ(liveCall(s, *plan, 0, {3, 1}, 0).bytes, 500u * 4);
    EXPECT_EQ(liveCall(s, *plan, 1, {2, 0}, 0).bytes, 4000u);
}

TEST(LivePlan, ScalesCollectivesToFitAndSaysSo)
{
    // 10 GB all-reduce needs 20 GB of buffers on each rank; rank 1 has 11 GB free, 1 GB reserved:
    // budget 0.5 x 10 GB = 5 GB, factor 5/20 = 0.25.
    Scenario s = twoOps(2, 10'000'000'000ULL);
    auto plan = planLive(s, {40'000'000'000ULL, 11'000'000'000ULL}, 1'000'000'000ULL, 0.5, true);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_DOUBLE_EQ(plan->scale, 0.25);
    EXPECT_EQ(liveCall(s, *plan, 0, {1, 0}, 0).bytes, 2'500'000'000u);
    EXPECT_EQ(plan->sendBytes[1] + plan->recvBytes[1], 5'000'000'000u);
    ASSERT_EQ(plan->notes.size(), 1u);
    const std::string note = english(plan->notes[0]);
    EXPECT_NE(note.find("scaled by 0.25"), std::string::npos) << note;
    EXPECT_NE(note.find("rank 1"), std::string::npos);
    EXPECT_NE(note.find("20 GB"), std::string::npos);
    EXPECT_NE(note.find("11 GB free"), std::string::npos);
    // and in Chinese, with the same figures and no English left
    const std::string zh = render(plan->notes[0], Language::Chinese);
    EXPECT_NE(zh.find("0.25"), std::string::npos) << zh;
    EXPECT_NE(zh.find("Rank 1"), std::string::npos) << zh;
    EXPECT_NE(zh.find("11 GB"), std::string::npos) << zh;
    EXPECT_EQ(untranslatedWords(zh), std::vector<std::string>{}) << zh;
    // Without fitting, the sizes stay as asked (the allocation then reports what failed).
    auto asked = planLive(s, {40'000'000'000ULL, 11'000'000'000ULL}, 1'000'000'000ULL, 0.5, false);
    ASSERT_TRUE(asked.ok());
    EXPECT_DOUBLE_EQ(asked->scale, 1.0);
    EXPECT_EQ(asked->sendBytes[1], 10'000'000'000u);
}

TEST(LivePlan, MismatchesChangeOneRanksCall)
{
    Scenario s = twoOps(2, 4096);
    s.perturbations.mismatches.push_back({Mismatch::Type::WrongOp, 1, 1, 2, OpKind::AllGather, 0});
    s.perturbations.mismatches.push_back({Mismatch::Type::WrongCount, 0, 1, 3, OpKind::AllGather, 1 << 20});
    s.perturbations.mismatches.push_back({Mismatch::Type::Skip, 1, 1, 4, OpKind::AllGather, 0});
    s.iterations = 5;
    auto plan = planLive(s, {1ULL << 40, 1ULL << 40}, 0, 0.8, true);
    ASSERT_TRUE(plan.ok());
    EXPECT_FALSE(liveCall(s, *plan, 1, {1, 0}, 0).mismatched);
    const LiveCall wrongOp = liveCall(s, *plan, 1, {1, 0}, 2);
    EXPECT_EQ(wrongOp.kind, OpKind::AllGather);
    EXPECT_TRUE(wrongOp.mismatched);
    EXPECT_EQ(liveCall(s, *plan, 0, {1, 0}, 2).kind, OpKind::AllReduce);
    EXPECT_EQ(liveCall(s, *plan, 0, {1, 0}, 3).bytes, 1u << 20);
    EXPECT_TRUE(liveCall(s, *plan, 1, {1, 0}, 4).skipped);
    // the mismatched count is part of rank 0's buffers, and of rank 1's: a peer may write what its
    // wrong call says into them
    EXPECT_EQ(plan->sendBytes[0], 1u << 20);
    EXPECT_EQ(plan->recvBytes[1], 1u << 20);
}

TEST(LivePlan, ComputeTimeIsTheModelsShareTimesSlowdownAndDelays)
{
    Scenario s = twoOps(2, 4096);
    s.workload.items[0].shards = oneEach(customShards({1000, 3000}));
    s.perturbations.slowdown = {1.0, 2.0};
    s.perturbations.delays.push_back({0, 1, -1, 1.5});
    CostModel model(s.topology, CostProfile::defaults());
    LivePlan plan;
    plan.computeShares = computeShares(s);
    // rank 1 owns 3/4 of 4 TFLOP at 10 TFLOP/s = 0.3 s, twice as slow: 600,000 us
    const double eff =
        CostProfile::defaults().computeEfficiency.count("G") ? CostProfile::defaults().computeEfficiency.at("G") : 1.0;
    EXPECT_NEAR(liveComputeUs(s, plan, model, 1, {0, 0}, 0), 600'000 / eff, 1e-6);
    EXPECT_NEAR(liveComputeUs(s, plan, model, 0, {0, 0}, 0), 100'000 / eff, 1e-6);
    EXPECT_EQ(liveComputeUs(s, plan, model, 0, {1, 0}, 0), 0.0);
    EXPECT_EQ(liveDelayUs(s, 0, {1, 0}, 7), 1500.0);
    EXPECT_EQ(liveDelayUs(s, 1, {1, 0}, 0), 0.0);
}

// A compute step with GEMMs: the ranks with a share run them, then the timed kernel for the rest of
// the modelled time; every such rank's buffers fit the largest A, B and C of the steps it runs.
TEST(LivePlan, GemmsRunWhereARankHasAShareAndTheKernelTakesTheRest)
{
    Scenario s = twoOps(2, 4096);
    s.workload.items[0].shards = oneEach(customShards({1000, 3000}));
    Op& compute = s.program[0];
    compute.gemms = {{{4096, 1024, 512}, 3}, {{8, 65536, 16}, 1}};
    compute.gemmShare = 0.75;
    Op other = compute; // a second step rank 1 has no share of
    other.item = "";
    other.gemms = {{{1000000, 2, 4}, 1}};
    s.program.push_back(other);
    s.workload.items.push_back({"rank 0 only", ItemKind::Data, 10, {{0, 10, {0}}}});
    s.program.back().item = "rank 0 only";
    ASSERT_TRUE(validateScenario(s).ok());
    // in memory as in a file: a share outside 0..1, GEMMs with buckets or on a collective are refused
    auto refusal = [&](auto change) {
        Scenario bad = s;
        change(bad);
        const Status st = validateScenario(bad);
        return st ? std::string() : st.error().message;
    };
    EXPECT_EQ(refusal([](Scenario& b) { b.program[0].gemmShare = 1.5; }),
              "$.program[0].gemm_share: 1.5 (expected 0 to 1)");
    EXPECT_EQ(refusal([](Scenario& b) { b.program[0].gemms[1].shape.n = 0; }),
              "$.program[0].gemms[1].n: 0 (expected 1 to 1048576)");
    EXPECT_NE(
        refusal([](Scenario& b) { b.program[0].buckets = 2; }).find("$.program[0].buckets: a compute step with GEMMs"),
        std::string::npos);
    EXPECT_EQ(refusal([](Scenario& b) {
                  b.program[1].gemms = {{{8, 8, 8}, 1}};
              }),
              "$.program[1].gemms: applies to compute steps only");
    CostModel model(s.topology, CostProfile::defaults());
    LivePlan plan;
    plan.computeShares = computeShares(s);
    EXPECT_TRUE(runsGemms(s, plan, 0, {0, 0}));
    EXPECT_TRUE(runsGemms(s, plan, 1, {0, 0}));
    EXPECT_FALSE(runsGemms(s, plan, 0, {1, 0})); // the all-reduce
    EXPECT_TRUE(runsGemms(s, plan, 0, {2, 0}));
    EXPECT_FALSE(runsGemms(s, plan, 1, {2, 0}));
    // the rest: a quarter of the modelled time; without the GEMMs, all of it
    const double whole = liveComputeUs(s, plan, model, 1, {0, 0}, 0);
    EXPECT_GT(whole, 0);
    EXPECT_DOUBLE_EQ(liveKernelUs(s, plan, model, 1, {0, 0}, 0, true), 0.25 * whole);
    EXPECT_DOUBLE_EQ(liveKernelUs(s, plan, model, 1, {0, 0}, 0, false), whole);
    // operands: A m x k, B k x n, C m x n, the largest of each over the rank's steps
    const GemmOperands r0 = gemmOperandsOf(s, plan.computeShares, 0);
    EXPECT_EQ(r0.a, 1000000u * 4); // step 3's A
    EXPECT_EQ(r0.b, 16u * 65536);  // the second shape's B
    EXPECT_EQ(r0.c, 4096u * 1024); // the first shape's C (8 x 65536 is half a Mi)
    const GemmOperands r1 = gemmOperandsOf(s, plan.computeShares, 1);
    EXPECT_EQ(r1.a, 4096u * 512);
    EXPECT_EQ(r1.b, 16u * 65536);
    EXPECT_EQ(r1.c, 4096u * 1024);
    EXPECT_EQ(r1.bytes(), 2 * (4096u * 512 + 16u * 65536 + 4096u * 1024));
}

TEST(LivePlan, AllocationFailureNamesRankBytesAndFree)
{
    const std::string m = allocationFailureMessage(1, 1, "its collective send buffer", 200'000'000'000ULL,
                                                   14'200'000'000ULL, 16'000'000'000ULL);
    EXPECT_NE(m.find("rank 1"), std::string::npos) << m;
    EXPECT_NE(m.find("200 GB"), std::string::npos) << m;
    EXPECT_NE(m.find("14.2 GB free"), std::string::npos) << m;
    EXPECT_NE(m.find("GPU 1"), std::string::npos) << m;
}

TEST(LivePlan, RejectsBadInput)
{
    Scenario s = twoOps(2, 4096);
    EXPECT_FALSE(planLive(s, {1ULL << 30}, 0, 0.8, true).ok()); // free memory of one GPU for two ranks
    EXPECT_FALSE(planLive(s, {1ULL << 30, 1ULL << 30}, 0, 0.0, true).ok());
}
