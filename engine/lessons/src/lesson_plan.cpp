#include "lesson_plan.h"

#include "shardlab/plan/parallel_plan.h"
#include "shardlab/plan/training.h"

namespace shardlab::detail {

namespace {

// A name of `table` under `k`, or `fallback`; an unknown name fails with the names it could be.
template <class E, std::size_t N>
E named(JsonReader& rd, const json& v, const std::string& path, const char* k, const EnumName<E> (&table)[N],
        E fallback)
{
    const std::optional<std::string> text = rd.string(v, path, k, false);
    if (!text)
        return fallback;
    if (auto value = valueIn(table, *text))
        return *value;
    std::string expected;
    for (const EnumName<E>& row : table)
        expected += (expected.empty() ? "" : ", ") + std::string(row.name);
    rd.fail(JsonReader::key(path, k),
            Message("error.json.unknown_value").with("value", *text).with("expected", verbatim(expected)));
    return fallback;
}

} // namespace

std::optional<PlanRequest> readLessonPlan(JsonReader& rd, const json& obj, const std::string& parent, const char* k)
{
    const json* v = rd.find(obj, k);
    if (!v)
        return std::nullopt;
    const std::string path = JsonReader::key(parent, k);
    if (!rd.expectObject(*v, path))
        return std::nullopt;
    rd.onlyKeys(*v, path,
                {"model", "machine", "gpus", "tp", "pp", "dp", "cp", "ep", "zero", "seq", "micro_batch", "global_batch",
                 "recompute", "precision", "schedule", "order", "sequence_parallel", "overlap", "flash_attention"});
    PlanRequest r;
    r.model = rd.string(*v, path, "model", true).value_or("");
    r.machine = rd.string(*v, path, "machine", false).value_or(r.machine);
    r.gpus = static_cast<int>(rd.integer(*v, path, "gpus", false, 1, kMaxTopologyGpus).value_or(0));
    ParallelPlan& p = r.plan;
    p.tp = static_cast<int>(rd.integer(*v, path, "tp", false, 1, 1024).value_or(1));
    p.pp = static_cast<int>(rd.integer(*v, path, "pp", false, 1, 4096).value_or(1));
    p.dp = static_cast<int>(rd.integer(*v, path, "dp", false, 1, kMaxTopologyGpus).value_or(0));
    p.cp = static_cast<int>(rd.integer(*v, path, "cp", false, 1, 1024).value_or(1));
    p.ep = static_cast<int>(rd.integer(*v, path, "ep", false, 1, 1024).value_or(1));
    p.zero = named(rd, *v, path, "zero", kZeroStageNames, ZeroStage::None);
    if (const auto schedule = rd.string(*v, path, "schedule", false)) {
        if (auto s = scheduleFromText(*schedule))
            p.schedule = *s;
        else
            rd.fail(JsonReader::key(path, "schedule"),
                    Message("error.json.unknown_value")
                        .with("value", *schedule)
                        .with("expected", Message("error.expects.schedule").with("interleaved", "interleaved:V")));
    }
    if (const auto order = rd.string(*v, path, "order", false)) {
        if (auto o = meshOrderFromText(*order))
            p.order = *o;
        else
            rd.fail(JsonReader::key(path, "order"), Message("error.json.unknown_value")
                                                        .with("value", *order)
                                                        .with("expected", Message("error.expects.mesh_order")));
    }
    p.sequenceParallel = rd.boolean(*v, path, "sequence_parallel").value_or(true);
    p.overlapDataParallel = rd.boolean(*v, path, "overlap").value_or(true);
    TrainingSettings& s = r.settings;
    s.seq = static_cast<int>(rd.integer(*v, path, "seq", false, 1, 10'000'000).value_or(s.seq));
    s.microBatch = static_cast<int>(rd.integer(*v, path, "micro_batch", false, 1, 65536).value_or(1));
    s.globalBatch = static_cast<int>(rd.integer(*v, path, "global_batch", false, 1, 100'000'000).value_or(0));
    s.recompute = named(rd, *v, path, "recompute", kRecomputeNames, Recompute::Selective);
    s.precision = named(rd, *v, path, "precision", kPrecisionNames, Precision::Bf16);
    s.flashAttention = rd.boolean(*v, path, "flash_attention").value_or(true);
    return r;
}

} // namespace shardlab::detail
