// A profiled program's steps (profile_steps.h): the step finder on hand-made call sequences, and
// a profile of three training steps built into three iterations whose figures are worked out by
// hand below.
#include "profile_records.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_scenario.h"
#include "shardlab/profile/profile_steps.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace shardlab {
namespace {

using test::RecordText;

// Calls written as letters: 'A' a 1 MiB all-reduce, 'B' a 4 MiB all-reduce, 'C' an all-gather,
// 'R' a broadcast from rank 0, 'S' the same broadcast from rank 1, 'x' an all-reduce on another
// communicator.
std::vector<CollectiveKey> calls(const std::string& letters)
{
    std::vector<CollectiveKey> out;
    for (char c : letters) {
        switch (c) {
        case 'A': out.push_back({OpKind::AllReduce, 1u << 20, -1, 1}); break;
        case 'B': out.push_back({OpKind::AllReduce, 4u << 20, -1, 1}); break;
        case 'C': out.push_back({OpKind::AllGather, 1u << 20, -1, 1}); break;
        case 'R': out.push_back({OpKind::Broadcast, 1u << 20, 0, 1}); break;
        case 'S': out.push_back({OpKind::Broadcast, 1u << 20, 1, 1}); break;
        case 'x': out.push_back({OpKind::AllReduce, 1u << 20, -1, 2}); break;
        default: ADD_FAILURE() << "no call '" << c << "'";
        }
    }
    return out;
}

StepPattern steps(size_t prefix, size_t period, size_t count, size_t tail = 0) { return {prefix, period, count, tail}; }

TEST(ProfileSteps, ACleanPeriod) { EXPECT_EQ(findSteps(calls("ABCABCABCABC"), false), steps(0, 3, 4)); }

TEST(ProfileSteps, APeriodOfOneCall) { EXPECT_EQ(findSteps(calls("AAAAA"), false), steps(0, 1, 5)); }

TEST(ProfileSteps, ASetUpPrefixThenThePeriod)
{
    // A broadcast of the weights, then three steps of two all-reduces.
    EXPECT_EQ(findSteps(calls("RABABAB"), false), steps(1, 2, 3));
    // Two set-up calls, one of them the step's own kind.
    EXPECT_EQ(findSteps(calls("RCABABABAB"), false), steps(2, 2, 4));
}

TEST(ProfileSteps, ATruncatedLastStepOnlyWhereTheRecordsEndEarly)
{
    EXPECT_EQ(findSteps(calls("ABCABCABCAB"), true), steps(0, 3, 3, 2));
    EXPECT_EQ(findSteps(calls("RABCABCABCA"), true), steps(1, 3, 3, 1));
    // Records that end where the program ended: no incomplete step; the longest suffix of whole
    // repetitions is then "CAB" three times after a set-up "AB" (a step is known only up to where
    // it starts, profile_steps.h).
    EXPECT_EQ(findSteps(calls("ABCABCABCAB"), false), steps(2, 3, 3));
    EXPECT_EQ(findSteps(calls("ABCABCAB"), false), std::nullopt); // no 3 whole repetitions at its end
}

TEST(ProfileSteps, NoPeriodOrTooFewRepetitions)
{
    EXPECT_EQ(findSteps(calls(""), false), std::nullopt);
    EXPECT_EQ(findSteps(calls("ABC"), false), std::nullopt);
    EXPECT_EQ(findSteps(calls("ABCCBA"), false), std::nullopt);
    EXPECT_EQ(findSteps(calls("ABAB"), false), std::nullopt); // 2 repetitions: not enough
    // Ends with something else (a final all-gather): a wrap-up after 3 steps (issue 30), except
    // where the records end early (then the last call may be a step cut short, and it is not one).
    EXPECT_EQ(findSteps(calls("ABABABC"), false), (StepPattern{0, 2, 3, 0, 1}));
    EXPECT_EQ(findSteps(calls("ABABABC"), true), std::nullopt);
}

TEST(ProfileSteps, AShorterFalsePeriodIsNotChosen)
{
    // 'AAB' repeated: periods 1 and 2 fit its beginning, not the whole.
    EXPECT_EQ(findSteps(calls("AABAABAAB"), false), steps(0, 3, 3));
    // The same call with another root, size or communicator is another call.
    EXPECT_EQ(findSteps(calls("RSRSRS"), false), steps(0, 2, 3));
    EXPECT_EQ(findSteps(calls("AxAxAx"), false), steps(0, 2, 3));
    EXPECT_EQ(findSteps(calls("ABABAB"), false), steps(0, 2, 3));
    // A step that begins as a shorter one would ("ABAB..."): period 4.
    EXPECT_EQ(findSteps(calls("ABACABACABAC"), false), steps(0, 4, 3));
    // The longest repeating part wins over a shorter period near the end.
    EXPECT_EQ(findSteps(calls("ABBBBABBBBABBBB"), false), steps(0, 5, 3));
}

TEST(ProfileSteps, AMillionCallsAreQuick)
{
    // 1,000,000 calls: a set-up broadcast, then 8 bucketed all-reduces (one of another size) a step.
    std::vector<CollectiveKey> many = calls("R");
    const std::vector<CollectiveKey> step = calls("AAAAAAAB");
    while (many.size() + step.size() <= 1'000'001)
        many.insert(many.end(), step.begin(), step.end());
    const auto found = findSteps(many, false);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(*found, steps(1, 8, (many.size() - 1) / 8));
}

// A profile of 2 ranks written from arrival times: collective k arrives on rank r at arrival[k][r]
// (us) and ends on every rank at end[k]; the GPU timer is the host clock.
struct Call {
    std::string func;
    std::uint64_t count = 0; // floats
    double arrival[2] = {0, 0};
    double end = 0;
    int ranks = 2; // recorded by ranks 0 .. ranks-1 (1: rank 1's records end before it)
};

std::vector<ProfileFile> profileOf(const std::vector<Call>& program)
{
    std::vector<ProfileFile> parsed;
    for (int r = 0; r < 2; ++r) {
        RecordText f("h", 100 + r);
        f.comm(0, "00000000000000dd", r, 2);
        for (size_t k = 0; k < program.size(); ++k) {
            const Call& c = program[k];
            if (r >= c.ranks)
                continue;
            const double a = 1e6 + c.arrival[r] * 1e3; // ns
            f.coll(k + 1, 0, static_cast<int>(k), c.func, c.count, a - 50, a + 50, a, 1e6 + c.end * 1e3);
        }
        parsed.push_back(*parseProfileText(f.text, "r" + std::to_string(r)));
    }
    return parsed;
}

// Three steps after a set-up broadcast (0 .. 30 us; rank 1 arrives at 10). Each step, from the
// previous step's end e: rank 0 works 100 us, rank 1 150 us, then an all-reduce of 4 MiB
// (1,048,576 floats) that lasts `a` us after rank 1's arrival; both work 20 us more, then an
// all-reduce of 1 MiB that lasts `b` us.
std::vector<Call> threeSteps(double a, double b)
{
    std::vector<Call> program{{"Broadcast", 1000, {0, 10}, 30}};
    double e = 30;
    for (int j = 0; j < 3; ++j) {
        const double big = e + 150 + a;
        program.push_back({"AllReduce", 1u << 20, {e + 100, e + 150}, big});
        program.push_back({"AllReduce", 1u << 18, {big + 20, big + 20}, big + 20 + b});
        e = big + 20 + b;
    }
    return program;
}

TEST(ProfileSteps, AProfileOfThreeStepsIsThreeIterations)
{
    auto built = buildProfiledRun(profileOf(threeSteps(50, 10)));
    ASSERT_TRUE(built) << built.error().message;
    const RunResult& run = built->run;
    // The program is one step: two pairs of work and all-reduce; the run three of them.
    ASSERT_EQ(built->scenario.program.size(), 4u);
    EXPECT_EQ(built->scenario.program[1].kind, OpKind::AllReduce);
    EXPECT_EQ(*built->scenario.program[1].bytes, 4u << 20);
    EXPECT_EQ(*built->scenario.program[3].bytes, 1u << 20);
    EXPECT_EQ(built->scenario.iterations, 3);
    // The set-up broadcast is not drawn: 6 collectives, k-th at op 2(k mod 2)+1 of step k / 2.
    ASSERT_EQ(run.collectives.size(), 6u);
    for (size_t k = 0; k < 6; ++k) {
        EXPECT_EQ(run.collectives[k].op, static_cast<int>(2 * (k % 2) + 1));
        EXPECT_EQ(run.collectives[k].iteration, static_cast<int>(k / 2));
    }
    for (const Span& s : run.spans) {
        EXPECT_GE(s.op, 0);
        EXPECT_LT(s.op, 4);
        if (s.collective >= 0) {
            EXPECT_EQ(s.op, run.collectives[static_cast<size_t>(s.collective)].op);
            EXPECT_EQ(s.iteration, run.collectives[static_cast<size_t>(s.collective)].iteration);
        }
    }
    bool noted = false;
    for (const std::string& n : english(run.notes))
        noted = noted || n.find("1 set-up collectives before the first step") != std::string::npos;
    EXPECT_TRUE(noted);
    // Steps end at their last all-reduce's end: 30 + 230 = 260, 490, 720 us (t0 = 0). Step 0
    // holds the set-up's 30 us.
    ASSERT_EQ(run.iterations.size(), 3u);
    EXPECT_NEAR(run.iterations[0].beginUs, 0.0, 1e-6);
    EXPECT_NEAR(run.iterations[0].endUs, 260.0, 1e-6);
    EXPECT_NEAR(run.iterations[1].beginUs, 260.0, 1e-6);
    EXPECT_NEAR(run.iterations[1].endUs, 490.0, 1e-6);
    EXPECT_NEAR(run.iterations[2].endUs, 720.0, 1e-6);

    const Summary sum = summarize(built->scenario, run);
    // Mean step: 720 / 3 = 240 us, not the run's 720.
    EXPECT_NEAR(sum.stepTimeMs, 0.24, 1e-9);
    // Rank 1 arrives last at every 4 MiB all-reduce; rank 0 waits 50 us a step for it.
    ASSERT_TRUE(sum.straggler.has_value());
    EXPECT_EQ(*sum.straggler, 1);
    // Per step: rank 0 computes (130 + 20 + 2 x (100 + 20)) / 3 = 130 us (its 130 in step 0:
    // the set-up's 30 and its 100 of work), waits 50, communicates 50 + 10; rank 1 computes
    // (180 + 20 + 2 x 170) / 3 = 180, waits 0. Each adds up to the step.
    ASSERT_EQ(sum.perRank.size(), 2u);
    EXPECT_NEAR(sum.perRank[0].computeMs, 0.13, 1e-9);
    EXPECT_NEAR(sum.perRank[0].waitMs, 0.05, 1e-9);
    EXPECT_NEAR(sum.perRank[0].commMs, 0.06, 1e-9);
    EXPECT_NEAR(sum.perRank[1].computeMs, 0.18, 1e-9);
    EXPECT_NEAR(sum.perRank[1].waitMs, 0.0, 1e-9);
    EXPECT_NEAR(sum.perRank[1].commMs, 0.06, 1e-9);
    // One line per all-reduce of the step, over its 3 instances: 4 MiB in 50 us, 1 MiB in 10 us
    // (2 ranks: busbw = algbw x 2(2-1)/2).
    ASSERT_EQ(sum.collectives.size(), 2u);
    EXPECT_EQ(sum.collectives[0].count, 3);
    EXPECT_EQ(sum.collectives[0].bytes, 4u << 20);
    EXPECT_NEAR(sum.collectives[0].timeMs, 0.05, 1e-9);
    EXPECT_NEAR(sum.collectives[0].algbwGBps, 4194304 / 50e-6 / 1e9, 1e-6);
    EXPECT_NEAR(sum.collectives[0].busbwGBps, 4194304 / 50e-6 / 1e9, 1e-6);
    EXPECT_EQ(sum.collectives[1].count, 3);
    EXPECT_NEAR(sum.collectives[1].algbwGBps, 1048576 / 10e-6 / 1e9, 1e-6);
}

TEST(ProfileSteps, RecordsThatEndEarlyLeaveAnIncompleteLastStep)
{
    // A fourth step begins: its 4 MiB all-reduce finishes on rank 0 (rank 1 arrived too, but its
    // records end there): 3 whole steps and 1 call of a fourth.
    std::vector<Call> program = threeSteps(50, 10);
    program.push_back({"AllReduce", 1u << 20, {820, 870}, 920, 1});
    auto built = buildProfiledRun(profileOf(program));
    ASSERT_TRUE(built) << built.error().message;
    const RunResult& run = built->run;
    ASSERT_TRUE(run.hang.has_value());
    ASSERT_EQ(run.iterations.size(), 4u);
    EXPECT_EQ(built->scenario.iterations, 3);
    EXPECT_EQ(built->scenario.program.size(), 4u);
    // The unfinished all-reduce is left out of the collectives (as in any profile); rank 0's work
    // before it is step 3's.
    EXPECT_EQ(run.collectives.size(), 6u);
    bool step3 = false;
    for (const Span& sp : run.spans) {
        EXPECT_LT(sp.collective, 6);
        if (sp.iteration == 3) {
            EXPECT_EQ(sp.rank, 0);
            EXPECT_LE(sp.op, 1);
            step3 = step3
                    || (sp.op == 0 && sp.kind == SpanKind::Compute && std::abs(sp.beginUs - 720) < 1e-6
                        && std::abs(sp.endUs - 820) < 1e-6);
        }
    }
    EXPECT_TRUE(step3);
    // The step that did not finish is not a step: still 720 / 3 us.
    EXPECT_NEAR(summarize(built->scenario, run).stepTimeMs, 0.24, 1e-9);
    // Nor is rank 0's work in it part of its mean work before the 4 MiB all-reduce: (130 + 100 +
    // 100) / 3 = 110 us, not (130 + 3 x 100) / 3; rank 1's 160 is 50 us more.
    CostModel onMachine(built->scenario.topology);
    EXPECT_NEAR(onMachine.computeUs(built->scenario.program[0].flops, 0), 110.0, 1e-6);
    ASSERT_EQ(built->scenario.perturbations.delays.size(), 1u);
    EXPECT_NEAR(built->scenario.perturbations.delays[0].ms, 0.05, 1e-9);
    // A program that ends with something else (an all-gather, on both ranks): 3 steps and a
    // wrap-up, which is not drawn (issue 30: a final check after a training loop).
    std::vector<Call> whole = program;
    whole.back().func = "AllGather";
    whole.back().count = 1u << 17;
    whole.back().ranks = 2;
    auto cut = buildProfiledRun(profileOf(whole));
    ASSERT_TRUE(cut) << cut.error().message;
    EXPECT_FALSE(cut->run.hang.has_value());
    EXPECT_EQ(cut->run.iterations.size(), 3u);
    EXPECT_EQ(cut->scenario.program.size(), 4u);
    EXPECT_EQ(cut->run.collectives.size(), 6u);
}

TEST(ProfileSteps, RecordsStillArrivingKeepOneIteration)
{
    // `shardlab profile --live`'s provisional runs: collective k at op 2k+1 (profile_live.h).
    ProfileBuildOptions options;
    options.recordsStillArriving = true;
    auto built = buildProfiledRun(profileOf(threeSteps(50, 10)), options);
    ASSERT_TRUE(built) << built.error().message;
    ASSERT_EQ(built->run.collectives.size(), 7u);
    for (size_t k = 0; k < 7; ++k)
        EXPECT_EQ(built->run.collectives[k].op, static_cast<int>(2 * k + 1));
    EXPECT_EQ(built->run.iterations.size(), 1u);
    EXPECT_EQ(built->scenario.program.size(), 14u);
}

TEST(ProfileSteps, TheStepSimulatesBackToTheMeanMeasuredStep)
{
    // The all-reduces last what the cost model says on the default machine, so that the
    // re-simulated step is the work's alone to match.
    const Topology machine = defaultProfileMachine(2);
    CostModel model(machine);
    // (to the nanosecond, as the records hold times)
    const double a = std::round(model.collective(OpKind::AllReduce, 4u << 20, {0, 1}).timeUs * 1e3) / 1e3;
    const double b = std::round(model.collective(OpKind::AllReduce, 1u << 20, {0, 1}).timeUs * 1e3) / 1e3;
    auto built = buildProfiledRun(profileOf(threeSteps(a, b)), {machine, "three steps"});
    ASSERT_TRUE(built) << built.error().message;
    // Mean work per step before the 4 MiB all-reduce: rank 0 (130 + 100 + 100) / 3 = 110 us
    // (the set-up's 30 us once), rank 1 (180 + 150 + 150) / 3 = 160: flops for 110 us, rank 1
    // 50 us more as a delay in every step; before the 1 MiB one 20 us on both.
    const Scenario& s = built->scenario;
    CostModel onMachine(s.topology);
    EXPECT_NEAR(onMachine.computeUs(s.program[0].flops, 0), 110.0, 1e-6);
    EXPECT_NEAR(onMachine.computeUs(s.program[2].flops, 0), 20.0, 1e-6);
    ASSERT_EQ(s.perturbations.delays.size(), 1u);
    EXPECT_EQ(s.perturbations.delays[0].rank, 1);
    EXPECT_EQ(s.perturbations.delays[0].op, 0);
    EXPECT_EQ(s.perturbations.delays[0].iteration, -1);
    EXPECT_NEAR(s.perturbations.delays[0].ms, 0.05, 1e-9);
    // Measured: (30 + 3 x (150 + a + 20 + b)) / 3 = 180 + a + b us; simulated: rank 1's
    // 160 + a + 20 + b a step.
    const double measured = summarize(s, built->run).stepTimeMs;
    EXPECT_NEAR(measured, (180 + a + b) / 1e3, 1e-9);
    auto simulated = simulate(s);
    ASSERT_TRUE(simulated) << simulated.error().message;
    EXPECT_EQ(simulated->iterations.size(), 3u);
    EXPECT_NEAR(summarize(s, *simulated).stepTimeMs, measured, 1e-6);
}

} // namespace
} // namespace shardlab
