// Nodes that are copies of each other (CostModel::setNodeSymmetry): the fast path prices the ring,
// chain and rails patterns on the group's first two nodes. It must give exactly what pricing
// every transfer gives, and must not apply where the nodes differ or a spine is shared.
#include "../test_helpers.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <numeric>
#include <string>

using namespace shardlab;
using namespace shardlab::test;

namespace {

std::vector<int> copiesGroup(int n)
{
    std::vector<int> g(static_cast<size_t>(n));
    std::iota(g.begin(), g.end(), 0);
    return g;
}

// Every field of the two costs, exactly (the same arithmetic on the same loads).
void expectSameCopiesCost(const CollectiveCost& fast, const CollectiveCost& exact, const std::string& what)
{
    SCOPED_TRACE(what);
    EXPECT_EQ(fast.timeUs, exact.timeUs);
    EXPECT_EQ(fast.algorithm, exact.algorithm);
    EXPECT_EQ(fast.protocol, exact.protocol);
    EXPECT_EQ(fast.patternGBps, exact.patternGBps);
    EXPECT_EQ(fast.bottleneckLink, exact.bottleneckLink);
    EXPECT_EQ(fast.steps, exact.steps);
    EXPECT_EQ(fast.connected, exact.connected);
    EXPECT_EQ(fast.movedBytes, exact.movedBytes);
}

// Every collective the fast path touches, at a latency-bound and a bandwidth-bound size, chosen by
// the model and forced to each algorithm that applies across nodes.
void expectCopiesFastEqualsExact(const Topology& t, int ranks)
{
    CostModel fast(t), exact(t);
    exact.setNodeSymmetry(false);
    ASSERT_TRUE(fast.nodeSymmetry());
    ASSERT_FALSE(exact.nodeSymmetry());
    const std::vector<int> group = copiesGroup(ranks);
    for (OpKind kind : {OpKind::AllReduce, OpKind::ReduceScatter, OpKind::AllGather, OpKind::Broadcast, OpKind::Reduce})
        for (Bytes bytes : {Bytes{8}, Bytes{1'000'000}, Bytes{1'000'000'000}})
            for (Algorithm a :
                 {Algorithm::Auto, Algorithm::Ring, Algorithm::Tree, Algorithm::NvlsTree, Algorithm::Hierarchical})
                expectSameCopiesCost(fast.collective(kind, bytes, group, a), exact.collective(kind, bytes, group, a),
                                     t.name + ": " + opName(kind) + " of " + std::to_string(bytes) + " B, "
                                         + algorithmName(a));
}

} // namespace

TEST(NodeCopies, FastPathEqualsEveryTransferOnScaledOutPresets)
{
    for (const char* id : {"2x8-h100-ib", "2x8-a100-4hdr", "2x8-a100-8hdr", "2x8-h100-ib-nvls"})
        for (int ranks : {24, 32, 40, 36}) // 3, 4 and 5 full nodes; 36: a last node of four GPUs
            expectCopiesFastEqualsExact(scaleOut(*preset(id), ranks), ranks);
}

TEST(NodeCopies, FastPathEqualsEveryTransferOnARailOptimisedFabric)
{
    // leaves and a spine shared by all nodes: the nodes are not treated as copies
    expectCopiesFastEqualsExact(*preset("4x8-h100-rails"), 32);
}

TEST(NodeCopies, ANodeWithASlowerNicIsNoCopy)
{
    // Node 2 of four gets a 100 Gb/s NIC where the others have 400: the ring across nodes is as
    // slow as that NIC. The fast path, if it priced the first two nodes, would miss it.
    Topology t = scaleOut(*preset("2x8-h100-ib"), 32);
    int slowed = 0;
    for (Link& l : t.links)
        if (l.kind == LinkKind::Network && l.a.rfind("n2/", 0) == 0 && slowed++ == 0)
            l.bandwidthGBps /= 4;
    ASSERT_EQ(slowed, 8);
    const std::vector<int> group = copiesGroup(32);
    CostModel fast(t), exact(t), clean(scaleOut(*preset("2x8-h100-ib"), 32));
    exact.setNodeSymmetry(false);
    const CollectiveCost f = fast.collective(OpKind::AllReduce, 1'000'000'000, group, Algorithm::Ring);
    const CollectiveCost e = exact.collective(OpKind::AllReduce, 1'000'000'000, group, Algorithm::Ring);
    const CollectiveCost c = clean.collective(OpKind::AllReduce, 1'000'000'000, group, Algorithm::Ring);
    expectSameCopiesCost(f, e, "one slow NIC");
    // a ring's share of the slow NIC: 50 x 0.94 / 4 GB/s against 50 x 0.94
    EXPECT_NEAR(c.patternGBps / e.patternGBps, 4.0, 1e-9);
}

TEST(NodeCopies, RanksAtOtherPlacesInOneNodeAreNoCopy)
{
    // Four nodes; the group holds all eight GPUs of nodes 0, 1 and 3 but only the even ones of
    // node 2: not the same places, so priced transfer by transfer, as the exact path.
    const Topology t = scaleOut(*preset("2x8-a100-4hdr"), 32);
    std::vector<int> group;
    for (int r = 0; r < 32; ++r)
        if (r / 8 != 2 || r % 2 == 0)
            group.push_back(r);
    CostModel fast(t), exact(t);
    exact.setNodeSymmetry(false);
    for (Bytes bytes : {Bytes{8}, Bytes{1'000'000'000}})
        expectSameCopiesCost(fast.collective(OpKind::AllReduce, bytes, group),
                             exact.collective(OpKind::AllReduce, bytes, group),
                             "uneven group, " + std::to_string(bytes) + " B");
}

TEST(NodeCopies, SimulatedStepWithAStragglerIsTheSameRankByRank)
{
    // A data-parallel step on four DGX H100 nodes with rank 19 slower and rank 5 delayed: the
    // straggler changes when the all-reduce starts, not what it costs, so every span, collective
    // record and per-rank figure of the run must be the same with and without the fast path.
    Scenario s;
    s.name = "copies";
    s.topology = scaleOut(*preset("2x8-h100-ib"), 32);
    const std::vector<int> all = copiesGroup(32);
    WorkloadItem grads{"gradients", ItemKind::Gradients, 2'000'000'000ULL, {Shard{0, 2'000'000'000ULL, all}}};
    WorkloadItem batch{"batch", ItemKind::Data, 32'000'000ULL, evenShards(32'000'000ULL, 32)};
    for (int r = 0; r < 32; ++r)
        batch.shards[static_cast<size_t>(r)].owners = {r};
    s.workload.items = {grads, batch};
    Op compute;
    compute.kind = OpKind::Compute;
    compute.name = "backward";
    compute.item = "batch";
    compute.flops = 32e12;
    compute.buckets = 4;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "gradient all-reduce";
    ar.item = "gradients";
    ar.buckets = 4;
    ar.overlap = true;
    Op small;
    small.kind = OpKind::AllReduce;
    small.name = "loss";
    small.bytes = 8;
    s.program = {compute, small, ar}; // the blocking 8 B all-reduce right after compute: everyone waits for 19
    s.iterations = 2;
    s.perturbations.slowdown.assign(32, 1.0);
    s.perturbations.slowdown[19] = 1.5;
    s.perturbations.delays.push_back({5, 0, -1, 3.0});
    s.perturbations.jitterPct = 2;

    CostModel fast(s.topology, CostProfile::defaults()), exact(s.topology, CostProfile::defaults());
    exact.setNodeSymmetry(false);
    const auto a = simulate(s, fast);
    const auto b = simulate(s, exact);
    ASSERT_TRUE(a);
    ASSERT_TRUE(b);
    ASSERT_EQ(a->spans.size(), b->spans.size());
    for (size_t i = 0; i < a->spans.size(); ++i) {
        const Span& x = a->spans[i];
        const Span& y = b->spans[i];
        ASSERT_EQ(x.rank, y.rank) << i;
        ASSERT_EQ(x.kind, y.kind) << i;
        ASSERT_EQ(x.beginUs, y.beginUs) << i;
        ASSERT_EQ(x.endUs, y.endUs) << i;
        ASSERT_EQ(x.waitedFor, y.waitedFor) << i;
    }
    ASSERT_EQ(a->collectives.size(), b->collectives.size());
    for (size_t i = 0; i < a->collectives.size(); ++i) {
        EXPECT_EQ(a->collectives[i].startUs, b->collectives[i].startUs) << i;
        EXPECT_EQ(a->collectives[i].endUs, b->collectives[i].endUs) << i;
        EXPECT_EQ(a->collectives[i].algorithm, b->collectives[i].algorithm) << i;
        EXPECT_EQ(a->collectives[i].protocol, b->collectives[i].protocol) << i;
        EXPECT_EQ(a->collectives[i].lastArrival, b->collectives[i].lastArrival) << i;
    }
    const Summary sa = summarize(s, *a), sb = summarize(s, *b);
    EXPECT_EQ(sa.stepTimeMs, sb.stepTimeMs);
    ASSERT_EQ(sa.perRank.size(), sb.perRank.size());
    for (size_t r = 0; r < sa.perRank.size(); ++r) {
        EXPECT_EQ(sa.perRank[r].computeMs, sb.perRank[r].computeMs) << r;
        EXPECT_EQ(sa.perRank[r].commMs, sb.perRank[r].commMs) << r;
        EXPECT_EQ(sa.perRank[r].waitMs, sb.perRank[r].waitMs) << r;
    }
    // the straggler shows: everyone else waits for rank 19 at the blocking all-reduce
    EXPECT_GT(sa.perRank[0].waitMs, 0.0);
    EXPECT_EQ(sa.perRank[19].waitMs, 0.0);
}
