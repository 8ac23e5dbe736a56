// The discrete-event simulator: arrivals, waits, overlap, hangs, jitter, cancellation.
#include "../test_helpers.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::test;

namespace {

const Span* findSpan(const RunResult& r, int rank, SpanKind kind, int stream = 0)
{
    for (const Span& s : r.spans)
        if (s.rank == rank && s.kind == kind && s.stream == stream)
            return &s;
    return nullptr;
}

} // namespace

TEST(Simulator, WaitsEqualTheDifferenceInArrival)
{
    // 12/6/4/2 GB of 24 GB; 2.4 TFLOP on 10 TFLOP/s cards: 120/60/40/20 ms of compute.
    Scenario s = splitScenario({12, 6, 4, 2}, 2.4e12, 1'000'000);
    SimulationOptions o;
    o.profile = unitProfile();
    auto r = simulate(s, o);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->collectives.size(), 1u);
    const CollectiveRecord& c = r->collectives[0];
    EXPECT_EQ(c.lastArrival, 0);
    EXPECT_NEAR(c.startUs, 120'000, 1e-6);
    const double expectedWait[] = {0, 60'000, 80'000, 100'000};
    for (int rank = 1; rank < 4; ++rank) {
        const Span* w = findSpan(*r, rank, SpanKind::Wait);
        ASSERT_NE(w, nullptr);
        EXPECT_NEAR(w->durationUs(), expectedWait[rank], 1e-6);
        EXPECT_EQ(w->waitedFor, 0);
    }
    EXPECT_EQ(findSpan(*r, 0, SpanKind::Wait), nullptr);
    // every rank leaves the all-reduce together
    for (int rank = 0; rank < 4; ++rank) {
        const Span* comm = findSpan(*r, rank, SpanKind::Comm);
        ASSERT_NE(comm, nullptr);
        EXPECT_DOUBLE_EQ(comm->endUs, c.endUs);
    }
}

TEST(Simulator, SlowdownMakesARankTheStraggler)
{
    Scenario s = splitScenario({6, 6, 6, 6}, 2.4e12, 1'000'000);
    s.perturbations.slowdown = {1, 1, 1.5, 1};
    auto r = simulate(s);
    ASSERT_TRUE(r.ok());
    const Summary sum = summarize(s, *r);
    ASSERT_TRUE(sum.straggler.has_value());
    EXPECT_EQ(*sum.straggler, 2);
    EXPECT_NEAR(sum.perRank[0].waitMs, 30.0, 1e-6); // 90 ms - 60 ms
}

TEST(Simulator, InjectedDelayShowsUpAsLateArrival)
{
    Scenario s = splitScenario({6, 6}, 1.2e12, 1'000'000);
    s.perturbations.delays = {{1, 1, -1, 5.0}}; // 5 ms before rank 1's all-reduce
    auto r = simulate(s);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->collectives[0].lastArrival, 1);
    EXPECT_NEAR(findSpan(*r, 0, SpanKind::Wait)->durationUs(), 5000, 1e-6);
}

TEST(Simulator, IterationsAreBackToBack)
{
    Scenario s = splitScenario({6, 6}, 1.2e12, 1'000'000);
    s.iterations = 3;
    SimulationOptions o;
    o.profile = unitProfile();
    auto r = simulate(s, o);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->iterations.size(), 3u);
    const double step = r->iterations[0].endUs - r->iterations[0].beginUs;
    for (const IterationMark& m : r->iterations)
        EXPECT_NEAR(m.endUs - m.beginUs, step, 1e-6);
    EXPECT_DOUBLE_EQ(r->iterations[1].beginUs, r->iterations[0].endUs);
    EXPECT_EQ(r->collectives.size(), 3u);
    EXPECT_EQ(r->collectives[2].sequence, 2);
}

TEST(Simulator, OverlappedBucketsHideCommunicationBehindCompute)
{
    // 4 buckets of backward (10 ms each on every rank) with an overlapped all-reduce per bucket.
    Scenario s = splitScenario({6, 6}, 0.8e12, 400'000'000);
    s.program[0].buckets = 4;
    s.program[1].buckets = 4;
    s.program[1].overlap = true;
    SimulationOptions o;
    o.profile = unitProfile();
    auto r = simulate(s, o);
    ASSERT_TRUE(r.ok()) << r.error().message;
    // 2 ranks, 100 MB per bucket: 5 + 4 + 2 x 3.5 + 1e8 B / 100e9 B/s = 16 us + 1000 us, the data
    // stretched by the ring's receive-only last step (docs/cost-model.md, section 3): rho = 2 x 100
    // / (0.85 x 1000 GB/s of HBM) = 0.235294, k = 2, x 1.117647 = 1117.647 us; 1133.647 us in all
    ASSERT_EQ(r->collectives.size(), 4u);
    const double bucket = 16.0 + 1000.0 * (1 + 2 * 100 / 850.0 / 2);
    EXPECT_NEAR(bucket, 1133.647, 0.001);
    EXPECT_NEAR(r->collectives[0].durationUs(), bucket, 1e-6);
    // bucket k starts when compute slice k ends (10 ms apart): all hidden but the last one
    for (int k = 0; k < 4; ++k)
        EXPECT_NEAR(r->collectives[static_cast<size_t>(k)].startUs, 10'000.0 * (k + 1), 1e-6);
    EXPECT_NEAR(r->iterations[0].endUs, 40'000 + bucket, 1e-6);
    // overlapped comm runs on stream 1; only the tail is exposed on stream 0
    const Summary sum = summarize(s, *r);
    EXPECT_NEAR(sum.perRank[0].commMs, bucket / 1e3, 1e-9);
}

TEST(Simulator, MismatchedCollectiveIsReportedAsAHang)
{
    Scenario s = splitScenario({6, 6, 6, 6}, 1.2e12, 1'000'000);
    s.iterations = 2;
    s.perturbations.mismatches = {{Mismatch::Type::WrongOp, 3, 1, 1, OpKind::AllGather, 0}};
    auto r = simulate(s);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->hang.has_value());
    EXPECT_EQ(r->hang->firstMismatchRank, 3);
    // every rank completed iteration 0's all-reduce (#0) and none the second
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_EQ(r->hang->lastCompleted[static_cast<size_t>(rank)], 0);
    EXPECT_NE(r->hang->pending[3].find("all_gather"), std::string::npos);
}

// Issue 14: with two ranks a vote is a tie; the rank whose call differs from the program's is the
// one to blame (rank 1 here, not rank 0).
TEST(Simulator, WithTwoRanksTheRankThatDiffersFromTheProgramIsBlamed)
{
    for (int wrong : {0, 1}) {
        Scenario s = splitScenario({6, 6}, 1.2e12, 1'000'000);
        s.perturbations.mismatches = {{Mismatch::Type::WrongCount, wrong, 1, 0, OpKind::AllReduce, 4096}};
        auto r = simulate(s);
        ASSERT_TRUE(r.ok());
        ASSERT_TRUE(r->hang.has_value());
        EXPECT_EQ(r->hang->firstMismatchRank, wrong);
        EXPECT_NE(r->hang->explanation.find("rank " + std::to_string(wrong) + " is the first that differs"),
                  std::string::npos)
            << r->hang->explanation;
        s.perturbations.mismatches = {{Mismatch::Type::WrongOp, wrong, 1, 0, OpKind::AllGather, 0}};
        r = simulate(s);
        ASSERT_TRUE(r.ok() && r->hang);
        EXPECT_EQ(r->hang->firstMismatchRank, wrong);
    }
}

TEST(Simulator, SkippedCollectiveIsAHangNamingTheRankThatLeft)
{
    Scenario s = splitScenario({6, 6, 6}, 1.2e12, 1'000'000);
    s.perturbations.mismatches = {{Mismatch::Type::Skip, 1, 1, 0, OpKind::AllReduce, 0}};
    auto r = simulate(s);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->hang.has_value());
    EXPECT_EQ(r->hang->firstMismatchRank, 1);
    EXPECT_NE(r->hang->pending[1].find("left"), std::string::npos);
}

TEST(Simulator, TheWatchdogAbortsAHangOnTheSimulatedClock)
{
    // Four equal ranks of 30 ms compute (0.3 TFLOP each at 10 TFLOP/s); rank 3 calls an all-gather
    // in iteration 1. Everyone arrives 30 ms after iteration 0 ended; the watchdog fires 1.5 s later.
    Scenario s = splitScenario({6, 6, 6, 6}, 1.2e12, 1'000'000);
    s.iterations = 3;
    s.perturbations.mismatches = {{Mismatch::Type::WrongOp, 3, 1, 1, OpKind::AllGather, 0}};
    SimulationOptions o;
    o.watchdogMs = 1500;
    auto r = simulate(s, o);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->hang.has_value());
    ASSERT_EQ(r->iterations.size(), 2u);
    const double arrival = r->iterations[0].endUs + 30'000;
    EXPECT_NEAR(r->iterations[1].endUs, arrival + 1.5e6, 1e-6);
    int waits = 0;
    for (const Span& sp : r->spans) {
        if (sp.iteration != 1 || sp.kind != SpanKind::Wait)
            continue;
        ++waits;
        EXPECT_EQ(sp.collective, -1);
        EXPECT_EQ(sp.op, 1);
        EXPECT_NEAR(sp.beginUs, arrival, 1e-6);
        EXPECT_NEAR(sp.endUs, arrival + 1.5e6, 1e-6);
        EXPECT_EQ(sp.waitedFor, sp.rank == 3 ? -1 : 3); // they wait for the rank that differs
    }
    EXPECT_EQ(waits, 4);
    EXPECT_NE(r->hang->explanation.find("the watchdog aborted the run 1.50 s after the last progress"),
              std::string::npos)
        << r->hang->explanation;
    // without a watchdog the run stops at the hang, as before
    auto plain = simulate(s);
    ASSERT_TRUE(plain.ok());
    EXPECT_NEAR(plain->iterations[1].endUs, arrival, 1e-6);
    EXPECT_EQ(plain->spans.size() + 4, r->spans.size());
}

TEST(Simulator, TheWatchdogLeavesARankThatSkippedAlone)
{
    Scenario s = splitScenario({6, 6, 6}, 1.2e12, 1'000'000);
    s.perturbations.mismatches = {{Mismatch::Type::Skip, 1, 1, 0, OpKind::AllReduce, 0}};
    SimulationOptions o;
    o.watchdogMs = 200;
    auto r = simulate(s, o);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->hang.has_value());
    std::vector<int> waiting;
    for (const Span& sp : r->spans)
        if (sp.kind == SpanKind::Wait && sp.collective == -1) {
            waiting.push_back(sp.rank);
            EXPECT_EQ(sp.waitedFor, 1);
        }
    EXPECT_EQ(waiting, (std::vector<int>{0, 2}));
}

TEST(Simulator, JitterIsReproducibleForASeed)
{
    Scenario s = splitScenario({6, 6, 6, 6}, 1.2e12, 1'000'000);
    s.perturbations.jitterPct = 10;
    s.iterations = 4;
    auto a = simulate(s), b = simulate(s);
    s.perturbations.seed = 99;
    auto c = simulate(s);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    ASSERT_EQ(a->spans.size(), b->spans.size());
    for (size_t i = 0; i < a->spans.size(); ++i)
        EXPECT_DOUBLE_EQ(a->spans[i].endUs, b->spans[i].endUs);
    EXPECT_NE(a->iterations.back().endUs, c->iterations.back().endUs);
    // within +-10% of 30 ms
    for (const Span& sp : a->spans)
        if (sp.kind == SpanKind::Compute) {
            EXPECT_GE(sp.durationUs(), 27'000 - 1e-6);
            EXPECT_LE(sp.durationUs(), 33'000 + 1e-6);
        }
}

TEST(Simulator, CancelStopsTheRun)
{
    Scenario s = splitScenario({6, 6}, 1.2e12, 1'000'000);
    s.iterations = 100;
    std::atomic<bool> cancel{true};
    SimulationOptions o;
    o.cancel = &cancel;
    auto r = simulate(s, o);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
    int calls = 0;
    SimulationOptions p;
    p.progress = [&](int done, int total) {
        EXPECT_EQ(total, 100);
        return ++calls < 5 && done > 0;
    };
    EXPECT_FALSE(simulate(s, p).ok());
    EXPECT_EQ(calls, 5);
}

TEST(Simulator, SendRecvSynchronisesThePair)
{
    Scenario s = splitScenario({8, 4}, 1.2e12, 1'000'000);
    s.program[1].kind = OpKind::SendRecv;
    s.program[1].root = 0;
    s.program[1].peer = 1;
    auto r = simulate(s);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->collectives[0].lastArrival, 0);
    EXPECT_NEAR(findSpan(*r, 1, SpanKind::Wait)->durationUs(), 40'000, 1e-6);
}

TEST(Simulator, SubgroupCollectivesOnlyInvolveTheirMembers)
{
    Scenario s = splitScenario({6, 6, 6, 6}, 1.2e12, 1'000'000);
    s.program[1].group = {0, 1};
    Op other = s.program[1];
    other.group = {2, 3};
    s.program.push_back(other);
    auto r = simulate(s);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->collectives.size(), 2u);
    EXPECT_EQ(r->collectives[0].group, (std::vector<int>{0, 1}));
    EXPECT_EQ(r->collectives[1].group, (std::vector<int>{2, 3}));
    EXPECT_EQ(r->collectives[1].sequence, 0); // its own communicator
}

// Issue 14: a collective between ranks that no chain of links joins is refused (the model would
// price it at nothing: "0.000 ms, 2.00x, 100%"), naming the step and the ranks cut off.
TEST(Simulator, ACollectiveBetweenRanksWithoutARouteIsRefused)
{
    Scenario s = splitScenario({4, 4, 4, 4}, 1e12, 1'000'000);
    // GPU 2 and 3 lose their links: ranks 0-1 still joined, 2 and 3 cut off
    s.topology.links.erase(s.topology.links.begin() + 2, s.topology.links.end());
    auto r = simulate(s);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_NE(r.error().message.find("$.program[1]"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("rank 0 has no route to ranks 2, 3"), std::string::npos) << r.error().message;

    // no links at all: the same refusal; a group of the joined ranks only still runs
    s.topology.links.clear();
    EXPECT_FALSE(simulate(s));
    s = splitScenario({4, 4, 4, 4}, 1e12, 1'000'000);
    s.topology.links.erase(s.topology.links.begin() + 2, s.topology.links.end());
    s.program[1].group = {0, 1};
    EXPECT_TRUE(simulate(s)) << "ranks 0 and 1 are joined";
}

TEST(Simulator, ConnectedPartsFollowLinksThroughSwitches)
{
    Topology t = nvswitchBox(3);
    t.gpus.push_back({"lonely", "G", 16'000'000'000ULL, 10, 1000, 0, 0});
    const std::vector<int> part = connectedParts(t);
    ASSERT_EQ(part.size(), size_t(5)); // 4 GPUs and the switch
    EXPECT_EQ(part[0], part[1]);
    EXPECT_EQ(part[1], part[2]);
    EXPECT_NE(part[3], part[0]); // the fourth GPU has no link
}
