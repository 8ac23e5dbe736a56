#include "test_helpers.h"

#include "shardlab/model/capacity.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/strategies.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
Scenario modelState()
{
    Scenario s;
    s.topology = *preset("teaching-4x16gb-pcie");
    s.workload.items = {{"p", ItemKind::Parameters, 4'000'000'000ULL, {}},
                        {"g", ItemKind::Gradients, 4'000'000'000ULL, {}},
                        {"o", ItemKind::OptimizerState, 8'000'000'000ULL, {}},
                        {"a", ItemKind::Activations, 4'000'000'000ULL, {}},
                        {"d", ItemKind::Data, 2'000'000'000ULL, {}}};
    return s;
}
Bytes rank0(const Scenario& s) { return capacityOf(s).ranks[0].owned; }
} // namespace

TEST(Strategies, MemoryPerRankShrinksAsMoreIsSharded)
{
    // per rank, in GB: p + g + o replicated or split by 4; a and d split by 4 except where noted
    const struct { Strategy s; double gb; } cases[] = {
        {Strategy::Replicate, 22},             // everything everywhere
        {Strategy::DataParallel, 16 + 1.5},    // model state replicated, batch split
        {Strategy::Zero1, 8 + 2 + 1.5},        // optimizer split
        {Strategy::Zero2, 4 + 3 + 1.5},        // + gradients split
        {Strategy::Zero3, 4 + 1.5},            // everything split
        {Strategy::TensorParallel, 4 + 1 + 2}, // model and activations split, data replicated
        {Strategy::PipelineParallel, 4 + 1 + 2}, // rank 0 is the first stage and holds the batch
    };
    for (const auto& c : cases) {
        Scenario s = modelState();
        const StrategyOutcome out = applyStrategy(s, c.s);
        EXPECT_EQ(rank0(s), static_cast<Bytes>(c.gb * 1e9)) << strategyName(c.s);
        EXPECT_FALSE(out.summary.empty());
        EXPECT_EQ(out.replicated.size() + out.split.size(), 5u);
        EXPECT_TRUE(validateScenario(s).ok()) << strategyName(c.s);
        EXPECT_EQ(s.strategy, strategyName(c.s));
    }
}

TEST(Strategies, DataParallelReplicatesModelAndSplitsBatch)
{
    Scenario s = modelState();
    const StrategyOutcome out = applyStrategy(s, Strategy::DataParallel);
    EXPECT_EQ(out.replicated, (std::vector<std::string>{"p", "g", "o"}));
    EXPECT_EQ(out.split, (std::vector<std::string>{"a", "d"}));
    EXPECT_EQ(s.workload.items[0].shards[0].owners, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(s.workload.items[4].shards.size(), 4u);
}

TEST(Strategies, NamesRoundTrip)
{
    for (Strategy st : allStrategies())
        EXPECT_EQ(strategyFromName(strategyName(st)), st);
    EXPECT_FALSE(strategyFromName("zero4"));
}
