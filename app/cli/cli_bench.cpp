#include "cli.h"

#include "shardlab/analysis/sweep.h"
#include "shardlab/live/live.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/profiles.h"

#include <ostream>

namespace shardlab::cli {

void addBench(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("bench", "Sweep message sizes of one collective, in the columns of nccl-tests");
    struct Args {
        std::string collective = "all_reduce";
        int gpus = 0;
        std::string sizes = "8B:1GB:4";
        bool sim = false;
        std::string preset;
        bool json = false;
        std::string profile;
        int warmup = 5;
        int iters = 20;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option(
        "--collective", a->collective,
        "all_reduce, reduce, broadcast, all_gather, all_gather_v, reduce_scatter, reduce_scatter_all_gather, "
        "send_recv");
    cmd->add_option("--gpus", a->gpus, "Number of GPUs (ranks)")->required()->check(wholeNumber(1, 1LL << 20));
    cmd->add_option("--sizes", a->sizes,
                    "START:END:FACTOR (binary units as in nccl-tests: 1M = 1048576) or a list 64K,1M");
    cmd->add_flag("--sim", a->sim, "Simulate instead of measuring on this machine's GPUs");
    cmd->add_option("--preset", a->preset, "Topology to simulate (with --sim); its first N GPUs are used");
    cmd->add_option("--profile", a->profile, "Cost profile for --sim (default: built-in)");
    cmd->add_flag("--json", a->json, "Print JSON instead of the table");
    cmd->add_option("--warmup", a->warmup, "Live: untimed calls before each size (nccl-tests -w)")
        ->check(wholeNumber(0, 1000));
    cmd->add_option("--iters", a->iters, "Live: calls per timed batch (nccl-tests -n)")->check(wholeNumber(1, 100000));
    cmd->callback([=, &action] {
        action = [=]() -> int {
            auto kind = opFromName(a->collective);
            if (!kind || *kind == OpKind::Compute) {
                io.err << "shardlab: "
                       << io.say(Message("cli.error.not_collective")
                                     .with("option", "--collective")
                                     .with("value", a->collective)
                                     .with("choices", sweepCollectiveChoices()))
                       << "\n";
                return kExitBadInput;
            }
            auto sizes = parseSizeRange(a->sizes);
            if (!sizes)
                return reportError(sizes.error(), io);
            if (!a->sim)
                return benchLive(*kind, a->gpus, *sizes, a->json, a->warmup, a->iters, io);
            if (a->preset.empty()) {
                io.err << "shardlab: "
                       << io.say(Message("cli.error.needs")
                                     .with("option", "--sim")
                                     .with("needed", "--preset ID")
                                     .with("command", "shardlab topo --list"))
                       << "\n";
                return kExitBadInput;
            }
            auto topo = preset(a->preset);
            if (!topo) {
                io.err << "shardlab: " << io.say(unknownPresetSentence(a->preset)) << "\n";
                return kExitBadInput;
            }
            if (a->gpus > topo->rankCount()) {
                io.err << "shardlab: " << io.say(presetTooSmall(a->preset, topo->rankCount(), a->gpus)) << "\n";
                return kExitBadInput;
            }
            if (Status st = checkSweepRequest(*kind, a->gpus, *sizes); !st)
                return reportError(st.error(), io);
            auto profile = loadProfile(a->profile);
            if (!profile)
                return reportError(profile.error(), io);
            const Topology t = topo->firstGpus(a->gpus);
            CostModel model(t, *profile);
            const auto rows = simulateSweep(model, *kind, a->gpus, *sizes);
            if (a->json)
                io.out << sweepJson(*kind, a->gpus, rows, "sim");
            else
                io.out << formatSweepTable(
                    *kind, a->gpus, rows,
                    Message("sweep.title.sim").with("topology", t.name).with("profile", profile->name), io.language());
            return kExitOk;
        };
    });
}

} // namespace shardlab::cli
