#include "cli.h"

#include "shardlab/analysis/calibration.h"
#include "shardlab/analysis/calibration_report.h"
#include "shardlab/analysis/calibration_run.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_measure.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/profiles.h"

#include <ostream>

namespace shardlab::cli {

namespace {

struct CalibrateArgs {
    int gpus = 0;
    std::string name = "calibrated";
    std::string sizes;
    std::vector<std::string> collectives;
    std::vector<int> ranks;
    std::string preset;
    std::vector<std::string> measured;
    bool noCorrections = false;
    bool noSave = false;
    bool json = false;
    bool compute = false;
    ComputeCalibrateArgs computeArgs;
};

Result<CalibrationData> offlineData(const CalibrateArgs& a)
{
    CalibrationData data;
    if (!a.preset.empty()) {
        auto t = preset(a.preset);
        if (!t)
            return badInput(unknownPresetSentence(a.preset));
        data.topology = *t;
    } else {
        auto t = discoverTopology();
        if (!t)
            return badInput(Message("error.line.measured_needs_topology")
                                .with("measured", "--measured")
                                .with("option", "--preset ID")
                                .with("reason", messageOf(t.error())));
        data.topology = *t;
    }
    auto samples = samplesFromSweepFiles(a.measured);
    if (!samples)
        return samples.error();
    data.samples = *samples;
    if (a.gpus > 0)
        data.topology = data.topology.firstGpus(a.gpus);
    data.host = "measurements in " + std::to_string(a.measured.size()) + " file" + (a.measured.size() == 1 ? "" : "s");
    return data;
}

} // namespace

void addCalibrate(CLI::App& app, Io io, Action& action)
{
    auto* cmd =
        app.add_subcommand("calibrate", "Measure collectives and compute on this machine's GPUs, fit a cost profile, "
                                        "save it and print predicted against measured");
    auto a = std::make_shared<CalibrateArgs>();
    cmd->add_option("--gpus", a->gpus, "GPUs to use (default: all)")->check(wholeNumber(2, 1LL << 16));
    cmd->add_option("--name", a->name, "Name of the saved profile (default 'calibrated'); use it with --profile NAME");
    cmd->add_option(
        "--sizes", a->sizes,
        "Sizes to measure, as for bench: START:END:FACTOR or a list, binary (1M = 1048576); default 8, then 16K:1G:4");
    cmd->add_option("--collectives", a->collectives,
                    "Collectives to measure (default: all_reduce,all_gather,reduce_scatter,"
                    "broadcast,reduce)")
        ->delimiter(',');
    cmd->add_option("--ranks", a->ranks, "Rank counts to measure (default: 2 and all)")
        ->delimiter(',')
        ->check(wholeNumber(2, 1LL << 16));
    cmd->add_option("--preset", a->preset, "Fit against this preset's topology instead of the machine's own");
    cmd->add_option("--measured", a->measured,
                    "Fit measurements made before (files of `shardlab bench --json`) instead of "
                    "measuring now");
    cmd->add_flag("--no-corrections", a->noCorrections, "Fit link and protocol parameters only");
    cmd->add_flag("--no-save", a->noSave, "Do not save the profile");
    cmd->add_flag("--json", a->json, "Print JSON instead of the accuracy table");
    cmd->add_flag("--compute", a->compute,
                  "Time cuBLAS GEMMs and copies on one GPU instead, for `shardlab plan --compute`");
    cmd->add_option("--device", a->computeArgs.device, "With --compute: the GPU to measure (default 0)")
        ->check(wholeNumber(0, 1023));
    cmd->add_option("--shapes", a->computeArgs.shapes,
                    "With --compute: GEMMs to time, as MxNxK,... (default: transformer-layer shapes, m 512 to "
                    "16384, n and k 1024 to 53248)");
    cmd->add_option("--out", a->computeArgs.out,
                    "With --compute: the file to save (default shardlab-compute-<gpu>.json here)");
    cmd->callback([=, &action] {
        // --compute measures something else: the collectives' options exclude it, and its own need it
        // (checked here rather than with CLI11's excludes, whose help lists the options in an order
        // that changes from run to run)
        Message misuse;
        for (const char* other :
             {"--gpus", "--name", "--sizes", "--collectives", "--ranks", "--preset", "--measured", "--no-corrections"})
            if (a->compute && misuse.empty() && cmd->count(other) > 0)
                misuse = Message("cli.usage.excludes").with("option", "--compute").with("other", other);
        for (const char* own : {"--device", "--shapes", "--out"})
            if (!a->compute && misuse.empty() && cmd->count(own) > 0)
                misuse = Message("cli.usage.requires").with("option", own).with("other", "--compute");
        action = [=]() -> int {
            if (!misuse.empty()) {
                io.err << "shardlab calibrate: " << io.say(misuse) << "\n";
                return kExitBadInput;
            }
            if (a->compute) {
                ComputeCalibrateArgs args = a->computeArgs;
                args.json = a->json;
                args.noSave = a->noSave;
                return calibrateCompute(args, io);
            }
            CalibrationOptions options;
            options.name = a->name;
            options.corrections = !a->noCorrections;
            if (a->name.empty() || a->name == "default" || a->name.find('/') != std::string::npos)
                return reportError(badInput(Message("cli.error.profile_name")
                                                .with("option", "--name")
                                                .with("name", a->name)
                                                .with("default", "default")),
                                   io);
            if (!a->noSave) { // the profile saved must not be one of the measurements read
                std::vector<NamedFile> measured;
                for (const std::string& m : a->measured)
                    measured.push_back({"the measured file", m});
                if (Status st = refuseClashingFiles({{"--name", (profileDirectory() / (a->name + ".json")).string()}},
                                                    measured);
                    !st)
                    return reportError(st.error(), io);
            }
            Result<CalibrationResult> result = Error{};
            if (!a->measured.empty()) {
                auto data = offlineData(*a);
                if (!data)
                    return reportError(data.error(), io);
                result = fitProfile(*data, options);
            } else {
                if (!liveBuiltIn()) {
                    io.err << "shardlab: "
                           << io.say(Message("cli.error.calibrate_no_live")
                                         .with("why", liveBuildInfo())
                                         .with("command", "shardlab calibrate --measured FILE.json... --preset ID"))
                           << "\n";
                    return kExitBadInput;
                }
                CalibrationPlan plan;
                plan.gpus = a->gpus;
                plan.rankCounts = a->ranks;
                if (!a->sizes.empty()) {
                    auto sizes = parseSizeRange(a->sizes);
                    if (!sizes)
                        return reportError(sizes.error(), io);
                    plan.sizes = *sizes;
                }
                if (!a->collectives.empty()) {
                    plan.kinds.clear();
                    for (const std::string& c : a->collectives) {
                        auto k = opFromName(c);
                        if (!k || *k == OpKind::Compute || *k == OpKind::SendRecv || *k == OpKind::AllGatherV
                            || *k == OpKind::ReduceScatterAllGather)
                            return reportError(
                                badInput(Message("error.line.option_value")
                                             .with("option", "collectives")
                                             .with("value", c)
                                             .with("expected", Message("error.expected.choice")
                                                                   .with("choices", listOf({verbatim("all_reduce"),
                                                                                            verbatim("all_gather"),
                                                                                            verbatim("reduce_scatter"),
                                                                                            verbatim("broadcast")}))
                                                                   .with("last", "reduce"))),
                                io);
                        plan.kinds.push_back(*k);
                    }
                }
                CalibrationHooks hooks = liveCalibrationHooks();
                if (!a->preset.empty()) {
                    auto t = preset(a->preset);
                    if (!t)
                        return reportError(badInput(unknownPresetSentence(a->preset)), io);
                    hooks.topology = [t]() -> Result<Topology> { return *t; };
                }
                hooks.progress = [io](int done, int total, const std::string& what) {
                    io.err << io.say(
                        Message("calibration.cli.progress").with("done", done).with("total", total).with("what", what))
                           << "\n";
                    return true;
                };
                result = runCalibration(plan, options, hooks);
            }
            if (!result)
                return reportError(suggestInstead(result.error(), Message("cli.error.instead_fit")
                                                                      .with("command", "shardlab calibrate --measured "
                                                                                       "FILE.json... --preset ID")),
                                   io);
            io.out << (a->json ? calibrationJson(*result) : formatAccuracyTable(*result, io.language()));
            if (!a->noSave) {
                if (Status st = saveProfile(result->profile); !st)
                    return reportError(st.error(), io);
                io.err << io.say(Message("calibration.cli.saved")
                                     .with("profile", result->profile.name)
                                     .with("option", "--profile")
                                     .with("path", (profileDirectory() / (result->profile.name + ".json")).string()))
                       << "\n";
            }
            return kExitOk;
        };
    });
}

} // namespace shardlab::cli
