// Simulated against measured: per-phase means and errors, hand-computed.
#include "../test_helpers.h"

#include "shardlab/analysis/prepared_run.h"
#include "shardlab/analysis/sim_vs_measured.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::test;

namespace {

Scenario twoPhases()
{
    Scenario s;
    s.name = "comparison";
    s.topology = nvswitchBox(2);
    Op compute;
    compute.kind = OpKind::Compute;
    compute.name = "work";
    compute.flops = 1e12;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "ar";
    ar.bytes = 1'000'000;
    s.program = {compute, ar};
    return s;
}

Span compute(int rank, double beginMs, double endMs, SpanDetail detail = SpanDetail::None)
{
    Span sp;
    sp.rank = rank;
    sp.kind = SpanKind::Compute;
    sp.beginUs = beginMs * 1e3;
    sp.endUs = endMs * 1e3;
    sp.op = 0;
    sp.detail = detail;
    return sp;
}

CollectiveRecord collective(double startMs, double endMs)
{
    CollectiveRecord c;
    c.op = 1;
    c.group = {0, 1};
    c.arrivalUs = {startMs * 1e3, startMs * 1e3};
    c.startUs = startMs * 1e3;
    c.endUs = endMs * 1e3;
    return c;
}

} // namespace

TEST(Comparison, PhaseErrorsAgainstHandComputedMeans)
{
    const Scenario s = twoPhases();
    RunResult measured;
    measured.mode = RunMode::Live;
    measured.ranks = 2;
    // rank 0: 4 + 6 = 10 ms of "work" in iteration 0, plus an injected delay that does not count;
    // rank 1: 20 ms. Mean instance: 15 ms. Collectives: 2 and 4 ms, mean 3 ms.
    measured.spans = {compute(0, 0, 4), compute(0, 4, 10), compute(0, 10, 110, SpanDetail::InjectedDelay),
                      compute(1, 0, 20)};
    measured.collectives = {collective(20, 22), collective(30, 34)};
    measured.iterations = {{0, 30'000}};
    RunResult simulated;
    simulated.ranks = 2;
    // 12 and 18 ms: mean 15 ms (error 0); collectives 3.3 ms each (error +10%)
    simulated.spans = {compute(0, 0, 12), compute(1, 0, 18)};
    simulated.collectives = {collective(18, 21.3), collective(30, 33.3)};
    simulated.iterations = {{0, 33'000}};

    const RunComparison cmp = compareRuns(s, measured, simulated);
    ASSERT_EQ(cmp.phases.size(), 2u);
    EXPECT_EQ(cmp.phases[0].name, "work");
    EXPECT_NEAR(cmp.phases[0].measuredMs, 15, 1e-9);
    EXPECT_NEAR(cmp.phases[0].simulatedMs, 15, 1e-9);
    EXPECT_EQ(cmp.phases[0].measuredCount, 2);
    ASSERT_TRUE(cmp.phases[0].errorPct);
    EXPECT_NEAR(*cmp.phases[0].errorPct, 0, 1e-9);
    EXPECT_NEAR(cmp.phases[1].measuredMs, 3, 1e-9);
    EXPECT_NEAR(cmp.phases[1].simulatedMs, 3.3, 1e-9);
    ASSERT_TRUE(cmp.phases[1].errorPct);
    EXPECT_NEAR(*cmp.phases[1].errorPct, 10, 1e-6);
    // step: 30 ms measured, 33 ms simulated
    EXPECT_NEAR(cmp.measuredStepMs, 30, 1e-9);
    EXPECT_NEAR(cmp.simulatedStepMs, 33, 1e-9);
    ASSERT_TRUE(cmp.stepErrorPct);
    EXPECT_NEAR(*cmp.stepErrorPct, 10, 1e-6);
}

TEST(Comparison, NothingMeasuredHasNoError)
{
    const Scenario s = twoPhases();
    RunResult empty;
    empty.ranks = 2;
    RunResult simulated;
    simulated.ranks = 2;
    simulated.spans = {compute(0, 0, 12)};
    const RunComparison cmp = compareRuns(s, empty, simulated);
    EXPECT_FALSE(cmp.phases[0].errorPct);
    EXPECT_FALSE(cmp.stepErrorPct);
    EXPECT_FALSE(relativeErrorPct(0, 5));
    EXPECT_NEAR(*relativeErrorPct(8, 6), -25, 1e-12);
}

TEST(Comparison, SlowerMeasuredComputeShowsAsNegativeError)
{
    // "measured": every rank 25% slower. The model then predicts compute 20% too fast.
    Scenario s = twoPhases();
    s.iterations = 3;
    auto sim = simulate(s);
    Scenario slow = s;
    slow.perturbations.slowdown = {1.25, 1.25};
    auto meas = simulate(slow);
    ASSERT_TRUE(sim.ok() && meas.ok());
    const RunComparison cmp = compareRuns(s, *meas, *sim);
    EXPECT_NEAR(*cmp.phases[0].errorPct, (1 / 1.25 - 1) * 100, 1e-6);
    EXPECT_NEAR(*cmp.phases[1].errorPct, 0, 1e-6);
    EXPECT_EQ(cmp.phases[1].measuredCount, 3);
}

// prepareRun: what the GUI, the command line and the profiler show beside a finished run.
TEST(PreparedRun, AMeasuredRunGetsItsSimulationAndComparison)
{
    const Scenario s = twoPhases();
    CostModel model(s.topology, unitProfile());
    Scenario slow = s;
    slow.perturbations.slowdown = {1.25, 1.25};
    auto measured = simulate(slow, model);
    ASSERT_TRUE(measured);
    measured->mode = RunMode::Live;
    auto prepared = prepareRun(s, std::make_shared<const RunResult>(*measured), model);
    ASSERT_TRUE(prepared);
    ASSERT_TRUE(prepared->reference);
    ASSERT_TRUE(prepared->comparison);
    ASSERT_EQ(prepared->comparison->phases.size(), s.program.size());
    // compute 25% slower than the model: the model is 20% fast (1/1.25 - 1)
    ASSERT_TRUE(prepared->comparison->phases[0].errorPct);
    EXPECT_NEAR(*prepared->comparison->phases[0].errorPct, (1 / 1.25 - 1) * 100, 1e-6);
    EXPECT_TRUE(prepared->activity);
    EXPECT_DOUBLE_EQ(prepared->summary.stepTimeMs, summarize(s, *measured).stepTimeMs);
}

TEST(PreparedRun, ASimulatedRunHasNoReferenceAndCancelStopsIt)
{
    const Scenario s = twoPhases();
    CostModel model(s.topology, unitProfile());
    auto run = simulate(s, model);
    ASSERT_TRUE(run);
    auto prepared = prepareRun(s, std::make_shared<const RunResult>(*run), model);
    ASSERT_TRUE(prepared);
    EXPECT_FALSE(prepared->reference);
    EXPECT_FALSE(prepared->comparison);
    EXPECT_TRUE(prepared->referenceError.empty());

    const std::atomic<bool> cancel{true};
    auto cancelled = prepareRun(s, std::make_shared<const RunResult>(*run), model, &cancel);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().kind, ErrorKind::Cancelled);
}
