// Strong and weak scaling curves against hand-computed alpha-beta values, the rescaling rules of
// scaling.h, and the course's two scaling cases.
#include "../analysis_helpers.h"

#include "shardlab/analysis/scaling.h"
#include "shardlab/analysis/scaling_format.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/routing.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <numeric>

using namespace shardlab;
using namespace shardlab::test;

namespace {

// Ring all-reduce of 1 GB on n ranks of the box with the unit profile (test_cost_model.cpp):
// launch 5 + base 4 + 2(n-1) x (hop 3 + route 0.5) + 2(n-1)/n x 1e9 B / 100 GB/s, the data
// stretched by the ring's receive-only last step, x (1 + rho / (2(n-1))) with rho = 2 x 100 GB/s /
// (0.85 x 1000 GB/s HBM) = 0.235294 (docs/cost-model.md, section 3). (A scaling curve's one-GPU
// point has no collective: see StrongScalingByHand.)
double allReduceUs(int n)
{
    return 9 + 2 * (n - 1) * 3.5 + 2.0 * (n - 1) / n * 1e9 / 100e9 * 1e6 * (1 + 2 * 100 / 850.0 / (2 * (n - 1)));
}

} // namespace

TEST(Scaling, DefaultGpuCounts)
{
    EXPECT_EQ(defaultGpuCounts(5), (std::vector<int>{1, 2, 3, 4, 5}));
    EXPECT_EQ(defaultGpuCounts(20), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20}));
    const auto big = defaultGpuCounts(1024);
    EXPECT_EQ(big.front(), 1);
    EXPECT_EQ(big.back(), 1024);
    EXPECT_EQ(big.size(), 16u + 4u * 6u); // 1..16, then four points per doubling up to 1024
    EXPECT_TRUE(std::is_sorted(big.begin(), big.end()));
    EXPECT_EQ(defaultGpuCounts(100).back(), 100);
}

TEST(Scaling, StrongScalingByHand)
{
    ScalingOptions o;
    o.gpuCounts = {2, 4, 8};
    o.profile = unitProfile();
    auto curve = scalingCurve(dataParallelBox(), o);
    ASSERT_TRUE(curve.ok()) << curve.error().message;
    ASSERT_EQ(curve->points.size(), 4u);
    // compute: 8 TFLOP / 10 TFLOP/s = 800 ms on one GPU, 800/n ms per rank on n. One GPU
    // exchanges nothing: its point leaves the all-reduce out, so T(1) is the run summary's
    // one-GPU time, 800 ms, and every speed-up is the one the run page shows for that scenario.
    const double t1 = 800.0;
    for (const ScalingPoint& p : curve->points) {
        const double compute = 800.0 / p.gpus;
        const double comm = p.gpus == 1 ? 0.0 : allReduceUs(p.gpus) / 1e3;
        const double step = compute + comm;
        EXPECT_NEAR(p.computeMs, compute, 1e-9) << p.gpus;
        EXPECT_NEAR(p.commMs, comm, 1e-9) << p.gpus;
        EXPECT_NEAR(p.waitMs, 0.0, 1e-12);
        EXPECT_NEAR(p.stepTimeMs, step, 1e-9) << p.gpus;
        EXPECT_NEAR(p.speedup, t1 / step, 1e-9) << p.gpus;
        EXPECT_NEAR(p.efficiency, t1 / step / p.gpus, 1e-9) << p.gpus;
        EXPECT_NEAR(p.computeMs + p.commMs + p.waitMs + p.idleMs, p.stepTimeMs, 1e-9);
    }
    // 8 GPUs: 100 ms + 9 + 49 us + 17,500 us x (1 + 0.235294 / 14) = 17,852.118 us: 117.852118 ms;
    // speed-up 800 / 117.852118 = 6.788
    EXPECT_NEAR(curve->find(8)->stepTimeMs, 117.852118, 1e-6);
    EXPECT_NEAR(curve->find(8)->speedup, 800 / 117.852118, 1e-5);
    EXPECT_EQ(curve->find(1)->speedup, 1.0);
    EXPECT_EQ(curve->find(1)->commMs, 0.0);
    EXPECT_EQ(curve->find(8)->collective, "gradient all-reduce");
    ASSERT_TRUE(curve->find(8)->linkKind.has_value());
    EXPECT_EQ(*curve->find(8)->linkKind, LinkKind::NvLink);
    // busbw = 1 GB / 17.852118 ms x 2(n-1)/n = 98.03 GB/s
    EXPECT_NEAR(curve->find(8)->busbwGBps, 1e9 / 17852.118e-6 / 1e9 * 1.75, 1e-5);
    EXPECT_EQ(curve->find(1)->busbwGBps, 0.0); // one GPU: no collective, no bus bandwidth
    // and the curve says why its one-GPU point has no communication
    bool said = false;
    for (const Message& m : curve->rescaleMessages)
        said = said || m.id == "scaling.rescale.one_gpu";
    EXPECT_TRUE(said);
}

TEST(Scaling, WeakScalingKeepsTheWorkPerRank)
{
    ScalingOptions o;
    o.mode = ScalingMode::Weak;
    o.gpuCounts = {2, 4, 8};
    o.profile = unitProfile();
    auto curve = scalingCurve(dataParallelBox(), o);
    ASSERT_TRUE(curve.ok()) << curve.error().message;
    // each rank always computes 1 TFLOP = 100 ms; the gradients stay 1 GB
    for (const ScalingPoint& p : curve->points) {
        EXPECT_NEAR(p.computeMs, 100.0, 1e-9) << p.gpus;
        const double step = 100.0 + (p.gpus == 1 ? 0.0 : allReduceUs(p.gpus) / 1e3);
        const double t1 = 100.0; // the one-GPU point exchanges nothing
        EXPECT_NEAR(p.stepTimeMs, step, 1e-9);
        EXPECT_NEAR(p.efficiency, t1 / step, 1e-9); // T(1) / T(n)
        EXPECT_NEAR(p.speedup, p.gpus * t1 / step, 1e-9);
    }
    EXPECT_NEAR(curve->find(8)->efficiency, 100.0 / 117.852118, 1e-8);
}

TEST(Scaling, RescalingRules)
{
    Scenario s = dataParallelBox();
    s.workload.items.push_back({"input", ItemKind::Data, 1000, {Shard{0, 1000, {5}}}}); // one rank's alone
    s.perturbations.slowdown = {1, 1, 1, 1, 1, 1, 2, 1};
    s.perturbations.delays = {Delay{0, 0, -1, 1.0}, Delay{7, 0, -1, 2.0}};
    Op bc;
    bc.kind = OpKind::Broadcast;
    bc.item = "gradients";
    bc.root = 6;
    s.program.push_back(bc);
    s.program.push_back({});
    s.program.back().kind = OpKind::AllGather;
    s.program.back().item = "batch";
    s.program.back().bytes = 8'000'000'000ULL;
    s.perturbations.mismatches = {Mismatch{Mismatch::Type::Skip, 1, 1, 0}};
    ASSERT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;

    std::vector<std::string> notes;
    auto four = rescaleScenario(s, s.topology, 4, ScalingMode::Strong, &notes);
    ASSERT_TRUE(four.ok()) << four.error().message;
    EXPECT_EQ(four->ranks(), 4);
    const WorkloadItem* batch = four->workload.find("batch");
    ASSERT_EQ(batch->shards.size(), 4u); // re-split evenly
    EXPECT_EQ(batch->ownedBy(3), 2'000'000'000ULL);
    EXPECT_EQ(batch->size, 8'000'000'000ULL);                                  // strong: total unchanged
    EXPECT_EQ(four->workload.find("gradients")->ownedBy(3), 1'000'000'000ULL); // replicated on all
    EXPECT_EQ(four->workload.find("input")->ownedBy(0), 1000u);                // rank 5's item moves to rank 0
    EXPECT_EQ(four->program[2].root, 0);                                       // root 6 does not exist on 4 GPUs
    EXPECT_EQ(four->perturbations.slowdown.size(), 4u);
    ASSERT_EQ(four->perturbations.delays.size(), 1u); // rank 7's delay is dropped
    EXPECT_TRUE(four->perturbations.mismatches.empty());
    EXPECT_EQ(*four->program[3].bytes, 8'000'000'000ULL);
    EXPECT_GE(notes.size(), 3u); // input moved, root moved, mismatches dropped

    auto weak = rescaleScenario(s, s.topology, 4, ScalingMode::Weak);
    ASSERT_TRUE(weak.ok());
    EXPECT_EQ(weak->workload.find("batch")->size, 4'000'000'000ULL); // 8 GB x 4/8
    EXPECT_EQ(weak->workload.find("gradients")->size, 1'000'000'000ULL);
    EXPECT_DOUBLE_EQ(weak->program[0].flops, 4e12);
    EXPECT_EQ(*weak->program[3].bytes, 4'000'000'000ULL); // explicit size over a split item grows with it

    // a collective on a subset of ranks, or a send/recv, cannot be rescaled
    Scenario sub = dataParallelBox();
    sub.program[1].group = {0, 1};
    auto bad = rescaleScenario(sub, sub.topology, 4, ScalingMode::Strong);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("$.program[1].group"), std::string::npos);
    EXPECT_FALSE(rescaleScenario(dataParallelBox(), sub.topology, 0, ScalingMode::Strong).ok());
}

TEST(Scaling, UnevenSplitIsEvenedOutAndSaidSo)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    ScalingOptions o;
    o.gpuCounts = {4};
    auto curve = scalingCurve(s, o);
    ASSERT_TRUE(curve.ok()) << curve.error().message;
    ASSERT_FALSE(curve->rescaleNotes.empty());
    EXPECT_NE(curve->rescaleNotes[0].find("unevenly"), std::string::npos);
    EXPECT_NEAR(curve->find(4)->waitMs, 0.0, 1e-9); // evenly split: nobody waits
}

TEST(Scaling, PresetTemplateAndTheScenarioPointItself)
{
    const Scenario four = loadExample("fifth-gpu-4.shardlab.json");
    EXPECT_EQ(scalingTemplate(four.topology).rankCount(), 8); // the whole teaching-8x16gb-2socket
    Topology edited = four.topology;
    edited.gpus[0].tflops = 1;
    EXPECT_EQ(scalingTemplate(edited).rankCount(), 4); // an edited machine stays as it is
    ScalingOptions o;
    o.maxGpus = 8;
    auto curve = scalingCurve(four, o);
    ASSERT_TRUE(curve.ok()) << curve.error().message;
    // the point at the scenario's own size is the scenario's own run
    auto run = simulate(four);
    ASSERT_TRUE(run.ok());
    EXPECT_NEAR(curve->find(4)->stepTimeMs, summarize(four, *run).stepTimeMs, 1e-9);
    // and the 5-GPU point is the course's fifth-gpu-5 scenario
    const Scenario five = loadExample("fifth-gpu-5.shardlab.json");
    auto run5 = simulate(five);
    ASSERT_TRUE(run5.ok());
    EXPECT_NEAR(curve->find(5)->stepTimeMs, summarize(five, *run5).stepTimeMs, 1e-9);
}

TEST(Scaling, CourseAFifthGpuMakesItSlowerAndTheCurveSaysWhy)
{
    ScalingOptions o;
    o.maxGpus = 8;
    auto curve = scalingCurve(loadExample("fifth-gpu-4.shardlab.json"), o);
    ASSERT_TRUE(curve.ok()) << curve.error().message;
    const ScalingPoint& p4 = *curve->find(4);
    const ScalingPoint& p5 = *curve->find(5);
    EXPECT_LT(p5.computeMs, p4.computeMs);
    EXPECT_GT(p5.stepTimeMs, p4.stepTimeMs);
    EXPECT_EQ(*p4.linkKind, LinkKind::Pcie);
    EXPECT_EQ(*p5.linkKind, LinkKind::CrossSocket);
    const ScalingNote* note = nullptr;
    for (const ScalingNote& n : curve->notes)
        if (n.fromGpus == 4 && n.toGpus == 5)
            note = &n;
    ASSERT_NE(note, nullptr);
    EXPECT_EQ(note->kind, ScalingNote::Kind::Slower);
    EXPECT_NE(note->sentence.find("CPU-socket"), std::string::npos) << note->sentence;
    EXPECT_NE(note->sentence.find("1.60 instead of 1.50"), std::string::npos) << note->sentence;
}

TEST(Scaling, CourseEfficiencyDropsFromEightToSixteenWhileTheAllReduceKeepsItsTime)
{
    ScalingOptions o;
    o.gpuCounts = {2, 4, 8, 16};
    auto curve = scalingCurve(loadExample("scaling-8-to-16.shardlab.json"), o);
    ASSERT_TRUE(curve.ok()) << curve.error().message;
    const ScalingPoint& p8 = *curve->find(8);
    const ScalingPoint& p16 = *curve->find(16);
    // Issue 16: with one ring per 400 Gb/s NIC the all-reduce crosses the network at about the bus
    // bandwidth NVSwitch gave (376 against 360 GB/s), so it takes about as long on 16 GPUs as on 8
    // (2 GB: 9.80 and 10.15 ms) while compute halves (119.4 -> 59.7 ms): efficiency 92% -> 85%.
    EXPECT_GT(p8.efficiency, 0.9);
    EXPECT_LT(p16.efficiency, p8.efficiency - 0.05);
    EXPECT_GT(p16.efficiency, 0.8);
    EXPECT_EQ(p8.nodes, 1);
    EXPECT_EQ(p16.nodes, 2);
    EXPECT_EQ(*p8.linkKind, LinkKind::NvLink);
    EXPECT_EQ(*p16.linkKind, LinkKind::Network);
    EXPECT_NEAR(p16.commMs, p8.commMs, 0.1 * p8.commMs);
    EXPECT_NEAR(p16.computeMs, p8.computeMs / 2, 0.01 * p8.computeMs);
    ASSERT_FALSE(curve->notes.empty());
    const ScalingNote& n = curve->notes.back();
    EXPECT_EQ(n.fromGpus, 8);
    EXPECT_EQ(n.toGpus, 16);
    EXPECT_EQ(n.kind, ScalingNote::Kind::CrossesLink);
    EXPECT_NE(n.sentence.find("the network"), std::string::npos) << n.sentence;
}

// Issue 29: the run page said 7.39x / 92 % for the course's 8 GPUs and the scaling table 7.40x /
// 93 %, because the table measured against a one-GPU run with its collectives (a local copy of
// 1.41 ms) and the run page against the compute alone. One definition now: the curve's point for
// the scenario's own GPU count has the run summary's speed-up and efficiency, to the last bit.
TEST(Scaling, APointHasTheRunSummarysSpeedupAndEfficiency)
{
    for (const char* file :
         {"scaling-8-gpus.shardlab.json", "scaling-16-gpus.shardlab.json", "fifth-gpu-4.shardlab.json"}) {
        SCOPED_TRACE(file);
        const Scenario s = loadExample(file);
        auto run = simulate(s);
        ASSERT_TRUE(run.ok());
        const Summary sum = summarize(s, *run);
        ScalingOptions o;
        o.gpuCounts = {s.ranks()};
        auto curve = scalingCurve(s, o);
        ASSERT_TRUE(curve.ok()) << curve.error().message;
        const ScalingPoint* p = curve->find(s.ranks());
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(p->stepTimeMs, sum.stepTimeMs);
        EXPECT_EQ(p->speedup, sum.speedup);
        EXPECT_EQ(p->efficiency, sum.efficiency);
        EXPECT_EQ(curve->find(1)->commMs, 0.0); // one GPU exchanges nothing
        EXPECT_EQ(curve->find(1)->stepTimeMs, sum.oneGpuMs);
    }
}

TEST(Scaling, TableAndJson)
{
    ScalingOptions o;
    o.gpuCounts = {2, 4, 8};
    o.profile = unitProfile();
    auto curve = scalingCurve(dataParallelBox(), o);
    ASSERT_TRUE(curve.ok());
    const std::string table = formatScalingTable(*curve);
    EXPECT_NE(table.find("Strong scaling"), std::string::npos);
    EXPECT_NE(table.find("117.852"), std::string::npos) << table;
    const auto doc = nlohmann::json::parse(scalingJson(*curve));
    EXPECT_EQ(doc["mode"], "strong");
    ASSERT_EQ(doc["points"].size(), 4u);
    EXPECT_NEAR(doc["points"][3]["step_time_ms"].get<double>(), 117.852118, 1e-6);
    EXPECT_EQ(doc["points"][3]["collective"]["link_kind"], "nvlink");
    // one GPU: no collective at all
    EXPECT_TRUE(doc["points"][0]["collective"].is_null()) << doc["points"][0].dump();
    EXPECT_EQ(doc["points"][0]["comm_ms"], 0.0);
}

TEST(Scaling, CancelStopsTheCurve)
{
    std::atomic<bool> cancel{true};
    ScalingOptions o;
    o.cancel = &cancel;
    auto curve = scalingCurve(dataParallelBox(), o);
    ASSERT_FALSE(curve.ok());
    EXPECT_EQ(curve.error().kind, ErrorKind::Cancelled);
    int calls = 0;
    ScalingOptions p;
    p.progress = [&](int done, int total) {
        ++calls;
        return done < total - 1;
    };
    EXPECT_FALSE(scalingCurve(dataParallelBox(), p).ok());
    EXPECT_EQ(calls, 7); // 1..8: stops when asked after the seventh point
}

TEST(Scaling, TwoGpusOfOneNodeNeverTalkThroughTheNetworkSwitch)
{
    // Scaled out, every PCIe switch of the two-socket node gets a NIC on the fabric. Socket 0's
    // GPU 3 and socket 1's GPU 4 must still talk over the sockets' link, as NCCL does (P2P or
    // shared memory inside a node), not out through one NIC and back in through another.
    const Topology t = scaleOut(*preset("teaching-8x16gb-2socket"), 16);
    Router router(t);
    const Route& r = router.route(3, 4);
    ASSERT_TRUE(r.valid());
    bool crossSocket = false;
    for (const Hop& h : r.hops) {
        EXPECT_NE(t.links[static_cast<size_t>(h.link)].kind, LinkKind::Network);
        crossSocket = crossSocket || t.links[static_cast<size_t>(h.link)].kind == LinkKind::CrossSocket;
    }
    EXPECT_TRUE(crossSocket);
    // between nodes the network is the way
    const Route& across = router.route(0, 8);
    ASSERT_TRUE(across.valid());
    bool network = false;
    for (const Hop& h : across.hops)
        network = network || t.links[static_cast<size_t>(h.link)].kind == LinkKind::Network;
    EXPECT_TRUE(network);
}
