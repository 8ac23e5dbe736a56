// The plan's mesh, its refusals, memory per rank and FLOPs, against hand-computed values and the
// papers' own figures.
#include "shardlab/model/presets.h"
#include "shardlab/plan/plan_flops.h"
#include "shardlab/plan/plan_memory.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace shardlab {
namespace {

TEST(PlanMesh, RanksNumberTpThenCpThenPpThenDp)
{
    ParallelPlan plan;
    plan.tp = plan.cp = plan.pp = plan.dp = 2;
    // rank = tp + 2 * (cp + 2 * (pp + 2 * dp)): 13 = 1 + 2 * (0 + 2 * (1 + 2 * 1))
    const MeshCoordinate at = meshCoordinate(plan, 13);
    EXPECT_EQ(at.tp, 1);
    EXPECT_EQ(at.cp, 0);
    EXPECT_EQ(at.pp, 1);
    EXPECT_EQ(at.dp, 1);
    EXPECT_EQ(rankAt(plan, at), 13);
    EXPECT_EQ(meshGroup(plan, MeshAxis::Tensor, 13), (std::vector<int>{12, 13}));
    EXPECT_EQ(meshGroup(plan, MeshAxis::Context, 13), (std::vector<int>{13, 15}));
    EXPECT_EQ(meshGroup(plan, MeshAxis::Pipeline, 13), (std::vector<int>{9, 13}));
    EXPECT_EQ(meshGroup(plan, MeshAxis::Data, 13), (std::vector<int>{5, 13}));
    plan = ParallelPlan{};
    plan.dp = 4;
    plan.ep = 2;
    EXPECT_EQ(meshGroup(plan, MeshAxis::Expert, 3), (std::vector<int>{2, 3})); // EP consecutive replicas
}

TEST(PlanMesh, AnotherOrderMovesTheGroupsOntoOtherRanks)
{
    ParallelPlan plan;
    plan.tp = 2;
    plan.dp = 4;
    plan.order = *meshOrderFromText("dp,tp,pp,cp"); // rank = dp + 4 * tp
    EXPECT_EQ(meshCoordinate(plan, 1).dp, 1);
    EXPECT_EQ(meshCoordinate(plan, 4).tp, 1);
    EXPECT_EQ(meshGroup(plan, MeshAxis::Tensor, 0), (std::vector<int>{0, 4}));
    EXPECT_EQ(meshGroup(plan, MeshAxis::Data, 5), (std::vector<int>{4, 5, 6, 7}));
    for (int r = 0; r < 8; ++r)
        EXPECT_EQ(rankAt(plan, meshCoordinate(plan, r)), r);
    EXPECT_EQ(planText(plan), "TP 2 x PP 1 x DP 4, ranks dp,tp,pp,cp");
    EXPECT_EQ(meshOrderText(kDefaultMeshOrder), "tp,cp,pp,dp");
    for (const char* bad : {"tp,cp,pp", "tp,tp,pp,dp", "tp,cp,pp,dp,ep", "tp,cp,pp,ep", "tp,cp,pp,dp,", ""})
        EXPECT_FALSE(meshOrderFromText(bad)) << bad;
}

TEST(PlanMesh, UnevenStagesGiveTheEndsFewerLayers)
{
    TransformerModel m = *modelPreset("llama3-405b");
    std::vector<int> expected(16, 8);
    expected.front() = expected.back() = 7; // Llama 3 405B: 126 layers on 16 stages
    EXPECT_EQ(layersPerStage(m, 16), expected);
    m.layers = 80;
    EXPECT_EQ(layersPerStage(m, 3), (std::vector<int>{26, 27, 27}));
    m.layers = 10;
    EXPECT_EQ(layersPerStage(m, 4), (std::vector<int>{2, 3, 3, 2}));
}

TEST(PlanMesh, SchedulesReadAndWrite)
{
    EXPECT_EQ(scheduleFromText("interleaved:4")->virtualStages, 4);
    EXPECT_EQ(scheduleText(*scheduleFromText("interleaved:4")), "interleaved:4");
    EXPECT_EQ(scheduleFromText("gpipe")->kind, ScheduleKind::GPipe);
    for (const char* bad : {"interleaved", "interleaved:1", "interleaved:x", "interleaved:2x", "2f2b", ""})
        EXPECT_FALSE(scheduleFromText(bad)) << bad;
}

std::vector<std::string> problemIds(const TransformerModel& m, const TrainingSettings& st, const ParallelPlan& plan,
                                    int gpus)
{
    std::vector<std::string> ids;
    for (const Message& problem : planProblems(m, st, plan, preset("h200-nvswitch-8")->firstGpus(std::min(gpus, 8))))
        ids.push_back(problem.id);
    return ids;
}

TEST(PlanMesh, EachImpossiblePlanIsRefusedWithItsReason)
{
    const TransformerModel llama = *modelPreset("llama3-70b"); // 64 heads, 8 KV heads, MLP 28672, 80 layers
    TrainingSettings st;
    ParallelPlan plan;
    plan.tp = 8;
    EXPECT_TRUE(problemIds(llama, st, plan, 8).empty());
    plan.tp = 3;
    EXPECT_EQ(problemIds(llama, st, plan, 3), (std::vector<std::string>{"plan.refuse.tp_heads", "plan.refuse.tp_ffn"}));
    plan.tp = 16; // divides 64 heads but not 8 KV heads (and 16 GPUs is not 8)
    EXPECT_EQ(problemIds(llama, st, plan, 8),
              (std::vector<std::string>{"plan.refuse.gpus", "plan.refuse.tp_kv_heads"}));
    plan = ParallelPlan{};
    plan.pp = 2;
    plan.zero = ZeroStage::Weights;
    EXPECT_EQ(problemIds(llama, st, plan, 2), (std::vector<std::string>{"plan.refuse.zero_pp"}));
    plan.zero = ZeroStage::Fsdp; // torchtitan runs FSDP with pipeline stages
    EXPECT_TRUE(problemIds(llama, st, plan, 2).empty());
    plan = ParallelPlan{};
    plan.schedule = {ScheduleKind::Interleaved, 2};
    EXPECT_EQ(problemIds(llama, st, plan, 1), (std::vector<std::string>{"plan.refuse.interleaved_pp"}));
    plan.pp = 2;
    st.globalBatch = 3; // 3 micro-batches are not a multiple of PP 2
    EXPECT_EQ(problemIds(llama, st, plan, 2), (std::vector<std::string>{"plan.refuse.interleaved_m"}));
    plan = ParallelPlan{};
    plan.dp = 2;
    EXPECT_EQ(problemIds(llama, st, plan, 2), (std::vector<std::string>{"plan.refuse.batch"}));
    st.globalBatch = 0;
    plan = ParallelPlan{};
    plan.cp = 2;
    st.seq = 4098; // not 4 equal chunks
    EXPECT_EQ(problemIds(llama, st, plan, 2), (std::vector<std::string>{"plan.refuse.cp_seq"}));
    st = TrainingSettings{};
    plan = ParallelPlan{};
    plan.dp = 2;
    plan.ep = 2;
    EXPECT_EQ(problemIds(llama, st, plan, 2), (std::vector<std::string>{"plan.refuse.ep_dense"}));
    plan = ParallelPlan{};
    plan.pp = 81;
    EXPECT_EQ(problemIds(llama, st, plan, 8)[1], "plan.refuse.pp_layers");
    st.precision = Precision::Fp8;
    plan = ParallelPlan{};
    const Topology a100 = preset("2x8-a100-8hdr")->firstGpus(1);
    EXPECT_EQ(planProblems(llama, st, plan, a100).at(0).id, "plan.refuse.fp8");
}

TEST(PlanMemory, ActivationsPerLayerAreKorthikantisTable2)
{
    // GPT-3 175B's layer, s = 2048, b = 1, with dropout, scores kept (no FlashAttention)
    TransformerModel m = *modelPreset("gpt3-175b");
    TrainingSettings st;
    st.seq = 2048;
    st.flashAttention = false;
    st.recompute = Recompute::None;
    const double sbh = 2048.0 * 12288;
    const double as_h = 96.0 * 2048 / 12288; // 16
    ParallelPlan plan;
    EXPECT_DOUBLE_EQ(layerActivationBytes(m, st, plan), sbh * (34 + 5 * as_h)); // no parallelism
    plan.tp = 8;
    plan.sequenceParallel = false;
    EXPECT_DOUBLE_EQ(layerActivationBytes(m, st, plan), sbh * (10 + 24.0 / 8 + 5 * as_h / 8)); // tensor parallel
    plan.sequenceParallel = true;
    EXPECT_DOUBLE_EQ(layerActivationBytes(m, st, plan), sbh * (34.0 / 8 + 5 * as_h / 8)); // + sequence parallel
    st.recompute = Recompute::Selective;
    EXPECT_DOUBLE_EQ(layerActivationBytes(m, st, plan), sbh * 34.0 / 8); // + selective recomputation
    st.recompute = Recompute::Full;
    EXPECT_DOUBLE_EQ(layerActivationBytes(m, st, plan), 2 * sbh / 8);
    plan.sequenceParallel = false;
    EXPECT_DOUBLE_EQ(layerActivationBytes(m, st, plan), 2 * sbh);
}

TEST(PlanMemory, InFlightMicroBatchesFollowTheSchedule)
{
    ParallelPlan plan;
    plan.pp = 4;
    EXPECT_DOUBLE_EQ(inFlightMicroBatches(plan, 8, 0), 4); // 1F1B: P - stage
    EXPECT_DOUBLE_EQ(inFlightMicroBatches(plan, 8, 3), 1);
    EXPECT_DOUBLE_EQ(inFlightMicroBatches(plan, 2, 0), 2); // never more than a step's micro-batches
    plan.schedule = {ScheduleKind::GPipe, 1};
    EXPECT_DOUBLE_EQ(inFlightMicroBatches(plan, 8, 3), 8);
    plan.schedule = {ScheduleKind::Interleaved, 2};
    EXPECT_DOUBLE_EQ(inFlightMicroBatches(plan, 8, 0), 4 + 3.0 / 2); // P (1 + (P-1)/(P V))
}

TEST(PlanMemory, ModelStatesMatchTheZeroPapersFigure1)
{
    // Rajbhandari et al. 2020, Figure 1: a 7.5B model on 64 data-parallel GPUs holds 120 GB of model
    // states per GPU, 31.4 GB with ZeRO-1, 16.6 GB with ZeRO-2, 1.9 GB with ZeRO-3. A GPT of hidden
    // 4096, 36 layers, 51,200 tokens tied: 7.458B parameters.
    TransformerModel m{"zero-7.5b", "test", 4096, 36, 32, 32, 16384, false, 51200, true, false, 0, 0};
    ASSERT_NEAR(countParameters(m).total, 7.458e9, 0.001e9);
    ParallelPlan plan;
    plan.dp = 64;
    TrainingSettings st;
    st.seq = 1024;
    const std::pair<ZeroStage, double> paper[] = {
        {ZeroStage::None, 120}, {ZeroStage::Optimizer, 31.4}, {ZeroStage::Gradients, 16.6}, {ZeroStage::Weights, 1.9}};
    for (const auto& [zero, gb] : paper) {
        plan.zero = zero;
        const PlanMemory mem = stageMemory(m, st, plan).at(0);
        const double states = (mem.params + mem.grads + mem.optimizer) / 1e9;
        EXPECT_NEAR(states, gb, 0.10 * gb) << nameIn(kZeroStageNames, zero);
    }
    plan.zero = ZeroStage::None; // exactly 16 bytes per parameter: 2 + 2 + 12
    const PlanMemory mem = stageMemory(m, st, plan).at(0);
    EXPECT_NEAR(mem.params + mem.grads + mem.optimizer, 16 * (countParameters(m).total - 4096.0), 1.0);
}

TEST(PlanFlops, ModelFlopsAre6NPlusCausalAttention)
{
    const TransformerModel m = *modelPreset("teaching-125m");
    // 12 layers of 4*768^2 + 2*768*3072 = 7,077,888 matrix parameters, the output 50257*768;
    // causal attention 6*l*s*h = 6*12*2048*768
    const double matrices = 12 * 7'077'888.0 + 50257.0 * 768;
    EXPECT_DOUBLE_EQ(modelFlopsPerToken(m, 2048), 6 * matrices + 6.0 * 12 * 2048 * 768);
    TrainingSettings st;
    st.seq = 2048;
    st.recompute = Recompute::Full;
    const StepFlops f = stepFlops(m, st, 4);
    const double tokens = 4 * 2048.0;
    EXPECT_DOUBLE_EQ(f.model, modelFlopsPerToken(m, 2048) * tokens);
    // full recomputation runs the layers' forward again (2 per matrix parameter and the forward
    // attention 2*l*s*h); FlashAttention recomputes QK^T (l*s*h)
    EXPECT_DOUBLE_EQ(f.hardware - f.model, tokens * (2 * 12 * 7'077'888.0 + 2.0 * 12 * 2048 * 768 + 12.0 * 2048 * 768));
}

} // namespace
} // namespace shardlab
