#include "cli.h"
#include "progress.h"

#include "shardlab/analysis/diagnosis.h"
#include "shardlab/analysis/diagnosis_format.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <ostream>

namespace shardlab::cli {

void addDiagnose(CLI::App& app, Io io, Action& action)
{
    auto* cmd =
        app.add_subcommand("diagnose", "Simulate a scenario and apply the course's diagnostic handbook to the run");
    struct Args {
        std::string file;
        bool json = false;
        bool noScaling = false;
        std::string profile;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option(
           "FILE", a->file,
           "Scenario file (.shardlab.json), or a recorded run: a result file, a folder or file `shardlab import` reads")
        ->required();
    cmd->add_flag("--json", a->json, "Print the findings as JSON");
    cmd->add_flag("--no-scaling", a->noScaling, "Do not compute the strong-scaling curve used as evidence");
    cmd->add_option("--profile", a->profile, "Cost profile (default: the scenario's, else built-in)");
    cmd->callback([=, &action] {
        action = [=]() -> int {
            const auto print = [&](const Summary& summary, const std::vector<Finding>& findings) {
                // --json stays English: scripts and course assignments read it
                if (a->json)
                    io.out << findingsJson(findings);
                else
                    io.out << wordedSentence(summary, io.language()) << "\n\n"
                           << formatFindings(wordedIn(findings, io.language()), io.language());
                return kExitOk;
            };
            // A recorded run (a result file, a profiler's traces...): diagnosed as it was measured.
            if (importedRun(a->file)) {
                auto job = importRecordedRun(a->file);
                if (!job)
                    return reportError(job.error(), io);
                const Summary summary = summarize(job->scenario, job->run);
                return print(summary, diagnose(job->scenario, job->run, summary, DiagnosisContext{}));
            }
            auto scenario = loadScenarioIn(a->file, a->json ? Language::English : io.language()); // --json: English
            if (!scenario)
                return reportError(scenario.error(), io);
            SimulationOptions so;
            DiagnosisContext ctx;
            if (!a->profile.empty()) {
                auto profile = loadProfile(a->profile);
                if (!profile)
                    return reportError(profile.error(), io);
                so.profile = *profile;
                ctx.profile = *profile;
            }
            auto run = [&] {
                ProgressLine progress = progressLine("simulating", "iteration");
                so.progress = [&](int done, int total) {
                    progress.update(done, total);
                    return true;
                };
                return simulate(*scenario, so);
            }();
            so.progress = nullptr;
            if (!run)
                return reportError(run.error(), io);
            const Summary summary = summarize(*scenario, *run);
            std::optional<ScalingCurve> curve; // where asked for and it could be made
            if (!a->noScaling && !run->hang) {
                // strong scaling from 1 to twice the scenario's GPUs: where adding GPUs stops helping
                ScalingOptions o;
                o.maxGpus = 2 * scenario->ranks();
                o.profile = so.profile;
                ProgressLine progress = progressLine("scaling", "GPU count");
                o.progress = [&](int done, int total) {
                    progress.update(done, total);
                    return true;
                };
                if (auto made = scalingCurve(*scenario, o)) {
                    curve = std::move(*made);
                    ctx.scaling = &*curve;
                }
            }
            return print(summary, diagnose(*scenario, *run, summary, ctx));
        };
    });
}

} // namespace shardlab::cli
