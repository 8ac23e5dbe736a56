// Scenario edits keep every reference valid (the GUI runs each as one undoable step).
#include "shardlab/model/capacity.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/scenario_edit.h"
#include "../test_helpers.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::test;

namespace {

// Four ranks; one item split in four (rank r owns shard r) and one replicated; a program that
// names ranks in every way a step can, and perturbations on ranks and steps.
Scenario fourRanks()
{
    Scenario s;
    s.name = "edit";
    s.topology = nvswitchBox(4);
    WorkloadItem split{"split", ItemKind::Data, 4000, evenShards(4000, 4)};
    for (int r = 0; r < 4; ++r)
        split.shards[static_cast<size_t>(r)].owners = {r};
    WorkloadItem rep{"rep", ItemKind::Parameters, 1000, {Shard{0, 1000, {0, 1, 2, 3}}}};
    s.workload.items = {split, rep};
    Op compute;
    compute.name = "work";
    compute.item = "split";
    compute.flops = 1e12;
    Op reduce;
    reduce.kind = OpKind::Reduce;
    reduce.item = "rep";
    reduce.root = 2;
    Op pair;
    pair.kind = OpKind::SendRecv;
    pair.item = "rep";
    pair.root = 1;
    pair.peer = 3;
    Op alone;
    alone.kind = OpKind::AllReduce;
    alone.item = "rep";
    alone.group = {2};
    Op bcast;
    bcast.kind = OpKind::Broadcast;
    bcast.item = "rep";
    bcast.group = {1, 2, 3};
    bcast.root = 2;
    s.program = {compute, reduce, pair, alone, bcast};
    s.perturbations.slowdown = {1.0, 2.0, 3.0, 4.0};
    s.perturbations.delays = {Delay{2, 0, -1, 5}, Delay{3, 4, -1, 7}, Delay{0, 3, -1, 1}};
    Mismatch m;
    m.rank = 3;
    m.op = 4;
    s.perturbations.mismatches = {m};
    EXPECT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;
    return s;
}

} // namespace

TEST(ScenarioEdit, RemovingARankRenumbersEveryReference)
{
    Scenario s = fourRanks();
    removeRank(s, 2);
    ASSERT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;
    EXPECT_EQ(s.ranks(), 3);
    EXPECT_EQ(s.topology.gpus[2].id, "gpu3"); // ids stay; ranks move down
    for (const Link& l : s.topology.links)
        EXPECT_TRUE(l.a != "gpu2" && l.b != "gpu2");
    // the split item: shard 2 lost its owner, shard 3 now belongs to rank 2
    const WorkloadItem& split = s.workload.items[0];
    EXPECT_EQ(split.shards[0].owners, std::vector<int>{0});
    EXPECT_TRUE(split.shards[2].owners.empty());
    EXPECT_EQ(split.shards[3].owners, std::vector<int>{2});
    EXPECT_EQ(s.workload.items[1].shards[0].owners, (std::vector<int>{0, 1, 2}));
    // program: the all-reduce of rank 2 alone is gone; the reduce rooted at 2 falls back to rank 0,
    // the broadcast rooted at 2 to its group's first rank; send 1 -> 3 becomes 1 -> 2
    ASSERT_EQ(s.program.size(), 4u);
    EXPECT_EQ(s.program[1].root, 0);
    EXPECT_EQ(s.program[2].root, 1);
    EXPECT_EQ(s.program[2].peer, 2);
    EXPECT_EQ(s.program[3].kind, OpKind::Broadcast);
    EXPECT_EQ(s.program[3].group, (std::vector<int>{1, 2}));
    EXPECT_EQ(s.program[3].root, 1);
    // perturbations: rank 2's slowdown and delay go; rank 3's delay and mismatch follow the
    // broadcast (step 4 -> 3) and the rank (3 -> 2); rank 0's delay on the removed step goes
    EXPECT_EQ(s.perturbations.slowdown, (std::vector<double>{1.0, 2.0, 4.0}));
    ASSERT_EQ(s.perturbations.delays.size(), 1u);
    EXPECT_EQ(s.perturbations.delays[0].rank, 2);
    EXPECT_EQ(s.perturbations.delays[0].op, 3);
    ASSERT_EQ(s.perturbations.mismatches.size(), 1u);
    EXPECT_EQ(s.perturbations.mismatches[0].rank, 2);
    EXPECT_EQ(s.perturbations.mismatches[0].op, 3);
}

TEST(ScenarioEdit, SwappingTwoRanksSwapsEveryReference)
{
    Scenario s = fourRanks();
    s.mesh = ScenarioMesh{2, 1, 2, 1, "tp,cp,pp,dp"};
    swapRanks(s, 1, 2);
    ASSERT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;
    EXPECT_EQ(s.topology, fourRanks().topology); // the machine stays
    const WorkloadItem& split = s.workload.items[0];
    EXPECT_EQ(split.shards[1].owners, std::vector<int>{2});
    EXPECT_EQ(split.shards[2].owners, std::vector<int>{1});
    EXPECT_EQ(s.workload.items[1].shards[0].owners, (std::vector<int>{0, 1, 2, 3})); // still ascending
    EXPECT_EQ(s.program[1].root, 1);                                                 // reduce rooted at 2
    EXPECT_EQ(s.program[2].root, 2);                                                 // send 1 -> 3 ...
    EXPECT_EQ(s.program[2].peer, 3);                                                 // ... is now 2 -> 3
    EXPECT_EQ(s.program[3].group, std::vector<int>{1});                              // rank 2 alone
    EXPECT_EQ(s.program[4].group, (std::vector<int>{2, 1, 3}));                      // in the order of its places
    EXPECT_EQ(s.program[4].root, 1);
    EXPECT_EQ(s.perturbations.slowdown, (std::vector<double>{1.0, 3.0, 2.0, 4.0}));
    EXPECT_EQ(s.perturbations.delays[0].rank, 1);
    EXPECT_EQ(s.perturbations.delays[1].rank, 3);
    EXPECT_EQ(s.perturbations.mismatches[0].rank, 3);
    EXPECT_EQ(s.mesh->gpus, (std::vector<int>{0, 2, 1, 3})); // place 1 is GPU 2 now
    EXPECT_EQ(s.mesh->placeOf(2), 1);
    // swapping back restores the scenario exactly, and the mesh's places are the plan's again
    swapRanks(s, 2, 1);
    Scenario original = fourRanks();
    original.mesh = ScenarioMesh{2, 1, 2, 1, "tp,cp,pp,dp"};
    EXPECT_EQ(s, original);
    EXPECT_TRUE(s.mesh->gpus.empty());
    // a rank beyond the slowdowns runs at 1.0, and takes the other's factor
    Scenario few = fourRanks();
    few.perturbations.slowdown = {1.0, 2.0};
    swapRanks(few, 1, 3);
    EXPECT_EQ(few.perturbations.slowdown, (std::vector<double>{1.0, 1.0, 1.0, 2.0}));
    // nothing happens for a rank that does not exist or a rank with itself
    Scenario same = fourRanks();
    swapRanks(same, 1, 4);
    swapRanks(same, 2, 2);
    EXPECT_EQ(same, fourRanks());
}

TEST(ScenarioEdit, RemovingAGpuEndsAPlansMesh)
{
    // the mesh placed GPU 3, which is gone: it describes this machine no more, and a GPU added
    // back would take places the plan never gave it
    Scenario s = fourRanks();
    s.mesh = ScenarioMesh{2, 1, 2, 1, "tp,cp,pp,dp", {0, 3, 2, 1}};
    removeRank(s, 3);
    EXPECT_FALSE(s.mesh.has_value());
    ASSERT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;
    Scenario fewer = fourRanks();
    fewer.mesh = ScenarioMesh{2, 1, 2, 1, "tp,cp,pp,dp"};
    replaceTopology(fewer, nvswitchBox(2));
    EXPECT_FALSE(fewer.mesh.has_value());
}

TEST(ScenarioEdit, AMeshsGpusMustBeEachOfItsPlacesOnce)
{
    Scenario s = fourRanks();
    s.mesh = ScenarioMesh{2, 1, 2, 1, "tp,cp,pp,dp", {0, 2, 1, 3}};
    EXPECT_TRUE(validateScenario(s).ok());
    for (const std::vector<int>& bad : {std::vector<int>{0, 1, 2}, {0, 1, 1, 3}, {0, 1, 2, 4}}) {
        s.mesh->gpus = bad;
        const Status st = validateScenario(s);
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.error().message.find("$.mesh.gpus: not the mesh's 4 GPUs each once"), std::string::npos)
            << st.error().message;
    }
}

TEST(ScenarioEdit, RemovingASenderRemovesItsSendRecv)
{
    Scenario s = fourRanks();
    removeRank(s, 3);
    ASSERT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;
    for (const Op& op : s.program)
        EXPECT_NE(op.kind, OpKind::SendRecv);
    EXPECT_TRUE(s.perturbations.mismatches.empty());
}

TEST(ScenarioEdit, AddedGpuCopiesTheDeviceAndItsLinks)
{
    Scenario s = fourRanks();
    s.topology.gpus[1].memory = 80'000'000'000ULL;
    const int r = addGpuLike(s, 1);
    EXPECT_EQ(r, 4);
    EXPECT_EQ(s.topology.gpus[4].id, "gpu4");
    EXPECT_EQ(s.topology.gpus[4].memory, 80'000'000'000ULL);
    int links = 0;
    for (const Link& l : s.topology.links)
        if (l.a == "gpu4" || l.b == "gpu4") {
            ++links;
            EXPECT_EQ(l.kind, LinkKind::NvLink);
        }
    EXPECT_EQ(links, 1);
    EXPECT_TRUE(validateScenario(s).ok());
    EXPECT_EQ(capacityOf(s).ranks[4].owned, 0u);
    EXPECT_EQ(addGpuLike(s, 9), -1);
}

TEST(ScenarioEdit, NewGpuIdSkipsUsedIds)
{
    Topology t = nvswitchBox(2);
    t.switches.push_back({"gpu2", SwitchKind::PcieSwitch, 0, 0});
    EXPECT_EQ(newGpuId(t), "gpu3");
}

TEST(ScenarioEdit, ReplacingTheTopologyDropsMissingRanks)
{
    Scenario s = fourRanks();
    replaceTopology(s, *preset("teaching-4x16gb-pcie"));
    EXPECT_EQ(s, [] {
        Scenario t = fourRanks();
        t.topology = *preset("teaching-4x16gb-pcie");
        return t;
    }());
    replaceTopology(s, nvswitchBox(2));
    ASSERT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;
    EXPECT_EQ(s.workload.items[1].shards[0].owners, (std::vector<int>{0, 1}));
    EXPECT_EQ(s.perturbations.slowdown.size(), 2u);
    replaceTopology(s, *preset("h200-nvswitch-8"));
    EXPECT_EQ(s.ranks(), 8);
    EXPECT_TRUE(validateScenario(s).ok());
}

TEST(ScenarioEdit, ResplitInheritsOwnersFromTheShardHoldingTheFirstByte)
{
    // 14/10 GB on ranks 0/1 cut into twelve 2 GB shards: seven start in rank 0's part, five in rank 1's
    WorkloadItem item{"data", ItemKind::Data, 24'000'000'000ULL, customShards({14'000'000'000ULL, 10'000'000'000ULL})};
    item.shards[0].owners = {0};
    item.shards[1].owners = {1};
    resplitItem(item, evenShards(item.size, 12));
    ASSERT_EQ(item.shards.size(), 12u);
    EXPECT_EQ(item.ownedBy(0), 14'000'000'000ULL);
    EXPECT_EQ(item.ownedBy(1), 10'000'000'000ULL);
    EXPECT_EQ(item.shards[6].owners, std::vector<int>{0});
    EXPECT_EQ(item.shards[7].owners, std::vector<int>{1});
}

TEST(ScenarioEdit, ResizeKeepsProportionsAndOwners)
{
    WorkloadItem item{"p", ItemKind::Parameters, 1000, customShards({250, 750})};
    item.shards[0].owners = {0};
    item.shards[1].owners = {1, 2};
    resizeItem(item, 2001);
    ASSERT_EQ(item.shards.size(), 2u);
    EXPECT_EQ(item.shards[0].size, 500u); // floor(250 * 2001 / 1000)
    EXPECT_EQ(item.shards[1].offset, 500u);
    EXPECT_EQ(item.shards[1].size, 1501u); // the last absorbs the rounding
    EXPECT_EQ(item.shards[1].owners, (std::vector<int>{1, 2}));
    resizeItem(item, 3); // floor(500 * 3 / 2001) = 0: the first shard merges into the second
    ASSERT_EQ(item.shards.size(), 1u);
    EXPECT_EQ(item.shards[0].size, 3u);
    EXPECT_EQ(item.shards[0].owners, (std::vector<int>{1, 2}));
}

TEST(ScenarioEdit, RenameAndRemoveItemsFollowTheProgram)
{
    Scenario s = fourRanks();
    EXPECT_FALSE(renameItem(s, "split", "rep"));
    EXPECT_FALSE(renameItem(s, "split", ""));
    EXPECT_TRUE(renameItem(s, "split", "batch"));
    EXPECT_EQ(s.program[0].item, "batch");
    EXPECT_EQ(removeItem(s, "rep"), 4);
    ASSERT_EQ(s.program.size(), 1u);
    EXPECT_TRUE(s.perturbations.mismatches.empty());
    ASSERT_EQ(s.perturbations.delays.size(), 1u);
    EXPECT_EQ(s.perturbations.delays[0].op, 0);
    EXPECT_TRUE(validateScenario(s).ok());
    EXPECT_EQ(removeItem(s, "nothing"), 0);
}

TEST(ScenarioEdit, InsertMoveAndRemoveStepsKeepPerturbationsOnTheirStep)
{
    Scenario s = fourRanks();
    Op extra;
    extra.name = "extra";
    insertOp(s, 1, extra);
    EXPECT_EQ(s.program[1].name, "extra");
    EXPECT_EQ(s.perturbations.delays[1].op, 5);
    EXPECT_EQ(s.perturbations.mismatches[0].op, 5);
    moveOp(s, 5, 0); // the broadcast goes first
    EXPECT_EQ(s.program[0].kind, OpKind::Broadcast);
    EXPECT_EQ(s.perturbations.mismatches[0].op, 0);
    EXPECT_EQ(s.perturbations.delays[0].op, 1); // "work" moved from 0 to 1
    moveOp(s, 0, 5);
    EXPECT_EQ(s.perturbations.mismatches[0].op, 5);
    EXPECT_EQ(s.perturbations.delays[0].op, 0);
    removeOp(s, 1);
    EXPECT_EQ(s, fourRanks());
}

TEST(ScenarioEdit, TypicalLinksAreValid)
{
    for (LinkKind k : {LinkKind::NvLink, LinkKind::Pcie, LinkKind::CrossSocket, LinkKind::Network}) {
        const Link l = typicalLink(k, "a", "b");
        EXPECT_EQ(l.kind, k);
        EXPECT_GT(l.bandwidthGBps, 0);
    }
    EXPECT_DOUBLE_EQ(typicalLink(LinkKind::NvLink, "a", "b").bandwidthGBps, 450.0); // 18 x NVLink4
    EXPECT_EQ(typicalLink(LinkKind::NvLink, "a", "b").count, 18);
    EXPECT_DOUBLE_EQ(typicalLink(LinkKind::Network, "a", "b").bandwidthGBps, 50.0); // 400 Gb/s
}

TEST(Capacity, UsedShareDeviationAndGaps)
{
    Scenario s = fourRanks();
    s.workload.items[0].shards[3].owners.clear();
    const CapacityReport rep = capacityOf(s);
    // rank 0 owns 1000 + 1000 of 16e9; mean = (2000 * 3 + 1000) / 4 = 1750
    EXPECT_DOUBLE_EQ(rep.ranks[0].usedPct(), 2000.0 / 16e9 * 100);
    EXPECT_DOUBLE_EQ(rep.deviationPct(0), (2000.0 - 1750.0) / 1750.0 * 100);
    EXPECT_DOUBLE_EQ(rep.deviationPct(3), (1000.0 - 1750.0) / 1750.0 * 100);
    EXPECT_DOUBLE_EQ(rep.deviationPct(9), 0.0);
    OwnershipGaps gaps = ownershipGaps(s);
    EXPECT_EQ(gaps.unowned, 1000u);
    ASSERT_EQ(gaps.messages.size(), 1u);
    EXPECT_EQ(gaps.messages[0], "1 of 4 shards of 'split' (1 kB) have no owner.");
    s.workload.items[1].shards.clear();
    gaps = ownershipGaps(s);
    EXPECT_EQ(gaps.unowned, 2000u);
    EXPECT_EQ(gaps.messages[1], "No rank owns 'rep' (1 kB).");
}
