// FLOPs of a training step, in two conventions (docs/planner.md, "FLOPs"):
//  * model FLOPs (for MFU, Chowdhery et al. 2022, appendix B): 6 per parameter of every matrix a
//    token passes (the active experts only; the output projection counted, the embedding lookup not)
//    plus causal attention's 6*l*s*h per token (QK^T and the attention over V, half of the s*s
//    scores under the causal mask, forward and backward);
//  * hardware FLOPs: what the GPUs execute, with the recomputation's extra forward passes.
// Papers differ (Narayanan et al. 2021 count attention without the causal half and full
// recomputation's fourth pass); their conventions are converted in the tests that cite them.
#pragma once

#include "shardlab/plan/training.h"
#include "shardlab/plan/transformer.h"

namespace shardlab {

struct StepFlops {
    double model = 0;    // per step, every GPU together
    double hardware = 0; // the same with recomputation
};
double modelFlopsPerToken(const TransformerModel& model, int seq);
StepFlops stepFlops(const TransformerModel& model, const TrainingSettings& settings, int globalBatch);

} // namespace shardlab
