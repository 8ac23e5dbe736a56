#include "cli.h"

#include "shardlab/base/version.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/live.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/topo_matrix.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace shardlab::cli {

// `topo --json`: what the app asks a remote machine before a run (docs/remote.md): the versions,
// whether live mode works there and why not, and the topology in the scenario format's form.
std::string topoJson(const Result<Topology>& topo)
{
    nlohmann::json doc = {{"shardlab_version", kVersion},
                          {"stream_format", kStreamFormatVersion},
                          {"live", liveBuildInfo()},
                          {"topology", nullptr},
                          {"error", nullptr}};
    if (topo) {
        Scenario holder;
        holder.topology = *topo;
        doc["topology"] = nlohmann::json::parse(serializeScenario(holder)).at("topology");
    } else {
        doc["error"] = topo.error().message;
    }
    return doc.dump(1, ' ', true) + "\n";
}

std::string formatDetectedDevices(const std::vector<LiveDevice>& devices)
{
    std::string out = "\nDetected by CUDA:\n";
    bool allPeers = devices.size() > 1, nonePeers = true;
    for (const LiveDevice& d : devices) {
        std::string peers;
        for (int p : d.peerAccess)
            peers += (peers.empty() ? "GPU" : ", GPU") + std::to_string(p);
        allPeers = allPeers && d.peerAccess.size() + 1 == devices.size();
        nonePeers = nonePeers && d.peerAccess.empty();
        out += "  GPU" + std::to_string(d.index) + "  " + d.name + ", compute capability " + std::to_string(d.computeMajor)
               + "." + std::to_string(d.computeMinor) + " (sm_" + std::to_string(d.computeMajor * 10 + d.computeMinor) + "), "
               + std::to_string(d.multiprocessors) + " SMs, " + formatBytes(d.memory) + " (" + formatBytes(d.freeMemory)
               + " free), PCI " + d.pciBusId + ", peer access: " + (peers.empty() ? "none" : peers) + "\n";
    }
    if (devices.size() > 1)
        out += allPeers    ? "Every pair of GPUs has peer access (NCCL copies directly between them).\n"
               : nonePeers ? "No pair of GPUs has peer access: NCCL stages its transfers through host memory.\n"
                           : "Only some pairs of GPUs have peer access; the others go through host memory.\n";
    return out;
}

void addTopo(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("topo", "Print a topology as `nvidia-smi topo -m` does, with link bandwidths");
    auto preset = std::make_shared<std::string>();
    auto gpus = std::make_shared<int>(0);
    auto list = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    cmd->add_option("--preset", *preset, "A built-in topology (without it: this machine's own, in a live build; under "
                                        "mpirun/srun, every process's node and GPU combined)");
    cmd->add_option("--gpus", *gpus, "Take only the first N GPUs of the preset")->check(wholeNumber(1, 1LL << 20));
    cmd->add_flag("--list", *list, "List the built-in presets");
    cmd->add_flag("--json", *json,
                  "Print one JSON object: ShardLab's version, its stream format, whether live mode works here, and the "
                  "topology (null with the reason in \"error\" where there is none)");
    cmd->callback([=, &action] {
        action = [=]() -> int {
            if (*list) {
                for (const PresetInfo& p : presetList())
                    io.out << p.id << "\t" << p.description << "\n";
                return kExitOk;
            }
            if (preset->empty()) {
                int status = kExitOk;
                if (auto launch = multiProcessLaunch(io, status))
                    return topoUnderLauncher(*launch, *json, io);
                if (status != kExitOk)
                    return status;
                auto machine = discoverTopology();
                if (*json) {
                    io.out << topoJson(machine);
                    return machine ? kExitOk : kExitRunFailed;
                }
                if (!machine)
                    return reportError(machine.error(), io);
                io.out << formatTopoMatrix(*machine);
                if (auto devices = liveDevices())
                    io.out << formatDetectedDevices(*devices);
                return kExitOk;
            }
            auto topo = shardlab::preset(*preset);
            if (!topo) {
                io.err << "shardlab: " << unknownPresetMessage(*preset) << "\n";
                return kExitBadInput;
            }
            if (*gpus > topo->rankCount()) {
                io.err << "shardlab: preset " << *preset << " has " << topo->rankCount() << " GPUs; --gpus " << *gpus
                       << " asks for more\n";
                return kExitBadInput;
            }
            if (*json) {
                io.out << topoJson(*gpus > 0 ? topo->firstGpus(*gpus) : *topo);
                return kExitOk;
            }
            io.out << formatTopoMatrix(*gpus > 0 ? topo->firstGpus(*gpus) : *topo);
            return kExitOk;
        };
    });
}

} // namespace shardlab::cli
