// Memory per rank. docs/planner.md, "Memory", derives each term.
#include "shardlab/plan/plan_memory.h"

#include <algorithm>

namespace shardlab {

double layerActivationBytes(const TransformerModel& m, const TrainingSettings& st, const ParallelPlan& plan)
{
    const double s = static_cast<double>(st.seq) / plan.cp; // tokens of a sequence on this rank
    const double b = st.microBatch;
    const double h = m.hidden;
    const double t = plan.tp;
    const bool sp = plan.sequenceParallel && plan.tp > 1;
    if (st.recompute == Recompute::Full) // the layer's input only (2sbh), split by sequence parallelism
        return 2 * s * b * h / (sp ? t : 1);
    const double drop = m.dropout ? 1 : 0;
    const double kvWidth = static_cast<double>(m.kvHeads) * m.headDim();
    const double routed = m.moe() ? m.expertsPerToken : 1; // each token's copies through the MLP
    // Korthikanti et al. 2022, section 4.1, with bytes: 2 per bf16 value, 1 per dropout mask value.
    // Kept whole on every tensor-parallel rank unless sequence parallel: the two norms' inputs (4sbh),
    // the inputs of the QKV and first MLP projections (2sbh each), the two dropout masks (sbh each).
    const double replicated = s * b * h * (4 + 2 + 2 + 2 * drop);
    // Split over the tensor-parallel ranks: Q (2sbh), K and V (2sb * kvWidth each), the output
    // projection's input (2sbh), and the MLP's inner activations: 4sbf for an MLP of two matrices
    // (the activation's input and output), 6sbf for a gated one (gate, up and their product).
    const double split = s * b * (2 * h + 4 * kvWidth + 2 * h) + routed * s * b * m.ffn * (m.gatedFfn ? 6 : 4);
    double bytes = sp ? (replicated + split) / t : replicated + split / t;
    // The attention scores, a*s*s*b values: the softmax output (2 bytes), with dropout its mask (1)
    // and output (2): Korthikanti's 5as^2b. None are kept with FlashAttention or selective recomputation.
    const bool keepsScores = !st.flashAttention && st.recompute == Recompute::None;
    if (keepsScores)
        bytes += m.heads * s * s * b * (2 + 3 * drop) / t;
    return bytes;
}

double inFlightMicroBatches(const ParallelPlan& plan, int microBatches, int stage)
{
    const double m = microBatches;
    const double p = plan.pp;
    switch (plan.schedule.kind) {
    case ScheduleKind::GPipe: return m;
    case ScheduleKind::OneFOneB: return std::min(m, p - stage);
    case ScheduleKind::Interleaved: return std::min(m, p - stage + (p - 1) / plan.schedule.virtualStages);
    }
    return m;
}

std::vector<PlanMemory> stageMemory(const TransformerModel& m, const TrainingSettings& st, const ParallelPlan& plan)
{
    const ParameterCount count = countParameters(m);
    const std::vector<int> layers = layersPerStage(m, plan.pp);
    const int microBatches = microBatchesPerStep(st, plan);
    const double vocabH = static_cast<double>(paddedVocab(m, plan)) * m.hidden;
    const double denseLayer =
        count.attentionPerLayer + count.routerPerLayer + count.normsPerLayer + (m.moe() ? 0 : count.mlpPerLayer);
    const double expertLayer = m.moe() ? count.mlpPerLayer : 0;
    // ZeRO shards over the ranks holding the same weights: data x context parallel (experts:
    // the expert-data-parallel ranks, dp*cp/ep).
    const double denseShards = static_cast<double>(plan.dp) * plan.cp;
    const double expertShards = denseShards / plan.ep;
    const double layerActs = layerActivationBytes(m, st, plan);
    const bool sp = plan.sequenceParallel && plan.tp > 1;
    const double s = static_cast<double>(st.seq) / plan.cp;
    const double sbh = s * st.microBatch * m.hidden;

    std::vector<PlanMemory> out;
    for (int stage = 0; stage < plan.pp; ++stage) {
        const bool first = stage == 0, last = stage == plan.pp - 1;
        double dense = layers[static_cast<size_t>(stage)] * denseLayer / plan.tp;
        const double experts = layers[static_cast<size_t>(stage)] * expertLayer / plan.tp / plan.ep;
        if (first)
            dense += vocabH / plan.tp;
        if (last && (!m.tiedEmbeddings || plan.pp > 1)) // a tied output layer on its own stage keeps a copy
            dense += vocabH / plan.tp;
        // Bytes per parameter (Rajbhandari et al. 2020, mixed-precision Adam): 2 bf16 weights,
        // 2 bf16 gradients, K = 12 of optimizer state (fp32 master weights, momentum and variance),
        // each divided by the shards for the stages that shard it.
        auto held = [&](double perParam, bool sharded) {
            return perParam * (sharded ? dense / denseShards + experts / expertShards : dense + experts);
        };
        PlanMemory mem;
        mem.params = held(2, shardsWeights(plan.zero));
        mem.grads = held(2, plan.zero != ZeroStage::None && plan.zero != ZeroStage::Optimizer);
        mem.optimizer = held(12, plan.zero != ZeroStage::None);
        double acts = layers[static_cast<size_t>(stage)] * layerActs;
        if (first && m.dropout) // the embedding's dropout mask
            acts += sbh / (sp ? plan.tp : 1);
        mem.activations = acts * inFlightMicroBatches(plan, microBatches, stage);
        if (last) // the output layer (Korthikanti 2022, 4.3): 4sbh/t (1 + V/h), fp32 logits included
            mem.temporary += 4 * sbh / plan.tp * (1 + static_cast<double>(paddedVocab(m, plan)) / m.hidden);
        if (shardsWeights(plan.zero) && layers[static_cast<size_t>(stage)] > 0) {
            // the layer in use and the one prefetched, gathered whole (2 bytes each), and the layer's
            // gradients before their reduce-scatter (2 bytes): 6 bytes per parameter of a layer
            const double layerParams = (denseLayer + expertLayer / plan.ep) / plan.tp;
            mem.temporary += 6 * layerParams;
        }
        out.push_back(mem);
    }
    return out;
}

} // namespace shardlab
