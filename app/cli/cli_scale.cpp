#include "cli.h"
#include "progress.h"

#include "shardlab/analysis/scaling.h"
#include "shardlab/analysis/scaling_format.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/model/topology.h"
#include "shardlab/sim/profiles.h"

#include <ostream>

namespace shardlab::cli {

void addScale(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("scale", "Strong or weak scaling of a scenario from 1 to N GPUs (simulated)");
    struct Args {
        std::string file;
        int maxGpus = 0;
        std::vector<int> gpus;
        bool weak = false;
        bool json = false;
        std::string profile;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("FILE", a->file, "Scenario file (.shardlab.json)")->required();
    cmd->add_option("--max-gpus", a->maxGpus, "Largest GPU count (default: the scenario's own)")
        ->check(wholeNumber(1, kMaxTopologyGpus));
    cmd->add_option("--gpus", a->gpus, "Exact GPU counts to simulate, e.g. --gpus 1,2,4,8,16 (1 is always included)")
        ->delimiter(',')
        ->check(wholeNumber(1, kMaxTopologyGpus));
    cmd->add_flag("--weak", a->weak,
                  "Weak scaling: the work per GPU stays fixed (default: strong, the total work stays fixed)");
    cmd->add_option("--profile", a->profile, "Cost profile (default: the scenario's, else built-in)");
    cmd->add_flag("--json", a->json, "Print one JSON object instead of the table");
    cmd->callback([=, &action] {
        action = [=]() -> int {
            auto scenario = loadScenarioIn(a->file, a->json ? Language::English : io.language());
            if (!scenario)
                return reportError(scenario.error(), io);
            ScalingOptions options;
            options.mode = a->weak ? ScalingMode::Weak : ScalingMode::Strong;
            options.maxGpus = a->maxGpus;
            options.gpuCounts = a->gpus;
            if (!a->profile.empty()) {
                auto profile = loadProfile(a->profile);
                if (!profile)
                    return reportError(profile.error(), io);
                options.profile = *profile;
            }
            ProgressLine progress = progressLine("scaling", "GPU count");
            options.progress = [&](int done, int total) {
                progress.update(done, total);
                return true;
            };
            auto curve = scalingCurve(*scenario, options);
            progress.finish();
            if (!curve)
                return reportError(curve.error(), io);
            io.out << (a->json ? scalingJson(*curve) : formatScalingTable(*curve, io.language()));
            return kExitOk;
        };
    });
}

} // namespace shardlab::cli
