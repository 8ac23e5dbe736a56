#include "plan_layer_time.h"

#include <algorithm>

namespace shardlab {

namespace {

// Forward, and backward as its two GEMMs (the input's gradient [M,N]x[N,K], the weight's [K,M]x[M,N]).
struct Gemms {
    double forward = 0, backward = 0;
    void add(const ComputeModel& c, const LayerGemm& g)
    {
        forward += g.times * c.gemmUs(g.m, g.n, g.k);
        backward += g.times * (c.gemmUs(g.m, g.k, g.n) + c.gemmUs(g.k, g.n, g.m));
    }
};

} // namespace

bool groupCrossesNodes(const Topology& topo, const std::vector<int>& group)
{
    for (int r : group)
        if (topo.gpus[static_cast<size_t>(r)].node != topo.gpus[static_cast<size_t>(group.front())].node)
            return true;
    return false;
}

StageWork stageWork(const TransformerModel& m, const TrainingSettings& st, const ParallelPlan& plan, int stage,
                    const ComputeModel& compute, PlanPricer& pricer, std::vector<PlanCollective>& record)
{
    const Topology& topo = pricer.topology();
    const ParameterCount count = countParameters(m);
    StageWork w;
    w.layers = layersPerStage(m, plan.pp)[static_cast<size_t>(stage)];
    const bool first = stage == 0, last = stage == plan.pp - 1;
    const bool sp = plan.sequenceParallel && plan.tp > 1;
    const bool recordHere = stage == 0;
    const double microBatches = microBatchesPerStep(st, plan);
    const double t = plan.tp, h = m.hidden, f = m.ffn, d = m.headDim();
    const double kvWidth = static_cast<double>(m.kvHeads) * d;
    const double tokens = static_cast<double>(st.seq) / plan.cp * st.microBatch; // T: tokens of a micro-batch on a rank
    const double vocab = paddedVocab(m, plan);
    const double drop = m.dropout ? 1 : 0;

    // --- one layer's compute ---
    Gemms gemms;
    for (const LayerGemm& g : layerGemms(m, st, plan))
        gemms.add(compute, g);
    const double attnFwd = compute.attentionForwardUs(tokens, st.seq, m.heads / t, d, st.flashAttention);
    const double attnBwd = compute.attentionBackwardUs(tokens, st.seq, m.heads / t, d, st.flashAttention);
    // Element-wise work, bytes read and written per token (2 per value): the two norms (4h), the
    // two residual additions (6h), the two dropouts with their masks (5h), split along the
    // sequence with sequence parallelism; the MLP's activation (2f, 3f gated) on each token copy.
    const double routed = m.moe() ? m.expertsPerToken : 1;
    const double elementFwd = compute.memoryBoundUs(2 * tokens * (10 * h + 5 * h * drop) / (sp ? t : 1)
                                                    + 2 * tokens * routed * (m.gatedFfn ? 3 : 2) * f / t);
    const double layerFwd = gemms.forward + attnFwd + elementFwd;
    double layerBwd = gemms.backward + attnBwd + 2 * elementFwd;
    if (st.recompute == Recompute::Full)
        layerBwd += layerFwd;
    else if (st.recompute == Recompute::Selective && !st.flashAttention)
        layerBwd += attnFwd;

    // --- one layer's collectives, per micro-batch ---
    const int rank = rankAt(plan, {0, 0, stage, 0});
    double tpFwd = 0, tpBwd = 0;
    if (plan.tp > 1) {
        // Megatron-LM: two all-reduces of the layer's activations forward and two backward; with
        // sequence parallelism each becomes an all-gather and a reduce-scatter of the same size
        const std::vector<int> group = meshGroup(plan, MeshAxis::Tensor, rank);
        const Bytes bytes = static_cast<Bytes>(2 * tokens * h);
        const double passes = st.recompute == Recompute::Full ? 3 : 2; // forward, backward, forward again
        auto one = [&](OpKind kind, double perPass) {
            const CollectiveCost c = pricer.price(kind, bytes, group);
            if (recordHere)
                record.push_back({MeshAxis::Tensor, kind, Message("plan.what.activations"), bytes,
                                  perPass * passes * w.layers * microBatches, plan.tp, groupCrossesNodes(topo, group),
                                  c.timeUs, c.timeUs * perPass * passes * w.layers * microBatches, c.algorithm});
            return c.timeUs * perPass;
        };
        const double perPass =
            sp ? one(OpKind::AllGather, 2) + one(OpKind::ReduceScatter, 2) : one(OpKind::AllReduce, 2);
        tpFwd = perPass;
        tpBwd = perPass * (passes - 1);
    }
    double cpFwd = 0, cpBwd = 0;
    if (plan.cp > 1) {
        // ring attention: CP - 1 steps, each passing a chunk's K and V to the next rank while the
        // attention over the chunk in hand runs; the backward pass passes K, V and their gradients
        const std::vector<int> ring = meshGroup(plan, MeshAxis::Context, rank);
        const Bytes kv = static_cast<Bytes>(2 * 2 * tokens * kvWidth / t);
        const CollectiveCost fwd = pricer.price(OpKind::SendRecv, kv, {ring[0], ring[1]});
        const CollectiveCost bwd = pricer.price(OpKind::SendRecv, 2 * kv, {ring[0], ring[1]});
        const double steps = plan.cp - 1;
        cpFwd = steps * std::max(0.0, fwd.timeUs - attnFwd / plan.cp);
        cpBwd = steps * std::max(0.0, bwd.timeUs - attnBwd / plan.cp);
        if (st.recompute == Recompute::Full)
            cpBwd += cpFwd;
        if (recordHere) {
            record.push_back({MeshAxis::Context, OpKind::SendRecv, Message("plan.what.kv"), kv,
                              steps * w.layers * microBatches, plan.cp, groupCrossesNodes(topo, ring), fwd.timeUs,
                              cpFwd * w.layers * microBatches, fwd.algorithm});
            record.push_back({MeshAxis::Context, OpKind::SendRecv, Message("plan.what.kv_grads"), 2 * kv,
                              steps * w.layers * microBatches, plan.cp, groupCrossesNodes(topo, ring), bwd.timeUs,
                              cpBwd * w.layers * microBatches, bwd.algorithm});
        }
    }
    double epFwd = 0, epBwd = 0;
    if (m.moe() && plan.ep > 1) {
        // tokens to their experts' ranks and back: two all-to-alls forward, two backward
        const std::vector<int> group = meshGroup(plan, MeshAxis::Expert, rank);
        const Bytes bytes = static_cast<Bytes>(2 * tokens * m.expertsPerToken * h / (sp ? t : 1));
        const CollectiveCost c = pricer.allToAll(bytes, group);
        const double passes = st.recompute == Recompute::Full ? 3 : 2;
        epFwd = 2 * c.timeUs;
        epBwd = 2 * c.timeUs * (passes - 1);
        if (recordHere)
            record.push_back({MeshAxis::Expert, OpKind::AllGather, Message("plan.what.tokens"), bytes,
                              2 * passes * w.layers * microBatches, plan.ep, groupCrossesNodes(topo, group), c.timeUs,
                              (epFwd + epBwd) * w.layers * microBatches, c.algorithm});
    }

    w.forwardComputeUs = w.layers * layerFwd;
    w.backwardComputeUs = w.layers * layerBwd;
    w.forwardGemmUs = w.layers * gemms.forward;
    w.backwardGemmUs = w.layers * (gemms.backward + (st.recompute == Recompute::Full ? gemms.forward : 0));
    // --- the ends of the model ---
    if (first) { // the embedding lookup writes T x h
        w.forwardComputeUs += compute.memoryBoundUs(2 * tokens * h);
        w.backwardComputeUs += compute.memoryBoundUs(4 * tokens * h);
    }
    if (last) { // the output projection and the cross-entropy over fp32 logits (written, read, gradient written)
        Gemms head;
        head.add(compute, {tokens, vocab / t, h});
        const double loss = compute.memoryBoundUs(3 * 4 * tokens * vocab / t);
        w.forwardComputeUs += head.forward + loss / 3;
        w.backwardComputeUs += head.backward + 2 * loss / 3;
        w.forwardGemmUs += head.forward;
        w.backwardGemmUs += head.backward;
    }
    w.tpExposedUs = w.layers * (tpFwd + tpBwd);
    w.tpForwardUs = w.layers * tpFwd;
    w.tpBackwardUs = w.layers * tpBwd;
    w.cpExposedUs = w.layers * (cpFwd + cpBwd);
    w.epExposedUs = w.layers * (epFwd + epBwd);
    w.forwardUs = w.forwardComputeUs + w.layers * (tpFwd + cpFwd + epFwd);
    w.backwardUs = w.backwardComputeUs + w.layers * (tpBwd + cpBwd + epBwd);
    w.p2pBytes = static_cast<Bytes>(2 * tokens * h / (sp ? t : 1));

    const double denseLayer =
        count.attentionPerLayer + count.routerPerLayer + count.normsPerLayer + (m.moe() ? 0 : count.mlpPerLayer);
    w.denseParams = w.layers * denseLayer / t;
    if (first)
        w.denseParams += vocab * h / t;
    if (last && (!m.tiedEmbeddings || plan.pp > 1))
        w.denseParams += vocab * h / t;
    w.expertParams = m.moe() ? w.layers * count.mlpPerLayer / t / plan.ep : 0;
    return w;
}

} // namespace shardlab
