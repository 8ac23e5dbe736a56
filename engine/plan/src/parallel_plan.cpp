#include "shardlab/plan/parallel_plan.h"

#include "shardlab/plan/compute_model.h"

#include <algorithm>
#include <charconv>

namespace shardlab {

std::optional<PipelineSchedule> scheduleFromText(std::string_view text)
{
    if (auto kind = valueIn(kScheduleNames, text); kind && *kind != ScheduleKind::Interleaved)
        return PipelineSchedule{*kind, 1};
    constexpr std::string_view prefix = "interleaved:";
    if (text.substr(0, prefix.size()) != prefix)
        return std::nullopt;
    const std::string_view digits = text.substr(prefix.size());
    int v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || end != digits.data() + digits.size() || v < 2 || v > 1024)
        return std::nullopt;
    return PipelineSchedule{ScheduleKind::Interleaved, v};
}

std::string scheduleText(const PipelineSchedule& schedule)
{
    if (schedule.kind == ScheduleKind::Interleaved)
        return "interleaved:" + std::to_string(schedule.virtualStages);
    return nameIn(kScheduleNames, schedule.kind);
}

std::string planText(const ParallelPlan& plan)
{
    std::string text = "TP " + std::to_string(plan.tp);
    if (plan.cp > 1)
        text += " x CP " + std::to_string(plan.cp);
    text += " x PP " + std::to_string(plan.pp) + " x DP " + std::to_string(plan.dp);
    if (plan.ep > 1)
        text += " (EP " + std::to_string(plan.ep) + ")";
    if (plan.zero == ZeroStage::Fsdp)
        text += ", FSDP";
    else if (plan.zero != ZeroStage::None)
        text += ", ZeRO-" + std::string(nameIn(kZeroStageNames, plan.zero));
    if (plan.pp > 1)
        text += ", " + scheduleText(plan.schedule);
    if (plan.order != kDefaultMeshOrder)
        text += ", ranks " + meshOrderText(plan.order);
    return text;
}

namespace {

int sizeOf(const ParallelPlan& plan, MeshAxis axis)
{
    switch (axis) {
    case MeshAxis::Tensor: return plan.tp;
    case MeshAxis::Context: return plan.cp;
    case MeshAxis::Pipeline: return plan.pp;
    case MeshAxis::Data: return plan.dp;
    case MeshAxis::Expert: return plan.ep;
    }
    return 1;
}

int& coordinateOf(MeshCoordinate& at, MeshAxis axis)
{
    switch (axis) {
    case MeshAxis::Tensor: return at.tp;
    case MeshAxis::Context: return at.cp;
    case MeshAxis::Pipeline: return at.pp;
    case MeshAxis::Data:
    case MeshAxis::Expert: break;
    }
    return at.dp;
}

} // namespace

MeshCoordinate meshCoordinate(const ParallelPlan& plan, int rank)
{
    MeshCoordinate at;
    for (MeshAxis axis : plan.order) {
        const int size = std::max(1, sizeOf(plan, axis));
        coordinateOf(at, axis) = rank % size;
        rank /= size;
    }
    return at;
}

int rankAt(const ParallelPlan& plan, const MeshCoordinate& at)
{
    int rank = 0;
    MeshCoordinate c = at;
    for (auto axis = plan.order.rbegin(); axis != plan.order.rend(); ++axis)
        rank = rank * std::max(1, sizeOf(plan, *axis)) + coordinateOf(c, *axis);
    return rank;
}

std::vector<int> meshGroup(const ParallelPlan& plan, MeshAxis axis, int rank)
{
    const MeshCoordinate base = meshCoordinate(plan, rank);
    std::vector<int> group;
    auto walk = [&](int count, int first, auto set) {
        for (int i = 0; i < count; ++i) {
            MeshCoordinate at = base;
            set(at, first + i);
            group.push_back(rankAt(plan, at));
        }
    };
    switch (axis) {
    case MeshAxis::Tensor: walk(plan.tp, 0, [](MeshCoordinate& at, int i) { at.tp = i; }); break;
    case MeshAxis::Context: walk(plan.cp, 0, [](MeshCoordinate& at, int i) { at.cp = i; }); break;
    case MeshAxis::Pipeline: walk(plan.pp, 0, [](MeshCoordinate& at, int i) { at.pp = i; }); break;
    case MeshAxis::Data: walk(plan.dp, 0, [](MeshCoordinate& at, int i) { at.dp = i; }); break;
    case MeshAxis::Expert: {
        const int ep = std::max(1, plan.ep);
        walk(ep, base.dp / ep * ep, [](MeshCoordinate& at, int i) { at.dp = i; });
        break;
    }
    }
    return group;
}

std::vector<int> layersPerStage(const TransformerModel& model, int pp)
{
    pp = std::max(1, pp);
    std::vector<int> layers(static_cast<size_t>(pp), model.layers / pp);
    int extra = model.layers % pp;
    // the middle stages first, then the last, then the first (they also hold the embedding and output)
    for (int s = 1; s + 1 < pp && extra > 0; ++s, --extra)
        ++layers[static_cast<size_t>(s)];
    if (extra > 0 && pp > 1) {
        ++layers.back();
        --extra;
    }
    if (extra > 0)
        ++layers.front();
    return layers;
}

int globalBatchOf(const TrainingSettings& settings, const ParallelPlan& plan)
{
    if (settings.globalBatch > 0)
        return settings.globalBatch;
    const long long replicaBatch = static_cast<long long>(plan.dp) * std::max(1, settings.microBatch);
    const long long gpus = plan.gpus();
    return static_cast<int>((gpus + replicaBatch - 1) / replicaBatch * replicaBatch);
}

int microBatchesPerStep(const TrainingSettings& settings, const ParallelPlan& plan)
{
    const long long replicaBatch = static_cast<long long>(plan.dp) * std::max(1, settings.microBatch);
    return static_cast<int>(globalBatchOf(settings, plan) / replicaBatch);
}

int paddedVocab(const TransformerModel& model, const ParallelPlan& plan)
{
    const long long multiple = 128LL * plan.tp;
    return static_cast<int>((model.vocab + multiple - 1) / multiple * multiple);
}

namespace {

std::string n(long long value) { return std::to_string(value); }

} // namespace

std::vector<Message> planProblems(const TransformerModel& model, const TrainingSettings& settings,
                                  const ParallelPlan& plan, const Topology& machine)
{
    std::vector<Message> out;
    const long long product = static_cast<long long>(plan.tp) * plan.cp * plan.pp * plan.dp;
    if (plan.tp < 1 || plan.cp < 1 || plan.pp < 1 || plan.dp < 1 || plan.ep < 1)
        return {Message("plan.refuse.axis_zero")};
    if (product != machine.rankCount())
        out.push_back(Message("plan.refuse.gpus")
                          .with("tp", n(plan.tp))
                          .with("cp", n(plan.cp))
                          .with("pp", n(plan.pp))
                          .with("dp", n(plan.dp))
                          .with("product", n(product))
                          .with("gpus", n(machine.rankCount())));
    if (model.heads % plan.tp != 0)
        out.push_back(Message("plan.refuse.tp_heads").with("tp", n(plan.tp)).with("heads", n(model.heads)));
    else if (model.kvHeads % plan.tp != 0)
        out.push_back(Message("plan.refuse.tp_kv_heads").with("tp", n(plan.tp)).with("kv", n(model.kvHeads)));
    if (model.ffn % plan.tp != 0)
        out.push_back(Message("plan.refuse.tp_ffn").with("tp", n(plan.tp)).with("ffn", n(model.ffn)));
    const int v = plan.schedule.kind == ScheduleKind::Interleaved ? plan.schedule.virtualStages : 1;
    if (static_cast<long long>(plan.pp) * v > model.layers)
        out.push_back(
            Message("plan.refuse.pp_layers").with("pp", n(plan.pp)).with("v", n(v)).with("layers", n(model.layers)));
    if (settings.seq % (2 * plan.cp) != 0 && plan.cp > 1)
        out.push_back(Message("plan.refuse.cp_seq")
                          .with("cp", n(plan.cp))
                          .with("seq", n(settings.seq))
                          .with("chunks", n(2 * plan.cp)));
    const long long replicaBatch = static_cast<long long>(plan.dp) * settings.microBatch;
    if (settings.globalBatch > 0 && settings.globalBatch % replicaBatch != 0)
        out.push_back(Message("plan.refuse.batch")
                          .with("batch", n(settings.globalBatch))
                          .with("mb", n(settings.microBatch))
                          .with("dp", n(plan.dp))
                          .with("multiple", n(replicaBatch)));
    if (plan.schedule.kind == ScheduleKind::Interleaved) {
        if (plan.pp < 2)
            out.push_back(Message("plan.refuse.interleaved_pp"));
        else if (microBatchesPerStep(settings, plan) % plan.pp != 0)
            out.push_back(Message("plan.refuse.interleaved_m")
                              .with("m", n(microBatchesPerStep(settings, plan)))
                              .with("pp", n(plan.pp)));
    }
    if (plan.ep > 1) {
        if (!model.moe())
            out.push_back(Message("plan.refuse.ep_dense").with("ep", n(plan.ep)).with("model", model.name));
        else if (model.experts % plan.ep != 0)
            out.push_back(Message("plan.refuse.ep_experts").with("ep", n(plan.ep)).with("experts", n(model.experts)));
        if (plan.dp % plan.ep != 0)
            out.push_back(Message("plan.refuse.ep_dp").with("ep", n(plan.ep)).with("dp", n(plan.dp)));
    }
    if (plan.pp > 1 && (plan.zero == ZeroStage::Gradients || plan.zero == ZeroStage::Weights))
        out.push_back(Message("plan.refuse.zero_pp").with("stage", nameIn(kZeroStageNames, plan.zero)));
    if (settings.precision == Precision::Fp8 && machine.rankCount() > 0) {
        const AcceleratorSpec spec = acceleratorOf(machine.gpus.front());
        if (spec.fp8Tflops <= 0)
            out.push_back(Message("plan.refuse.fp8").with("gpu", machine.gpus.front().name));
    }
    return out;
}

std::vector<Message> planNotes(const TransformerModel& model, const TrainingSettings& settings,
                               const ParallelPlan& plan)
{
    std::vector<Message> out;
    if (plan.pp > 1 && model.layers % plan.pp != 0) {
        const std::vector<int> layers = layersPerStage(model, plan.pp);
        const auto [few, many] = std::minmax_element(layers.begin(), layers.end());
        out.push_back(Message("plan.note.uneven_stages")
                          .with("layers", n(model.layers))
                          .with("pp", n(plan.pp))
                          .with("few", n(*few))
                          .with("many", n(*many)));
    }
    if (const int padded = paddedVocab(model, plan); padded != model.vocab)
        out.push_back(Message("plan.note.padded_vocab")
                          .with("vocab", n(model.vocab))
                          .with("padded", n(padded))
                          .with("multiple", n(128LL * plan.tp)));
    if (plan.zero != ZeroStage::None && plan.dp * plan.cp == 1)
        out.push_back(Message("plan.note.zero_alone"));
    if (settings.globalBatch == 0)
        out.push_back(Message("plan.note.default_batch")
                          .with("batch", n(globalBatchOf(settings, plan)))
                          .with("option", "--global-batch"));
    return out;
}

} // namespace shardlab
