// pricePlan(): the GPU count settled from the sizes, refusals with their reasons, and the same
// estimate as estimatePlan() on the machine grown to the count.
#include "shardlab/plan/plan_request.h"
#include "shardlab/plan/transformer.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {

PlanRequest teaching(int tp, int pp, int dp, int gpus)
{
    PlanRequest r;
    r.model = "teaching-125m";
    r.plan.tp = tp;
    r.plan.pp = pp;
    r.plan.dp = dp;
    r.gpus = gpus;
    return r;
}

} // namespace

TEST(PlanRequest, TheGpuCountIsGivenOrTheProductOfTheSizes)
{
    EXPECT_EQ(teaching(2, 4, 0, 0).gpuCount(), 8); // DP 0 counts as 1
    EXPECT_EQ(teaching(2, 4, 3, 0).gpuCount(), 24);
    EXPECT_EQ(teaching(2, 4, 0, 16).gpuCount(), 16);
}

TEST(PlanRequest, DataParallelIsWhatTheGpusLeave)
{
    auto p = pricePlan(teaching(2, 2, 0, 16));
    ASSERT_TRUE(p) << p.error().message;
    ASSERT_TRUE(p->priced);
    EXPECT_TRUE(p->problems.empty());
    EXPECT_EQ(p->priced->estimate.plan.dp, 4);
    EXPECT_EQ(p->priced->topology.rankCount(), 16); // two copies of the 8-GPU node
}

TEST(PlanRequest, TheSameEstimateAsPricingByHand)
{
    PlanRequest r = teaching(2, 4, 1, 0);
    r.settings.globalBatch = 16;
    auto p = pricePlan(r);
    ASSERT_TRUE(p && p->priced);
    auto model = loadModel("teaching-125m");
    auto machine = planMachine("h200-nvswitch-8", 8);
    ASSERT_TRUE(model && machine);
    PlanPricer pricer(*machine);
    const PlanEstimate byHand = estimatePlan(*model, r.settings, r.plan, pricer);
    EXPECT_DOUBLE_EQ(p->priced->estimate.stepUs, byHand.stepUs);
    EXPECT_DOUBLE_EQ(p->priced->estimate.mfu, byHand.mfu);
}

TEST(PlanRequest, APlanThatCannotRunComesBackWithItsReasons)
{
    auto notMultiple = pricePlan(teaching(4, 1, 0, 6));
    ASSERT_TRUE(notMultiple);
    EXPECT_FALSE(notMultiple->priced);
    ASSERT_EQ(notMultiple->problems.size(), 1u);
    EXPECT_EQ(english(notMultiple->problems[0]), "6 GPUs are not a multiple of TP x CP x PP = 4");

    auto heads = pricePlan(teaching(5, 1, 1, 0)); // 12 heads
    ASSERT_TRUE(heads);
    EXPECT_FALSE(heads->priced);
    ASSERT_FALSE(heads->problems.empty());
    EXPECT_EQ(heads->problems[0].id, "plan.refuse.tp_heads");

    auto huge = pricePlan(teaching(8, 1, 10000, 0));
    ASSERT_TRUE(huge);
    ASSERT_EQ(huge->problems.size(), 1u);
    EXPECT_EQ(english(huge->problems[0]), "the plan needs 80000 GPUs; a machine here has 1 to 65536");
}

TEST(PlanRequest, AModelOrMachineThatCannotBeLoadedIsAnError)
{
    PlanRequest r = teaching(1, 1, 1, 0);
    r.model = "no-such-model";
    EXPECT_FALSE(pricePlan(r));
    r.model = "teaching-125m";
    r.machine = "no-such-machine";
    auto p = pricePlan(r);
    ASSERT_FALSE(p);
    EXPECT_NE(p.error().message.find("no-such-machine"), std::string::npos) << p.error().message;
}
