#include "shardlab/plan/plan_flops.h"

#include <algorithm>
#include <cmath>

namespace shardlab {

namespace {

// Parameters of the matrices one token passes through in one layer (the active experts).
double activeLayerMatrices(const TransformerModel& m)
{
    const ParameterCount c = countParameters(m);
    return c.attentionPerLayer + c.activeMlpPerLayer + c.routerPerLayer;
}

} // namespace

double modelFlopsPerToken(const TransformerModel& m, int seq)
{
    // 2 FLOP per multiply-add forward, 4 backward: 6 per parameter of each matrix the token
    // passes, the output projection (V*h) included, the embedding lookup not.
    const double matrices = m.layers * activeLayerMatrices(m) + static_cast<double>(m.vocab) * m.hidden;
    // Causal attention: QK^T and the attention over V are 2*s*h each per token forward over all s
    // keys, half of them under the mask: 2*s*h forward, 6*s*h forward and backward, per layer.
    const double attention = 6.0 * m.layers * seq * m.hidden;
    return 6 * matrices + attention;
}

StepFlops stepFlops(const TransformerModel& m, const TrainingSettings& st, int globalBatch)
{
    const double tokens = static_cast<double>(globalBatch) * st.seq;
    StepFlops f;
    f.model = modelFlopsPerToken(m, st.seq) * tokens;
    // Recomputation runs forward work again: full, every layer's forward pass (2 per parameter plus
    // the forward attention 2*s*h); selective, the attention core's forward (2*s*h); FlashAttention
    // recomputes the scores QK^T (s*h under the causal mask) in its backward pass.
    const double attentionForward = 2.0 * m.layers * st.seq * m.hidden;
    double extra = 0;
    if (st.recompute == Recompute::Full)
        extra = 2 * m.layers * activeLayerMatrices(m) + attentionForward;
    else if (st.recompute == Recompute::Selective && !st.flashAttention)
        extra = attentionForward;
    if (st.flashAttention)
        extra += attentionForward / 2;
    f.hardware = f.model + extra * tokens;
    return f;
}

std::vector<LayerGemm> layerGemms(const TransformerModel& m, const TrainingSettings& st, const ParallelPlan& plan)
{
    const double t = plan.tp, h = m.hidden, f = m.ffn;
    const double kvWidth = static_cast<double>(m.kvHeads) * m.headDim();
    const double tokens = static_cast<double>(st.seq) / plan.cp * st.microBatch;
    const double mlpWidth = (m.gatedFfn ? 2 : 1) * f; // the first MLP matrix's outputs (gate and up)
    std::vector<LayerGemm> out{
        {tokens, (h + 2 * kvWidth) / t, h}, // Q, K, V
        {tokens, h, h / t},                 // the attention's output projection
    };
    if (m.moe()) {
        out.push_back({tokens, static_cast<double>(m.experts), h}); // the router
        const double perExpert = plan.ep * tokens * m.expertsPerToken / m.experts;
        const double local = static_cast<double>(m.experts) / plan.ep;
        out.push_back({perExpert, mlpWidth / t, h, local});
        out.push_back({perExpert, h, f / t, local});
    } else {
        out.push_back({tokens, mlpWidth / t, h});
        out.push_back({tokens, h, f / t});
    }
    return out;
}

std::vector<OpGemm> passGemms(const TransformerModel& m, const TrainingSettings& st, const ParallelPlan& plan,
                              int layers, bool head, bool forward)
{
    std::vector<LayerGemm> body; // the layers' GEMMs, then the output layer's
    if (layers > 0)
        for (LayerGemm g : layerGemms(m, st, plan)) {
            g.times *= layers;
            body.push_back(g);
        }
    std::vector<LayerGemm> all = body;
    if (head)
        all.push_back({static_cast<double>(st.seq) / plan.cp * st.microBatch,
                       static_cast<double>(paddedVocab(m, plan)) / plan.tp, static_cast<double>(m.hidden)});
    std::vector<OpGemm> out;
    auto add = [&out](double rows, double cols, double inner, double times) {
        auto side = [](double x) { return std::clamp<long long>(std::llround(x), 1, kMaxGemmSide); };
        const long long count = std::llround(times);
        if (count >= 1)
            out.push_back(
                {{side(rows), side(cols), side(inner)}, static_cast<int>(std::min<long long>(count, kMaxGemmCount))});
    };
    if (forward) {
        for (const LayerGemm& g : all)
            add(g.m, g.n, g.k, g.times);
        return out;
    }
    if (st.recompute == Recompute::Full) // the layers' forward again (the output layer is not recomputed)
        for (const LayerGemm& g : body)
            add(g.m, g.n, g.k, g.times);
    for (const LayerGemm& g : all) {
        add(g.m, g.k, g.n, g.times); // the input's gradient
        add(g.k, g.n, g.m, g.times); // the weight's
    }
    return out;
}

} // namespace shardlab
