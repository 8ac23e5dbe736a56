// `shardlab plan --json`: the keys scripts rely on (docs/planner.md, "Output"). Sizes in bytes,
// times in milliseconds, shares as fractions.
#include "shardlab/plan/plan_format.h"

#include <nlohmann/json.hpp>

namespace shardlab {

namespace {

using nlohmann::json;

json estimateJson(const PlanEstimate& e)
{
    const ParallelPlan& p = e.plan;
    json out = {
        {"plan",
         {{"tp", p.tp},
          {"cp", p.cp},
          {"pp", p.pp},
          {"dp", p.dp},
          {"ep", p.ep},
          {"zero", nameIn(kZeroStageNames, p.zero)},
          {"sequence_parallel", p.sequenceParallel && p.tp > 1},
          {"schedule", scheduleText(p.schedule)},
          {"overlap_data_parallel", p.overlapDataParallel},
          {"order", meshOrderText(p.order)},
          {"text", planText(p)}}},
        {"gpus", e.gpus},
        {"micro_batch", e.microBatch},
        {"global_batch", e.globalBatch},
        {"micro_batches_per_step", e.microBatches},
        {"step_time_ms", e.stepUs / 1e3},
        {"pipeline_ms", e.pipelineUs / 1e3},
        {"bubble_ms", e.bubbleUs / 1e3},
        {"optimizer_ms", e.optimizerUs / 1e3},
        {"tokens_per_s_per_gpu", e.tokensPerSecPerGpu},
        {"model_tflops_per_gpu", e.modelTflopsPerGpu},
        {"mfu", e.mfu},
        {"bubble_fraction", e.bubbleFraction},
        {"model_flops_per_step", e.flops.model},
        {"hardware_flops_per_step", e.flops.hardware},
        {"accelerator", e.accelerator},
        {"compute_source", e.computeSource},
        {"gpu_memory_bytes", e.gpuMemory},
        {"fits", e.fits},
        {"bottleneck", english(e.bottleneck)},
        {"bottleneck_id", e.bottleneck.id},
    };
    json stages = json::array();
    for (const StageEstimate& s : e.stages)
        stages.push_back({{"stage", s.stage},
                          {"layers", s.layers},
                          {"forward_ms", s.forwardUs / 1e3},
                          {"backward_ms", s.backwardUs / 1e3},
                          {"p2p_ms", s.p2pUs / 1e3},
                          {"peak_memory_bytes", s.memory.peak()},
                          {"fits", s.fits}});
    out["stages"] = stages;
    // every rank: ranks of a stage hold the same (the estimate is made once per stage)
    json ranks = json::array();
    for (int r = 0; r < e.gpus; ++r) {
        const MeshCoordinate at = meshCoordinate(p, r);
        const StageEstimate& s = e.stages[static_cast<size_t>(at.pp)];
        ranks.push_back({{"rank", r},
                         {"tp", at.tp},
                         {"cp", at.cp},
                         {"pp", at.pp},
                         {"dp", at.dp},
                         {"params_bytes", s.memory.params},
                         {"grads_bytes", s.memory.grads},
                         {"optimizer_bytes", s.memory.optimizer},
                         {"activations_bytes", s.memory.activations},
                         {"temporary_bytes", s.memory.temporary},
                         {"peak_memory_bytes", s.memory.peak()},
                         {"fits", s.fits}});
    }
    out["per_rank"] = ranks;
    json collectives = json::array();
    for (const PlanCollective& c : e.collectives)
        collectives.push_back({{"group", nameIn(kMeshAxisNames, c.axis)},
                               {"collective", opName(c.kind)},
                               {"what", english(c.what)},
                               {"bytes", c.bytes},
                               {"count_per_step", c.countPerStep},
                               {"group_size", c.groupSize},
                               {"crosses_nodes", c.crossesNodes},
                               {"time_ms", c.timeUs / 1e3},
                               {"exposed_ms_per_step", c.exposedUs / 1e3},
                               {"algorithm", algorithmName(c.algorithm)}});
    out["collectives"] = collectives;
    json notes = json::array();
    for (const Message& n : e.notes)
        notes.push_back(english(n));
    out["notes"] = notes;
    return out;
}

json modelJson(const TransformerModel& m, const TrainingSettings& st)
{
    const ParameterCount c = countParameters(m);
    return {{"name", m.name},
            {"parameters", c.total},
            {"active_parameters", c.active},
            {"hidden", m.hidden},
            {"layers", m.layers},
            {"heads", m.heads},
            {"kv_heads", m.kvHeads},
            {"ffn", m.ffn},
            {"vocab", m.vocab},
            {"experts", m.experts},
            {"experts_per_token", m.expertsPerToken},
            {"seq", st.seq},
            {"precision", nameIn(kPrecisionNames, st.precision)},
            {"recompute", nameIn(kRecomputeNames, st.recompute)},
            {"flash_attention", st.flashAttention}};
}

} // namespace

std::string planJson(const TransformerModel& model, const TrainingSettings& settings, const PlanEstimate& estimate)
{
    json out = estimateJson(estimate);
    out["model"] = modelJson(model, settings);
    return out.dump(2) + "\n";
}

std::string planSearchJson(const TransformerModel& model, const TrainingSettings& settings, const PlanSearch& search,
                           int top)
{
    json plans = json::array();
    for (const PlanEstimate& e : search.plans) {
        if (static_cast<int>(plans.size()) == top)
            break;
        json one = estimateJson(e);
        one.erase("per_rank"); // a search lists plans; `plan` without --search gives one plan's ranks
        plans.push_back(std::move(one));
    }
    json dropped = json::array();
    for (const DroppedPlans& d : search.dropped)
        dropped.push_back({{"reason", english(d.reason)}, {"id", d.reason.id}, {"count", d.count}});
    json out = {{"model", modelJson(model, settings)},
                {"considered", search.considered},
                {"fit", search.plans.size()},
                {"plans", plans},
                {"dropped", dropped}};
    return out.dump(2) + "\n";
}

} // namespace shardlab
