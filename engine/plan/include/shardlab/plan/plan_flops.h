// FLOPs of a training step, in two conventions (docs/planner.md, "FLOPs"):
//  * model FLOPs (for MFU, Chowdhery et al. 2022, appendix B): 6 per parameter of every matrix a
//    token passes (the active experts only; the output projection counted, the embedding lookup not)
//    plus causal attention's 6*l*s*h per token (QK^T and the attention over V, half of the s*s
//    scores under the causal mask, forward and backward);
//  * hardware FLOPs: what the GPUs execute, with the recomputation's extra forward passes.
// Papers differ (Narayanan et al. 2021 count attention without the causal half and full
// recomputation's fourth pass); their conventions are converted in the tests that cite them.
#pragma once

#include "shardlab/model/gemm_shape.h"

#include "shardlab/plan/parallel_plan.h"
#include "shardlab/plan/training.h"
#include "shardlab/plan/transformer.h"

#include <vector>

namespace shardlab {

struct StepFlops {
    double model = 0;    // per step, every GPU together
    double hardware = 0; // the same with recomputation
};
double modelFlopsPerToken(const TransformerModel& model, int seq);
StepFlops stepFlops(const TransformerModel& model, const TrainingSettings& settings, int globalBatch);

// One GEMM [m, k] x [k, n] of a layer's forward pass on one rank, run `times` times (a rank's
// experts). Backward runs two for each: the input's gradient [m, n] x [n, k] and the weight's
// [k, m] x [m, n].
struct LayerGemm {
    double m = 0, n = 0, k = 0, times = 1;
    double flops() const { return 2 * m * n * k * times; }
};
// The GEMMs of one transformer layer's forward pass on one rank of `plan`, for one micro-batch of
// T = seq / CP x micro-batch tokens: Q, K and V together; the attention's output; the MLP's two
// (gate and up together where it is gated), each split over TP; for a mixture of experts, the
// router and the rank's E / EP experts, each on the tokens routed to it (EP x T x k / E, evenly).
// What the planner prices (plan_layer_time.cpp) and what a plan's scenario names.
std::vector<LayerGemm> layerGemms(const TransformerModel& model, const TrainingSettings& settings,
                                  const ParallelPlan& plan);

// The GEMMs one rank runs in one pass over `layers` layers (and the output layer where `head`), as
// live mode runs them: forward, each of layerGemms() `times` x `layers` times; backward, each as
// its two (the input's gradient [m, n] x [n, k] and the weight's [k, m] x [m, n]), after the
// forward's again with full recomputation. Sides are rounded to whole elements, at least 1.
std::vector<OpGemm> passGemms(const TransformerModel& model, const TrainingSettings& settings, const ParallelPlan& plan,
                              int layers, bool head, bool forward);

} // namespace shardlab
