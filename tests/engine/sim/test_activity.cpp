// Playback activity: each rank's state and each link's traffic at an instant, against
// hand-computed cases; event stepping; the per-iteration stream of the simulator.
#include "../test_helpers.h"

#include "shardlab/sim/activity.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <memory>

using namespace shardlab;
using namespace shardlab::test;

namespace {

struct Played {
    std::unique_ptr<CostModel> model;
    std::shared_ptr<const RunResult> run;
    std::unique_ptr<ActivityIndex> index;
};

Played play(const Scenario& s)
{
    Played p;
    p.model = std::make_unique<CostModel>(s.topology, unitProfile());
    auto r = simulate(s, *p.model);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    p.run = std::make_shared<const RunResult>(r.ok() ? std::move(r).value() : RunResult{});
    p.index = std::make_unique<ActivityIndex>(s, p.run, *p.model);
    return p;
}

} // namespace

TEST(Activity, RanksComputeThenWaitForTheLastArrival)
{
    // 12/6/4/2 GB of 24 GB, 2.4 TFLOP at 10 TFLOP/s: 120/60/40/20 ms of compute.
    Played p = play(splitScenario({12, 6, 4, 2}, 2.4e12, 1'000'000));
    const ActivitySnapshot a = p.index->at(70'000);
    EXPECT_EQ(a.ranks[0], ActivityState::Compute);
    EXPECT_EQ(a.waitingFor[0], -1);
    for (int r = 1; r < 4; ++r) {
        EXPECT_EQ(a.ranks[static_cast<size_t>(r)], ActivityState::Wait) << r;
        EXPECT_EQ(a.waitingFor[static_cast<size_t>(r)], 0) << r;
        EXPECT_EQ(a.collective[static_cast<size_t>(r)], 0) << r;
    }
    // rank 3 finished at 20 ms: at 10 ms everyone computes
    for (ActivityState st : p.index->at(10'000).ranks)
        EXPECT_EQ(st, ActivityState::Compute);
    // before anything and after the end: idle
    for (ActivityState st : p.index->at(p.index->endUs()).ranks)
        EXPECT_EQ(st, ActivityState::Idle);
    for (const LinkActivity& l : a.links)
        EXPECT_EQ(l.utilisation, 0.0);
}

TEST(Activity, RingAllReduceLoadsEveryLinkInStepsOfOneChunk)
{
    // 1 MB all-reduce on 4 ranks, ring on the switch: every GPU link carries one flow each way.
    // moved = 2(n-1)/n S = 1.5 MB per flow. Time (unit profile, LL128 wins):
    //   launch 5 + base 2 + 6 steps x max(0, hop 2 + route latency 0.5 - one step's data 2.778)
    //   + 1.5e6 B / (100 GB/s x 0.9) x (1 + 2 x 90 / (0.85 x 1000) / 6)
    //   = 5 + 2 + 0 + 16.667 x 1.035294 = 24.255 us
    // (LL128's steps hide behind their data; the ring's receive-only last step stretches the data:
    // docs/cost-model.md, section 3; before both, 5 + 2 + 15 + 16.667 = 38.667 us).
    Played p = play(splitScenario({6, 6, 6, 6}, 2.4e12, 1'000'000));
    ASSERT_EQ(p.run->collectives.size(), 1u);
    const CollectiveRecord& rec = p.run->collectives[0];
    const double T = rec.durationUs();
    EXPECT_NEAR(T, 5 + 2 + 1.5e6 / 90e9 * 1e6 * (1 + 2 * 90 / 850.0 / 6), 1e-6);
    EXPECT_NEAR(T, 24.2549, 0.0001);
    EXPECT_EQ(p.index->stepsOf(0), 6);
    EXPECT_EQ(p.index->loadsOf(0).size(), 8u); // 4 links x 2 directions
    for (const LinkLoad& l : p.index->loadsOf(0))
        EXPECT_NEAR(l.bytes, 1.5e6, 1e-3);

    const ActivitySnapshot a = p.index->at(rec.startUs + T * 2.5 / 6); // halfway through step 2
    for (ActivityState st : a.ranks)
        EXPECT_EQ(st, ActivityState::Communicate);
    ASSERT_EQ(a.links.size(), 4u);
    for (const LinkActivity& l : a.links) {
        // utilisation = 1.5e6 B / 24.255 us / 100 GB/s = 0.6184
        EXPECT_NEAR(l.utilisation, 1.5e6 / (T * 1e-6) / 100e9, 1e-9);
        EXPECT_NEAR(l.bytesInFlight, 250'000, 1e-6); // one chunk of S/n per step
        EXPECT_EQ(l.collective, 0);
        EXPECT_EQ(l.step, 2);
        EXPECT_EQ(l.steps, 6);
        EXPECT_NEAR(l.stepProgress, 0.5, 1e-9);
    }
}

TEST(Activity, SendRecvLoadsOneDirection)
{
    // rank 1 sends 10 MB to rank 0: up gpu1's link, down gpu0's link, nothing back.
    Scenario s = splitScenario({6, 6}, 1.2e12, 10'000'000);
    s.program[1].kind = OpKind::SendRecv;
    s.program[1].root = 1;
    s.program[1].peer = 0;
    Played p = play(s);
    ASSERT_EQ(p.run->collectives.size(), 1u);
    const CollectiveRecord& rec = p.run->collectives[0];
    const ActivitySnapshot a = p.index->at((rec.startUs + rec.endUs) / 2);
    ASSERT_EQ(a.links.size(), 2u);
    // link 1 is gpu1 -> nvs (a -> b: forward); link 0 is nvs -> gpu0 (b -> a: backward)
    EXPECT_TRUE(a.links[1].forward);
    EXPECT_FALSE(a.links[0].forward);
    for (const LinkActivity& l : a.links) {
        EXPECT_NEAR(l.utilisation, 10e6 / (rec.durationUs() * 1e-6) / 100e9, 1e-9);
        EXPECT_NEAR(l.bytesInFlight, 10e6, 1e-6); // one step
        EXPECT_EQ(l.steps, 1);
    }
}

TEST(Activity, StepsVisitEveryBoundaryInOrder)
{
    Played p = play(splitScenario({12, 6, 4, 2}, 2.4e12, 1'000'000));
    const CollectiveRecord& rec = p.run->collectives[0];
    const double T = rec.durationUs();
    EXPECT_DOUBLE_EQ(p.index->nextEvent(0), 20'000);       // rank 3 stops computing
    EXPECT_DOUBLE_EQ(p.index->nextEvent(70'000), 120'000); // rank 0 arrives, the all-reduce starts
    EXPECT_NEAR(p.index->nextEvent(120'000), 120'000 + T / 6, 1e-9);
    EXPECT_DOUBLE_EQ(p.index->previousEvent(70'000), 60'000);
    EXPECT_NEAR(p.index->previousEvent(120'000 + T / 6), 120'000, 1e-9);
    // walking forward visits 20, 40, 60, 120 ms, the 5 inner ring-step boundaries, then the end
    std::vector<double> visited;
    for (double t = 0; t < p.index->endUs();) {
        const double next = p.index->nextEvent(t);
        ASSERT_GT(next, t);
        visited.push_back(next);
        t = next;
    }
    ASSERT_EQ(visited.size(), 4u + 5u + 1u);
    EXPECT_DOUBLE_EQ(visited.back(), rec.endUs);
    EXPECT_DOUBLE_EQ(p.index->nextEvent(p.index->endUs()), p.index->endUs());
    EXPECT_DOUBLE_EQ(p.index->previousEvent(0), 0);
    // and backwards the same instants
    std::vector<double> back;
    for (double t = p.index->endUs(); t > 0;) {
        const double prev = p.index->previousEvent(t);
        ASSERT_LT(prev, t);
        back.push_back(prev);
        t = prev;
    }
    ASSERT_EQ(back.size(), visited.size());
    EXPECT_DOUBLE_EQ(back.back(), 0);
}

TEST(Activity, OverlappingCollectivesAddUpOnSharedLinks)
{
    // Two all-reduces on disjoint pairs at the same time share nothing; the same pair twice in
    // a row does not overlap. Every span of the run is found at its midpoint.
    Scenario s = splitScenario({6, 6, 6, 6}, 1.2e12, 4'000'000);
    s.program[1].group = {0, 1};
    Op other = s.program[1];
    other.group = {2, 3};
    s.program.push_back(other);
    s.iterations = 2;
    Played p = play(s);
    ASSERT_EQ(p.run->collectives.size(), 4u);
    for (size_t i = 0; i < p.run->spans.size(); ++i) {
        const Span& sp = p.run->spans[i];
        EXPECT_EQ(p.index->spanAt(sp.rank, sp.stream, (sp.beginUs + sp.endUs) / 2), static_cast<int>(i));
    }
    const CollectiveRecord& a = p.run->collectives[0];
    const ActivitySnapshot snap = p.index->at((a.startUs + a.endUs) / 2);
    for (size_t link = 0; link < snap.links.size(); ++link)
        EXPECT_GT(snap.links[link].utilisation, 0.0) << link; // both pairs run: every GPU link busy
}

TEST(SimulatorStream, DeliversEveryIterationAsItFinishes)
{
    Scenario s = splitScenario({12, 6, 4, 2}, 2.4e12, 1'000'000);
    s.iterations = 4;
    std::vector<size_t> spans;
    std::vector<size_t> marks;
    SimulationOptions o;
    o.iterationDone = [&](const RunResult& soFar, int done, int total) {
        EXPECT_EQ(total, 4);
        EXPECT_EQ(static_cast<int>(soFar.iterations.size()), done);
        for (const Span& sp : soFar.spans)
            EXPECT_LT(sp.iteration, done);
        spans.push_back(soFar.spans.size());
        marks.push_back(soFar.iterations.size());
        return true;
    };
    auto r = simulate(s, o);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(spans.size(), 4u);
    EXPECT_EQ(spans.back(), r->spans.size());
    EXPECT_EQ(spans[0] * 4, r->spans.size()); // every iteration alike
    EXPECT_EQ(marks, (std::vector<size_t>{1, 2, 3, 4}));

    int calls = 0;
    SimulationOptions stop;
    stop.iterationDone = [&](const RunResult&, int, int) { return ++calls < 2; };
    auto cancelled = simulate(s, stop);
    ASSERT_FALSE(cancelled.ok());
    EXPECT_EQ(cancelled.error().kind, ErrorKind::Cancelled);
    EXPECT_EQ(calls, 2);
}

TEST(CostModelFlows, PatternFlowsFollowTheRingOrder)
{
    Topology t = nvswitchBox(4);
    CostModel m(t, unitProfile());
    const std::vector<int> group{0, 1, 2, 3};
    const auto& order = m.ringOrder(group);
    const auto flows = m.patternFlows(OpKind::AllReduce, group, Algorithm::Ring);
    ASSERT_EQ(flows.size(), 4u);
    for (size_t i = 0; i < flows.size(); ++i) {
        EXPECT_EQ(flows[i].from, order[i]);
        EXPECT_EQ(flows[i].to, order[(i + 1) % 4]);
    }
    EXPECT_EQ(m.patternFlows(OpKind::AllGather, group, Algorithm::Direct).size(), 12u);
    const auto sr = m.patternFlows(OpKind::SendRecv, {0, 2}, Algorithm::Direct, 2);
    ASSERT_EQ(sr.size(), 1u);
    EXPECT_EQ(sr[0].from, 2);
    EXPECT_EQ(sr[0].to, 0);
    // moved bytes: 2(n-1)/n S for a ring all-reduce, (n-1)/n S for an all-gather
    EXPECT_NEAR(m.collective(OpKind::AllReduce, 1'000'000, group, Algorithm::Ring).movedBytes, 1.5e6, 1e-6);
    EXPECT_NEAR(m.collective(OpKind::AllGather, 1'000'000, group, Algorithm::Ring).movedBytes, 0.75e6, 1e-6);
}

TEST(Activity, PagingIsAStateOfItsOwn)
{
    // the unified-memory example pages on every rank before it computes: the diagram shows
    // "paging" (in the palette's brown), not "computing", while a paging span runs
    const Scenario s = loadExample("oversubscription-unified-24gb.shardlab.json");
    Played p = play(s);
    const Span* paging = nullptr;
    for (const Span& sp : p.run->spans)
        if (sp.detail == SpanDetail::Paging && sp.stream == 0) {
            paging = &sp;
            break;
        }
    ASSERT_NE(paging, nullptr);
    const ActivitySnapshot a = p.index->at(0.5 * (paging->beginUs + paging->endUs));
    EXPECT_EQ(a.ranks[static_cast<size_t>(paging->rank)], ActivityState::Paging);
}
