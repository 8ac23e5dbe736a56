// `shardlab plan`: a transformer under a composed parallel plan, priced on a machine, or every plan
// that fits, fastest first (engine/plan; docs/planner.md).
#include "cli.h"
#include "progress.h"

#include "shardlab/io/scenario_io.h"
#include "shardlab/model/presets.h"
#include "shardlab/plan/plan_format.h"
#include "shardlab/plan/plan_request.h"
#include "shardlab/plan/plan_scenario.h"
#include "shardlab/plan/plan_search.h"
#include "shardlab/sim/profiles.h"

#include <ostream>

namespace shardlab::cli {

namespace {

struct PlanArgs {
    std::string model;
    std::string preset = "h200-nvswitch-8";
    int gpus = 0;
    int tp = 1, pp = 1, dp = 0, cp = 1, ep = 1;
    std::string zero = "0";
    int seq = 4096;
    int microBatch = 0; // 0: 1, or every size for --search
    int globalBatch = 0;
    std::string recompute = "selective";
    std::string precision = "bf16";
    std::string schedule = "1f1b";
    std::string order = "tp,cp,pp,dp";
    bool noSequenceParallel = false, noOverlap = false, noFlash = false;
    bool search = false, json = false;
    int top = 20;
    std::string profile;
    std::string compute;
    std::string scenario;
};

CLI::Validator oneOf(const char* what, std::function<bool(const std::string&)> ok, std::string expected)
{
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            return ok(text) ? std::string() : "'" + text + "' is not " + what + " (expected " + expected + ")";
        },
        expected);
}

PlanRequest requestOf(const PlanArgs& a)
{
    PlanRequest r;
    r.model = a.model;
    r.machine = a.preset;
    r.gpus = a.gpus;
    r.settings.seq = a.seq;
    r.settings.microBatch = a.microBatch > 0 ? a.microBatch : (a.search ? 0 : 1);
    r.settings.globalBatch = a.globalBatch;
    r.settings.recompute = *valueIn(kRecomputeNames, a.recompute);
    r.settings.precision = *valueIn(kPrecisionNames, a.precision);
    r.settings.flashAttention = !a.noFlash;
    r.computeFile = a.compute;
    ParallelPlan& plan = r.plan;
    plan.tp = a.tp;
    plan.pp = a.pp;
    plan.cp = a.cp;
    plan.ep = a.ep;
    plan.dp = a.dp;
    plan.zero = *valueIn(kZeroStageNames, a.zero);
    plan.sequenceParallel = !a.noSequenceParallel;
    plan.overlapDataParallel = !a.noOverlap;
    plan.schedule = *scheduleFromText(a.schedule);
    plan.order = *meshOrderFromText(a.order);
    return r;
}

// --search: every plan that fits on the GPUs (the preset's unless --gpus or --dp say otherwise).
int searchPlan(const PlanArgs& a, const PlanRequest& request, const CostProfile& profile, Io io)
{
    auto model = loadModel(a.model);
    if (!model)
        return reportError(model.error(), io);
    const int gpus = a.gpus > 0 ? a.gpus
                     : a.dp > 0 ? static_cast<int>(request.gpuCount())
                                : preset(a.preset).value_or(Topology{}).rankCount();
    if (gpus < 1 || gpus > kMaxTopologyGpus) {
        io.err << "shardlab: "
               << io.say(Message("plan.refuse.gpus")
                             .with("tp", a.tp)
                             .with("cp", a.cp)
                             .with("pp", a.pp)
                             .with("dp", a.dp)
                             .with("product", gpus)
                             .with("gpus", gpus))
               << "\n";
        return kExitBadInput;
    }
    auto topology = planMachine(a.preset, gpus);
    if (!topology)
        return reportError(topology.error(), io);
    auto compute = planCompute(a.compute, topology->gpus.front());
    if (!compute)
        return reportError(compute.error(), io);
    PlanPricer pricer(*topology, profile, std::move(*compute));
    ProgressLine progress = progressLine("planning", "plan");
    PlanSearchOptions options;
    options.gpus = gpus;
    options.progress = [&](int done, int total) {
        progress.update(done, total);
        return true;
    };
    const PlanSearch found = searchPlans(*model, request.settings, pricer, options);
    progress.finish();
    io.out << (a.json ? planSearchJson(*model, request.settings, found, a.top)
                      : formatPlanSearch(*model, found, a.top, io.language()));
    return kExitOk;
}

int runPlan(const PlanArgs& a, Io io)
{
    auto profile = loadProfile(a.profile);
    if (!profile)
        return reportError(profile.error(), io);
    const PlanRequest request = requestOf(a);
    if (a.search)
        return searchPlan(a, request, *profile, io);
    auto pricing = pricePlan(request, *profile);
    if (!pricing)
        return reportError(pricing.error(), io);
    if (!pricing->priced) {
        for (const Message& problem : pricing->problems)
            io.err << "shardlab: " << io.say(problem) << "\n";
        return kExitBadInput;
    }
    const PricedPlan& p = *pricing->priced;
    if (!a.scenario.empty()) {
        auto scenario = planScenario(p.model, p.settings, p.estimate, p.topology);
        if (!scenario)
            return reportError(scenario.error(), io);
        if (Status saved = saveScenario(*scenario, a.scenario); !saved)
            return reportError(saved.error(), io);
    }
    io.out << (a.json ? planJson(p.model, p.settings, p.estimate) : formatPlan(p.model, p.estimate, io.language()));
    return kExitOk;
}

} // namespace

void addPlan(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand(
        "plan", "A transformer under composed parallelism: memory per GPU, step time, MFU and what limits it");
    auto a = std::make_shared<PlanArgs>();
    std::string models;
    for (const ModelPresetInfo& m : modelPresetList())
        models += (models.empty() ? "" : ", ") + m.id;
    cmd->add_option("MODEL", a->model, "A model preset (" + models + ") or a Hugging Face config.json")->required();
    cmd->add_option("--preset", a->preset,
                    "Machine preset; a multi-node count of GPUs repeats its first node (default: h200-nvswitch-8)");
    cmd->add_option("--gpus", a->gpus, "GPUs (default: TP x CP x PP x DP; with --search, the preset's)")
        ->check(wholeNumber(1, kMaxTopologyGpus));
    cmd->add_option("--tp", a->tp, "Tensor-parallel size (default 1)")->check(wholeNumber(1, 1024));
    cmd->add_option("--pp", a->pp, "Pipeline-parallel stages (default 1)")->check(wholeNumber(1, 4096));
    cmd->add_option("--dp", a->dp, "Data-parallel replicas (default: what --gpus leaves)")
        ->check(wholeNumber(1, kMaxTopologyGpus));
    cmd->add_option("--cp", a->cp, "Context-parallel size, ring attention (default 1)")->check(wholeNumber(1, 1024));
    cmd->add_option("--ep", a->ep, "Expert-parallel size for a mixture of experts (default 1)")
        ->check(wholeNumber(1, 1024));
    cmd->add_option("--zero", a->zero, "Data-parallel sharding: 0, 1, 2, 3 or fsdp (default 0)")
        ->check(oneOf(
            "a ZeRO stage", [](const std::string& t) { return valueIn(kZeroStageNames, t).has_value(); },
            "0, 1, 2, 3 or fsdp"));
    cmd->add_option("--seq", a->seq, "Sequence length in tokens (default 4096)")->check(wholeNumber(1, 10'000'000));
    cmd->add_option("--micro-batch", a->microBatch, "Sequences per micro-batch (default 1; --search tries 1, 2 and 4)")
        ->check(wholeNumber(1, 65536));
    cmd->add_option("--global-batch", a->globalBatch, "Sequences per step (default: one per GPU)")
        ->check(wholeNumber(1, 100'000'000));
    cmd->add_option("--recompute", a->recompute,
                    "Activation recomputation: none, selective or full (default selective)")
        ->check(oneOf(
            "a recomputation", [](const std::string& t) { return valueIn(kRecomputeNames, t).has_value(); },
            "none, selective or full"));
    cmd->add_option("--precision", a->precision, "bf16 or fp8 (default bf16)")
        ->check(oneOf(
            "a precision", [](const std::string& t) { return valueIn(kPrecisionNames, t).has_value(); },
            "bf16 or fp8"));
    cmd->add_option("--schedule", a->schedule, "Pipeline schedule: gpipe, 1f1b or interleaved:V (default 1f1b)")
        ->check(oneOf(
            "a schedule", [](const std::string& t) { return scheduleFromText(t).has_value(); },
            "gpipe, 1f1b or interleaved:V"));
    cmd->add_option("--order", a->order,
                    "How the axes number the ranks, innermost first (default tp,cp,pp,dp: TP inside a node)")
        ->check(oneOf(
            "an order of the mesh axes", [](const std::string& t) { return meshOrderFromText(t).has_value(); },
            "tp,cp,pp,dp"));
    cmd->add_flag("--no-sequence-parallel", a->noSequenceParallel, "Tensor parallelism without sequence parallelism");
    cmd->add_flag("--no-overlap", a->noOverlap,
                  "Data-parallel communication after the backward pass instead of overlapped with it");
    cmd->add_flag("--no-flash-attention", a->noFlash,
                  "Attention that keeps its score matrix (as before FlashAttention)");
    cmd->add_flag("--search", a->search,
                  "List every plan that fits on --gpus, fastest first, and why the others were dropped");
    cmd->add_option("--top", a->top, "With --search: how many plans to list (default 20)")
        ->check(wholeNumber(1, 1'000'000));
    cmd->add_option("--profile", a->profile, "Cost profile for the collectives (default: built-in)");
    cmd->add_option("--compute", a->compute,
                    "Compute calibration measured on the plan's GPU (`shardlab calibrate --compute`; default: "
                    "the one shipped for it)");
    cmd->add_flag("--json", a->json, "Print one JSON object instead of the table");
    cmd->add_option("--scenario", a->scenario,
                    "Also write the plan as a scenario (OUT.shardlab.json) that sim, live and the app run");
    cmd->callback([=, &action] {
        // --search chooses the plan itself (checked here rather than with CLI11's excludes, whose help
        // lists the options in an order that changes from run to run)
        std::string given;
        for (const char* axis :
             {"--tp", "--pp", "--dp", "--cp", "--ep", "--zero", "--schedule", "--scenario", "--order"})
            if (a->search && given.empty() && cmd->count(axis) > 0)
                given = axis;
        action = [=]() -> int {
            if (!given.empty()) {
                io.err << "shardlab plan: "
                       << io.say(Message("cli.usage.excludes").with("option", "--search").with("other", given)) << "\n";
                return kExitBadInput;
            }
            return runPlan(*a, io);
        };
    });
}

} // namespace shardlab::cli
