// The compute model and the step estimate against hand-computed cases; the search.
#include "shardlab/io/scenario_io.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/scenario_edit.h"
#include "shardlab/plan/plan_flops.h"
#include "shardlab/plan/plan_scenario.h"
#include "shardlab/plan/plan_search.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace shardlab {
namespace {

AcceleratorSpec a100() { return acceleratorOf(preset("2x8-a100-8hdr")->gpus.front()); }

TEST(ComputeModel, AGemmIsComputeOrMemoryBoundWithItsLastWave)
{
    const AcceleratorSpec spec = a100();
    ASSERT_EQ(spec.name, "A100");
    const ComputeModel c(spec, Precision::Bf16);
    // 128 x 13952 outputs: 109 tiles of 128 x 128 on 108 SMs take two waves, the second nearly empty
    const double m = 128, n = 128 * 109, k = 8192;
    const double share = 109.0 / (2 * 108);
    EXPECT_NEAR(c.gemmUs(m, n, k), 2 * m * n * k / (312e12 * 0.80 * share) * 1e6, 1e-9);
    // one row: reading the 4096 x 4096 weight dominates
    EXPECT_NEAR(c.gemmUs(1, 4096, 4096), (4096 + 4096.0 * 4096 + 4096) * 2 / (2039e9 * 0.85) * 1e6, 1e-9);
    EXPECT_EQ(c.gemmUs(0, 4096, 4096), 0);
}

TEST(ComputeModel, ACalibrationScalesTheShapeModelToTheNearestMeasurement)
{
    ComputeCalibration cal;
    cal.gemmBf16 = {{4096, 4096, 4096, 500}};
    cal.attention = {{4096, 32, 128, 200, 100}};
    cal.copyGBps = 1000;
    const ComputeModel plain(a100(), Precision::Bf16);
    const ComputeModel c(a100(), Precision::Bf16, cal);
    EXPECT_NEAR(c.gemmUs(4096, 4096, 4096), 2 * 4096.0 * 4096 * 4096 / 500e12 * 1e6, 1e-9); // the measured time
    const double ratio = c.gemmUs(4096, 4096, 4096) / plain.gemmUs(4096, 4096, 4096);
    EXPECT_NEAR(c.gemmUs(2048, 8192, 1024) / plain.gemmUs(2048, 8192, 1024), ratio, 1e-12); // the same scale elsewhere
    // FlashAttention at the measured TFLOP/s: 2 * 4096 * 4096 * 128 * 32 causal FLOPs forward, 2.5 times backward
    const double flops = 2 * 4096.0 * 4096 * 128 * 32;
    EXPECT_NEAR(c.attentionForwardUs(4096, 4096, 32, 128, true), flops / 200e12 * 1e6, 1e-9);
    EXPECT_NEAR(c.attentionBackwardUs(4096, 4096, 32, 128, true), 2.5 * flops / 100e12 * 1e6, 1e-9);
    EXPECT_NEAR(c.memoryBoundUs(1e9), 1000, 1e-9); // 1 GB at 1,000 GB/s
}

TEST(ComputeModel, TheShippedH200MeasurementReads)
{
    const auto cal = shippedComputeCalibration("H200");
    ASSERT_TRUE(cal);
    EXPECT_NE(cal->device.find("H200"), std::string::npos);
    EXPECT_GE(cal->gemmBf16.size(), 200u);
    EXPECT_GE(cal->attention.size(), 12u);
    for (const GemmPoint& p : cal->gemmBf16)
        EXPECT_LT(p.tflops, 989) << "above the H200's dense bf16 peak at " << p.m << "x" << p.n << "x" << p.k;
    EXPECT_GT(cal->copyGBps, 2000);
    EXPECT_LT(cal->copyGBps, 4800);
    EXPECT_FALSE(shippedComputeCalibration("A100")); // not measured here: the datasheet model applies
}

TEST(ComputeCalibration, ABrokenFileIsRefusedWithItsPath)
{
    auto c = computeCalibrationFromJson(R"({"device": "X", "gemm_bf16": [{"m": 1, "n": 1, "k": "1", "tflops": 1}]})",
                                        "x.json");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("x.json: $.gemm_bf16[0].k: found a string"), std::string::npos)
        << c.error().message;
    c = computeCalibrationFromJson(R"({"device": "X", "gemm_bf16": []})", "x.json");
    ASSERT_FALSE(c);
    c = computeCalibrationFromJson(R"({"device": "X", "gemm_bf16": [{"m": 1, "n": 1, "k": 1, "tflops": -5}]})",
                                   "x.json");
    ASSERT_FALSE(c);
}

PlanEstimate estimateOn(const std::string& machine, int gpus, const std::string& model, ParallelPlan plan,
                        TrainingSettings st)
{
    const Topology topo =
        gpus <= preset(machine)->rankCount() ? preset(machine)->firstGpus(gpus) : scaleOut(*preset(machine), gpus);
    PlanPricer pricer(topo);
    const TransformerModel m = *modelPreset(model);
    EXPECT_TRUE(planProblems(m, st, plan, topo).empty());
    return estimatePlan(m, st, plan, pricer);
}

// One layer's forward GEMMs on one rank: the layer's matrices times the tokens, split over TP.
TEST(PlanFlops, LayerGemmsAreTheLayersMatricesOnOneRank)
{
    TrainingSettings st;
    st.seq = 4096;
    st.microBatch = 1;
    ParallelPlan plan;
    plan.tp = 2;
    // Llama 3 8B: h 4096, 8 KV heads of 128, gated MLP of 14336
    const double T = 4096, h = 4096, kv = 1024, f = 14336;
    double sum = 0;
    for (const LayerGemm& g : layerGemms(*modelPreset("llama3-8b"), st, plan))
        sum += g.flops();
    EXPECT_DOUBLE_EQ(sum, 2 * T * (h * (h + 2 * kv) + h * h + 3 * f * h) / 2);
    // Mixtral 8x7B on EP 2: the rank's 4 experts take T x k / E x EP tokens each, so its experts'
    // FLOPs are those of every token through k = 2 experts; plus the router (E outputs)
    plan.ep = 2;
    sum = 0;
    const std::vector<LayerGemm> moe = layerGemms(*modelPreset("mixtral-8x7b"), st, plan);
    ASSERT_EQ(moe.size(), 5u);
    EXPECT_DOUBLE_EQ(moe[3].times, 4);
    EXPECT_DOUBLE_EQ(moe[3].m, 2 * T * 2 / 8);
    for (const LayerGemm& g : moe)
        sum += g.flops();
    // attention over TP 2, the router (8 outputs, not split), 2 experts' gated MLP over TP 2
    EXPECT_DOUBLE_EQ(sum, 2 * T * (h * (h + 2 * kv) + h * h) / 2 + 2 * T * 8 * h + 2 * T * 2 * (3 * f * h) / 2);
}

// A pass's GEMMs as live mode runs them: forward, the layers' GEMMs `layers` times and the output
// layer's once; backward, each as its two gradients (twice the forward's FLOP), after the layers'
// forward again with full recomputation (the output layer is not recomputed).
TEST(PlanFlops, PassGemmsAreTheForwardsAndBothGradientsBackward)
{
    TrainingSettings st;
    st.seq = 4096;
    st.microBatch = 1;
    ParallelPlan plan;
    plan.tp = 2;
    const TransformerModel m = *modelPreset("llama3-8b");
    const double T = 4096, h = 4096, kv = 1024, f = 14336, vocab = paddedVocab(m, plan);
    const double layer = 2 * T * (h * (h + 2 * kv) + h * h + 3 * f * h) / 2, head = 2 * T * vocab / 2 * h;
    auto flops = [](const std::vector<OpGemm>& gs) {
        double sum = 0;
        for (const OpGemm& g : gs)
            sum += g.count * g.shape.flops();
        return sum;
    };
    const std::vector<OpGemm> fwd = passGemms(m, st, plan, 8, true, true);
    ASSERT_EQ(fwd.size(), 5u);
    EXPECT_EQ(fwd[0], (OpGemm{{4096, 3072, 4096}, 8})); // Q, K, V over TP 2: (4096 + 2 x 1024) / 2
    EXPECT_EQ(fwd[4], (OpGemm{{4096, static_cast<long long>(vocab) / 2, 4096}, 1}));
    EXPECT_DOUBLE_EQ(flops(fwd), 8 * layer + head);
    const std::vector<OpGemm> bwd = passGemms(m, st, plan, 8, true, false);
    ASSERT_EQ(bwd.size(), 10u);
    EXPECT_EQ(bwd[0], (OpGemm{{4096, 4096, 3072}, 8})); // the input's gradient [m, n] x [n, k]
    EXPECT_EQ(bwd[1], (OpGemm{{4096, 3072, 4096}, 8})); // the weight's [k, m] x [m, n]
    EXPECT_DOUBLE_EQ(flops(bwd), 2 * (8 * layer + head));
    st.recompute = Recompute::Full;
    EXPECT_DOUBLE_EQ(flops(passGemms(m, st, plan, 8, true, false)), 3 * 8 * layer + 2 * head);
    EXPECT_TRUE(passGemms(m, st, plan, 0, false, true).empty());
}

TEST(PlanEstimate, TheStepIsThePipelineFormula)
{
    ParallelPlan plan;
    plan.pp = 4;
    TrainingSettings st;
    st.seq = 1024;
    st.globalBatch = 8;
    const PlanEstimate e = estimateOn("h200-nvswitch-8", 4, "teaching-125m", plan, st);
    ASSERT_EQ(e.stages.size(), 4u);
    EXPECT_EQ(e.microBatches, 8);
    double slowest = 0, sum = 0;
    for (const StageEstimate& s : e.stages) {
        slowest = std::max(slowest, s.microBatchUs());
        sum += s.microBatchUs();
        EXPECT_EQ(s.layers, 3);
    }
    // T = m * max(t) + (P - 1) / V * mean(t); bubble = T - m * mean(t)
    EXPECT_NEAR(e.pipelineUs, 8 * slowest + 3 * sum / 4, 1e-6);
    EXPECT_NEAR(e.bubbleUs, e.pipelineUs - 8 * sum / 4, 1e-6);
    EXPECT_NEAR(e.stepUs, e.pipelineUs + e.optimizerUs, 1e-6); // one replica: no data-parallel communication
    EXPECT_NEAR(e.mfu, e.flops.model / (e.stepUs / 1e6) / 4 / 989e12, 1e-12);
    EXPECT_NEAR(e.tokensPerSecPerGpu, 8 * 1024 / (e.stepUs / 1e6) / 4, 1e-9);
    // the last stage also runs the 50,257-token output layer: it is the slowest
    EXPECT_GT(e.stages[3].microBatchUs(), e.stages[1].microBatchUs());

    plan.schedule = {ScheduleKind::Interleaved, 3};
    const PlanEstimate interleaved = estimateOn("h200-nvswitch-8", 4, "teaching-125m", plan, st);
    EXPECT_LT(interleaved.bubbleUs, e.bubbleUs);               // the bubble divided by V...
    EXPECT_GT(interleaved.stages[1].p2pUs, e.stages[1].p2pUs); // ...at V times the sends
}

TEST(PlanEstimate, OverlapHidesDataParallelCommunication)
{
    ParallelPlan plan;
    plan.dp = 8;
    TrainingSettings st;
    st.seq = 2048;
    const PlanEstimate overlapped = estimateOn("h200-nvswitch-8", 8, "llama3-8b", plan, st);
    plan.overlapDataParallel = false;
    const PlanEstimate after = estimateOn("h200-nvswitch-8", 8, "llama3-8b", plan, st);
    double total = 0, exposed = 0;
    for (const PlanCollective& c : after.collectives)
        if (c.axis == MeshAxis::Data) {
            total += c.timeUs * c.countPerStep;
            exposed += c.exposedUs;
        }
    EXPECT_GT(total, 0);
    EXPECT_NEAR(exposed, total, 1e-6 * total); // not overlapped: all of it on the critical path
    EXPECT_LT(overlapped.stepUs, after.stepUs);
}

TEST(PlanEstimate, TensorParallelAcrossNodesIsNamed)
{
    ParallelPlan plan;
    plan.tp = 16; // GPT-3's 96 heads split over two nodes of eight
    TrainingSettings st;
    st.seq = 2048;
    const PlanEstimate e = estimateOn("2x8-h100-ib", 16, "gpt3-175b", plan, st);
    ASSERT_FALSE(e.collectives.empty());
    EXPECT_TRUE(e.collectives.front().crossesNodes);
    EXPECT_EQ(e.bottleneck.id, e.fits ? "plan.bottleneck.tp_across_nodes" : "plan.bottleneck.memory");
    plan.tp = 8;
    plan.dp = 2;
    const PlanEstimate inside = estimateOn("2x8-h100-ib", 16, "gpt3-175b", plan, st);
    EXPECT_FALSE(inside.collectives.front().crossesNodes);
}

TEST(PlanEstimate, APlanThatDoesNotFitIsMarkedWithTheStageThatNeedsMost)
{
    TrainingSettings st;
    const PlanEstimate e = estimateOn("h200-nvswitch-8", 1, "llama3-70b", ParallelPlan{}, st);
    EXPECT_FALSE(e.fits);
    EXPECT_EQ(e.bottleneck.id, "plan.bottleneck.memory");
    EXPECT_GT(e.stages[0].memory.peak(), 16 * 70e9); // 16 bytes per parameter of model states alone
}

TEST(PlanSearch, ListsThePlansThatFitFastestFirstAndCountsTheRest)
{
    const Topology topo = scaleOut(*preset("2x8-h100-ib"), 64);
    PlanPricer pricer(topo);
    TrainingSettings st;
    st.microBatch = 0; // try 1, 2 and 4
    PlanSearchOptions options;
    int calls = 0;
    options.progress = [&](int done, int total) {
        EXPECT_LE(done, total);
        ++calls;
        return true;
    };
    const PlanSearch s = searchPlans(*modelPreset("llama3-70b"), st, pricer, options);
    ASSERT_GT(s.plans.size(), 10u);
    EXPECT_EQ(calls, static_cast<int>(s.plans.size()));
    int dropped = 0;
    for (const DroppedPlans& d : s.dropped)
        dropped += d.count;
    EXPECT_EQ(s.considered, static_cast<int>(s.plans.size()) + dropped);
    EXPECT_TRUE(std::is_sorted(s.plans.begin(), s.plans.end(),
                               [](const PlanEstimate& a, const PlanEstimate& b) { return a.stepUs < b.stepUs; }));
    for (const PlanEstimate& e : s.plans) {
        EXPECT_TRUE(e.fits) << planText(e.plan);
        EXPECT_EQ(e.gpus, 64);
        EXPECT_EQ(e.globalBatch, 64); // one sequence per GPU, the same for every plan
    }
    // a plan of TP 1 on one GPU per replica holds 70B parameters' states: dropped for memory
    EXPECT_TRUE(std::any_of(s.dropped.begin(), s.dropped.end(),
                            [](const DroppedPlans& d) { return d.reason.id == "plan.drop.memory"; }));

    options.progress = [](int done, int) { return done < 3; }; // cancelled after three
    EXPECT_EQ(searchPlans(*modelPreset("llama3-70b"), st, pricer, options).plans.size(), 3u);
}

} // namespace
} // namespace shardlab

namespace shardlab {
namespace {

// Llama 3 8B at TP `tp` x PP `pp`, GPipe, on `topo`: the plan, its estimate and its scenario.
struct GpipePlan {
    ParallelPlan plan;
    PlanEstimate estimate;
    Result<Scenario> scenario;
};
GpipePlan llama8bGpipe(const Topology& topo, int tp, int pp, int globalBatch)
{
    PlanPricer pricer(topo);
    const TransformerModel m = *modelPreset("llama3-8b");
    TrainingSettings st;
    st.globalBatch = globalBatch;
    ParallelPlan plan;
    plan.tp = tp;
    plan.pp = pp;
    plan.schedule = {ScheduleKind::GPipe, 1};
    const PlanEstimate e = estimatePlan(m, st, plan, pricer);
    return {plan, e, planScenario(m, st, e, topo)};
}

TEST(PlanScenario, TheScheduleRunsInTheSimulatorWithThePlansMemory)
{
    const GpipePlan p = llama8bGpipe(preset("h200-nvswitch-8")->firstGpus(8), 2, 4, 8);
    const ParallelPlan& plan = p.plan;
    const PlanEstimate& e = p.estimate;
    const auto& sc = p.scenario;
    ASSERT_TRUE(sc) << sc.error().message;
    EXPECT_TRUE(validateScenario(*sc).ok());
    // the mesh the diagram draws: the plan's sizes and rank order
    ASSERT_TRUE(sc->mesh);
    EXPECT_EQ(*sc->mesh, (ScenarioMesh{2, 1, 4, 1, "tp,cp,pp,dp"}));
    int passes = 0;
    for (const Op& op : sc->program)
        passes += op.kind == OpKind::Compute;
    EXPECT_EQ(passes, 2 * 8 * 4); // a forward and a backward pass of each micro-batch on each stage
    // each rank holds what the plan says its stage holds (weights, gradients, optimizer, activations)
    for (int r = 0; r < 8; ++r) {
        Bytes owned = 0;
        for (const WorkloadItem& it : sc->workload.items)
            owned += it.ownedBy(r);
        const PlanMemory& mem = e.stages[static_cast<size_t>(meshCoordinate(plan, r).pp)].memory;
        EXPECT_NEAR(static_cast<double>(owned), mem.peak(), 8.0) << r;
    }
    // GPipe's sends never wait for a busy stage: the simulated step is the estimate's within 10 %
    const auto run = simulate(*sc);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_NEAR(run->endUs(), e.stepUs, 0.10 * e.stepUs);
}

// Each pass names the GEMMs its ranks run live and their part of its time: the estimate's GEMM time
// over the pass's compute; the output layer's GEMMs only in the last stage's passes.
TEST(PlanScenario, EveryPassNamesItsGemmsForLiveMode)
{
    const GpipePlan p = llama8bGpipe(preset("h200-nvswitch-8")->firstGpus(8), 2, 4, 8);
    ASSERT_TRUE(p.scenario) << p.scenario.error().message;
    const TransformerModel m = *modelPreset("llama3-8b");
    TrainingSettings st;
    st.globalBatch = 8;
    int checked = 0;
    for (const Op& op : p.scenario->program) {
        if (op.kind != OpKind::Compute) {
            EXPECT_TRUE(op.gemms.empty());
            continue;
        }
        const bool forward = op.name.find("forward") != std::string::npos;
        const int stage = op.name[6] - '0'; // "stage 3 forward, micro-batch 1"
        ASSERT_TRUE(stage >= 0 && stage < 4) << op.name;
        EXPECT_EQ(op.gemms, passGemms(m, st, p.plan, 8, stage == 3, forward)) << op.name;
        const StageEstimate& se = p.estimate.stages[static_cast<size_t>(stage)];
        const double passUs = forward ? se.forwardUs - se.tpForwardUs : se.backwardUs - se.tpBackwardUs;
        EXPECT_DOUBLE_EQ(op.gemmShare, (forward ? se.forwardGemmUs : se.backwardGemmUs) / passUs) << op.name;
        EXPECT_GT(op.gemmShare, 0.5) << op.name; // a transformer's passes are mostly GEMMs
        EXPECT_LT(op.gemmShare, 1.0) << op.name;
        ++checked;
    }
    EXPECT_EQ(checked, 2 * 8 * 4);
    // and they survive the file
    auto again = parseScenario(serializeScenario(*p.scenario), "plan");
    ASSERT_TRUE(again) << again.error().message;
    ASSERT_EQ(again->program.size(), p.scenario->program.size());
    for (size_t i = 0; i < again->program.size(); ++i) {
        const Op &a = again->program[i], &b = p.scenario->program[i];
        EXPECT_EQ(a.gemms, b.gemms) << b.name;
        EXPECT_DOUBLE_EQ(a.gemmShare, b.gemmShare) << b.name;
        EXPECT_DOUBLE_EQ(a.flops, b.flops) << b.name;
    }
}

TEST(PlanScenario, A1F1BStageAlternatesForwardAndBackward)
{
    const Topology topo = preset("h200-nvswitch-8")->firstGpus(4);
    PlanPricer pricer(topo);
    const TransformerModel m = *modelPreset("teaching-125m");
    TrainingSettings st;
    st.globalBatch = 6;
    ParallelPlan plan;
    plan.pp = 4;
    const auto sc = planScenario(m, st, estimatePlan(m, st, plan, pricer), topo);
    ASSERT_TRUE(sc) << sc.error().message;
    // stage 0: P - 1 = 3 forwards to fill the pipeline, then one forward and one backward in turn
    std::string order;
    for (const Op& op : sc->program)
        if (op.kind == OpKind::Compute && op.name.rfind("stage 0 ", 0) == 0)
            order += op.name.find("forward") != std::string::npos ? 'F' : 'B';
    EXPECT_EQ(order, "FFFFBFBFBBBB");
    const auto run = simulate(*sc);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_FALSE(run->hang.has_value());
}

TEST(PlanScenario, ATooLargePlanIsRefusedWithItsSize)
{
    const Topology topo = scaleOut(*preset("2x8-h100-ib"), 1024);
    PlanPricer pricer(topo);
    const TransformerModel m = *modelPreset("llama3-70b");
    TrainingSettings st;
    ParallelPlan plan;
    plan.tp = 8;
    plan.pp = 8;
    plan.dp = 16;
    const auto sc = planScenario(m, st, estimatePlan(m, st, plan, pricer), topo);
    ASSERT_FALSE(sc);
    EXPECT_NE(sc.error().message.find("ShardLab writes up to 200000"), std::string::npos) << sc.error().message;
}

TEST(PlanScenario, ATpGroupOrAStageMovesMemberForMember)
{
    // TP 2 x CP 2 x PP 2 x DP 2, TP innermost: place = tp + 2 (cp + 2 (pp + 2 dp))
    ScenarioMesh mesh{2, 2, 2, 2, "tp,cp,pp,dp"};
    using Pairs = std::vector<std::pair<int, int>>;
    // GPU 6 is (tp 0, cp 1, pp 1, dp 0): GPU 0's TP group {0, 1} takes the places of {6, 7}
    EXPECT_EQ(meshUnitSwaps(mesh, 0, 6, MeshUnit::TensorGroup), (Pairs{{0, 6}, {1, 7}}));
    // its stage (pp 0 of replica 0: places 0 to 3) swaps with stage 1 of replica 0 (4 to 7)
    EXPECT_EQ(meshUnitSwaps(mesh, 0, 6, MeshUnit::Stage), (Pairs{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
    // the same TP group, the same stage: nothing; another CP coordinate is another TP group
    EXPECT_TRUE(meshUnitSwaps(mesh, 0, 1, MeshUnit::TensorGroup).empty());
    EXPECT_TRUE(meshUnitSwaps(mesh, 0, 3, MeshUnit::Stage).empty());
    EXPECT_EQ(meshUnitSwaps(mesh, 0, 2, MeshUnit::TensorGroup), (Pairs{{0, 2}, {1, 3}}));
    // a GPU off the mesh, an order that cannot be read: nothing
    EXPECT_TRUE(meshUnitSwaps(mesh, 0, 16, MeshUnit::TensorGroup).empty());
    ScenarioMesh unread = mesh;
    unread.order = "tp,tp,pp,dp";
    EXPECT_TRUE(meshUnitSwaps(unread, 0, 6, MeshUnit::TensorGroup).empty());
    // once moved, the places are those the GPUs play now: GPU 6 plays place 0
    mesh.gpus = {6, 7, 2, 3, 4, 5, 0, 1, 8, 9, 10, 11, 12, 13, 14, 15};
    EXPECT_EQ(meshUnitSwaps(mesh, 6, 2, MeshUnit::TensorGroup), (Pairs{{6, 2}, {7, 3}}));
}

TEST(PlanScenario, MovingAStageToTheOtherNodeMakesTheStepLonger)
{
    // TP 4 x PP 4 on two nodes of eight H100: stages 0 and 1 on node 0, 2 and 3 on node 1, so one
    // pipeline hop crosses the network. Swapping stages 1 and 2 makes all three hops cross it.
    const GpipePlan p = llama8bGpipe(*preset("2x8-h100-ib"), 4, 4, 16);
    const ParallelPlan& plan = p.plan;
    const PlanEstimate& e = p.estimate;
    const auto& sc = p.scenario;
    ASSERT_TRUE(sc) << sc.error().message;
    const auto before = simulate(*sc);
    ASSERT_TRUE(before) << before.error().message;
    Scenario moved = *sc;
    const auto pairs = meshUnitSwaps(*moved.mesh, 4, 8, MeshUnit::Stage); // stage 1 onto stage 2
    ASSERT_EQ(pairs.size(), 4u);
    for (const auto& [a, b] : pairs)
        swapRanks(moved, a, b);
    ASSERT_TRUE(validateScenario(moved).ok()) << validateScenario(moved).error().message;
    EXPECT_EQ(moved.mesh->placeOf(8), 4); // GPU 8 (node 1) plays stage 1 now
    const auto after = simulate(moved);
    ASSERT_TRUE(after) << after.error().message;
    EXPECT_GT(after->endUs(), before->endUs());
    // every GPU holds what its new place holds: the same memory per stage, moved
    for (int r = 0; r < 16; ++r) {
        Bytes owned = 0;
        for (const WorkloadItem& it : moved.workload.items)
            owned += it.ownedBy(r);
        const PlanMemory& mem = e.stages[static_cast<size_t>(meshCoordinate(plan, moved.mesh->placeOf(r)).pp)].memory;
        EXPECT_NEAR(static_cast<double>(owned), mem.peak(), 8.0) << r;
    }
}

} // namespace
} // namespace shardlab
