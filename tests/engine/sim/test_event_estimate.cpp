// The event count of a run, known before it runs (sim/event_estimate.h), and the refusal of a run
// above the limit: issue 14's 1.2 KB scenario of 100,000 buckets x 100,000 iterations used to fill
// 14 GB in 30 s; it is now refused at once with its size and what to reduce.
#include "../test_helpers.h"

#include "shardlab/live/live_plan.h"
#include "shardlab/sim/event_estimate.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

using namespace shardlab;
using namespace shardlab::test;

namespace {

// Issue 14's scenario: 2 ranks, a compute op of 100,000 buckets overlapped with a bucketed
// all-reduce, 100,000 iterations.
Scenario hugeScenario()
{
    Scenario s = splitScenario({4, 4}, 4e12, 630'000'000);
    s.program[0].buckets = 100000;
    s.program[1].buckets = 100000;
    s.program[1].overlap = true;
    s.iterations = 100000;
    return s;
}

} // namespace

// The limit's arithmetic (event_estimate.h) rests on these sizes.
TEST(EventEstimate, TheSizesTheLimitRestsOn)
{
    if constexpr (sizeof(void*) == 8) {
        EXPECT_EQ(sizeof(Span), 56u);
        EXPECT_EQ(sizeof(CollectiveRecord), 112u);
    }
}

TEST(EventEstimate, HandComputedForABlockingCollective)
{
    // 4 ranks; per iteration: 4 compute spans (each rank owns a shard), one all-reduce record,
    // up to 2 spans per member (its communication and, if it arrived early, its wait): 4 + 8 = 12.
    Scenario s = splitScenario({12, 6, 4, 2}, 2.4e12, 1'000'000);
    s.iterations = 3;
    const EventEstimate e = estimateEvents(s);
    EXPECT_EQ(e.spansPerIteration, 12u);
    EXPECT_EQ(e.collectivesPerIteration, 1u);
    EXPECT_EQ(e.spans, 36u);
    EXPECT_EQ(e.collectives, 3u);
    EXPECT_EQ(e.events, 39u);
    EXPECT_EQ(e.largestOp, 1);
    EXPECT_EQ(e.largestOpEvents, 9u);
    EXPECT_EQ(e.bytes, 36u * sizeof(Span) + 3u * (sizeof(CollectiveRecord) + 32 + 48 + 32));
    // The run: 4 compute, 3 waits (ranks 1-3 wait for rank 0) and 4 communication spans an
    // iteration, 11 of the 12 counted: an upper bound; the records exactly.
    SimulationOptions o;
    o.profile = unitProfile();
    auto run = simulate(s, o);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_EQ(run->spans.size(), 33u);
    EXPECT_EQ(run->collectives.size(), 3u);
}

TEST(EventEstimate, HandComputedForOverlappedBucketsDelaysAndPaging)
{
    // 2 ranks, compute in 4 buckets interleaved with an overlapped all-reduce in 4 buckets:
    // 4 x 2 compute spans, 4 records, 4 x 2 members x 2 spans, and each rank's end of iteration
    // may wait for its communication stream (2): 26 spans an iteration.
    Scenario s = splitScenario({8, 8}, 4e12, 64'000'000);
    s.program[0].buckets = 4;
    s.program[1].buckets = 4;
    s.program[1].overlap = true;
    s.iterations = 5;
    EventEstimate e = estimateEvents(s);
    EXPECT_EQ(e.spansPerIteration, 26u);
    EXPECT_EQ(e.collectivesPerIteration, 4u);
    EXPECT_EQ(e.events, 5u * 30u);
    // A delay every iteration adds one span an iteration, a delay in one iteration one span.
    s.perturbations.delays.push_back({1, 0, -1, 2.0});
    s.perturbations.delays.push_back({0, 1, 3, 1.0});
    e = estimateEvents(s);
    EXPECT_EQ(e.spansPerIteration, 27u);
    EXPECT_EQ(e.onceSpans, 1u);
    EXPECT_EQ(e.spans, 5u * 27u + 1u);
    // Unified memory: a paging span per rank an iteration.
    s.memoryMode = MemoryMode::Unified;
    EXPECT_EQ(estimateEvents(s).spansPerIteration, 29u);
    SimulationOptions o;
    o.profile = unitProfile();
    auto run = simulate(s, o);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_LE(run->spans.size(), estimateEvents(s).spans);
    EXPECT_EQ(run->collectives.size(), 20u);
}

// Every example the project ships: the estimate bounds the spans and counts the records exactly.
TEST(EventEstimate, AnUpperBoundForEveryExample)
{
    int checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(SHARDLAB_SCENARIO_DIR)) {
        Scenario s = loadExample(entry.path().filename().string());
        s.iterations = std::min(s.iterations, 3);
        auto run = simulate(s);
        if (!run)
            continue;
        const EventEstimate e = estimateEvents(s);
        EXPECT_LE(run->spans.size(), e.spans) << entry.path();
        if (!run->hang) {
            EXPECT_EQ(run->collectives.size(), e.collectives) << entry.path();
        }
        ++checked;
    }
    EXPECT_GE(checked, 10);
}

TEST(EventEstimate, TheIssuesScenarioIsRefusedWithItsSizeAndWhatToReduce)
{
    const Scenario s = hugeScenario();
    const EventEstimate e = estimateEvents(s);
    // per iteration: 200,000 compute spans, 100,000 records, 400,000 collective spans, 2 drains
    EXPECT_EQ(e.spansPerIteration, 600'002u);
    EXPECT_EQ(e.collectivesPerIteration, 100'000u);
    EXPECT_EQ(e.events, 70'000'200'000u);
    auto run = simulate(s); // refused before anything is allocated
    ASSERT_FALSE(run.ok());
    EXPECT_EQ(run.error().kind, ErrorKind::BadInput);
    const std::string& m = run.error().message;
    EXPECT_EQ(
        m.rfind("this run would record up to 70,000,200,000 events (spans and collective records: up to 700,002 an "
                "iteration x 100,000 iterations on 2 ranks), about ",
                0),
        0u)
        << m;
    EXPECT_NE(m.find("; the limit is 20,000,000 (about "), std::string::npos) << m;
    // 28 x 700,002 = 19,600,056 fit, 29 do not
    EXPECT_NE(m.find("reduce the iterations to 28 or fewer, or the buckets of $.program[1] (all_reduce 'ar', 100,000 "
                     "buckets, up to 500,000 events an iteration)"),
              std::string::npos)
        << m;
    // the same refusal through the simulate() that takes a cost model (sweeps, scaling)
    CostModel model(s.topology, CostProfile::defaults());
    auto again = simulate(s, model);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().message, m);
}

TEST(EventEstimate, ARunAtTheLimitRunsAndOneEventOverIsRefused)
{
    Scenario s = splitScenario({12, 6, 4, 2}, 2.4e12, 1'000'000);
    s.iterations = 3; // 39 events at most (HandComputedForABlockingCollective)
    SimulationOptions o;
    o.profile = unitProfile();
    o.maxEvents = 39;
    EXPECT_TRUE(simulate(s, o).ok());
    o.maxEvents = 38;
    auto refused = simulate(s, o);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("the limit is 38 "), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("reduce the iterations to 2 or fewer"), std::string::npos);
    // below one iteration, the iterations cannot help; a step of one bucket has none to reduce
    o.maxEvents = 10;
    refused = simulate(s, o);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("even one iteration is over it; reduce the program's 2 steps or the ranks"),
              std::string::npos)
        << refused.error().message;
    // a bucketed step that records most of the iteration is named
    s.program[1].buckets = 4; // 4 records and up to 32 spans of 40 events an iteration
    refused = simulate(s, o);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(
        refused.error().message.find("even one iteration is over it; reduce the buckets of $.program[1] (all_reduce "
                                     "'ar', 4 buckets, up to 36 events an iteration) or the ranks"),
        std::string::npos)
        << refused.error().message;
}

// Issue 14's other input: 10,000 program steps of one bucket; the steps are what to reduce.
TEST(EventEstimate, ManyStepsAreNamedAsSteps)
{
    Scenario s = splitScenario({8, 8}, 4e12, 1'000'000);
    const std::vector<Op> pair = s.program;
    for (int i = 1; i < 5000; ++i)
        s.program.insert(s.program.end(), pair.begin(), pair.end());
    s.iterations = 1000;
    const Status st = checkEventCount(s);
    ASSERT_FALSE(st.ok());
    // per iteration: 5,000 x (2 compute spans + 1 record + 4 spans) = 35,000
    EXPECT_EQ(
        st.error().message.rfind("this run would record up to 35,000,000 events (spans and collective records: up "
                                 "to 35,000 an iteration x 1,000 iterations on 2 ranks)",
                                 0),
        0u)
        << st.error().message;
    EXPECT_NE(st.error().message.find("reduce the iterations to 571 or fewer, or the program's 10,000 steps"),
              std::string::npos)
        << st.error().message;
}

TEST(EventEstimate, HugeCountsSaturateInsteadOfWrapping)
{
    // 65,536 ranks x 20,000 blocking all-reduces of 100,000 buckets x 100,000 iterations: about
    // 2.6 x 10^19 spans, more than 64 bits count (a 64 MB file could ask for it)
    Scenario s = hugeScenario();
    const Gpu gpu = s.topology.gpus[0];
    s.topology.gpus.assign(65536, gpu);
    s.program[1].overlap = false;
    const Op ar = s.program[1];
    s.program.assign(20000, ar);
    const EventEstimate e = estimateEvents(s);
    EXPECT_EQ(e.spans, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(e.events, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(e.bytes, std::numeric_limits<std::uint64_t>::max());
    const Status st = checkEventCount(s);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message.rfind("this run would record more than 18,446,744,073,709,551,615 events", 0), 0u)
        << st.error().message;
}

TEST(EventEstimate, LiveRunsWithATimelineAreRefusedTheSameWay)
{
    const Scenario s = hugeScenario();
    const Status st = checkLiveEvents(s, true);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(st.error().message.rfind("this run would record up to 70,000,200,000 events", 0), 0u);
    EXPECT_NE(st.error().message.find("--no-timeline"), std::string::npos);
    // without the timeline only the iteration times are kept
    EXPECT_TRUE(checkLiveEvents(s, false).ok());
    EXPECT_TRUE(checkLiveEvents(splitScenario({1, 1}, 1e12, 1000), true).ok());
}

TEST(EventEstimate, Thousands)
{
    EXPECT_EQ(withThousands(0), "0");
    EXPECT_EQ(withThousands(999), "999");
    EXPECT_EQ(withThousands(1000), "1,000");
    EXPECT_EQ(withThousands(70'000'200'000u), "70,000,200,000");
}
