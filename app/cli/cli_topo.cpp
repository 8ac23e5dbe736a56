#include "cli.h"

#include "shardlab/base/message_json.h"
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
    const Message live = liveBuildInfo();
    nlohmann::json doc = {{"shardlab_version", kVersion}, {"stream_format", kStreamFormatVersion},
                          {"live", english(live)},        {"live_message", messageToJson(live)},
                          {"topology", nullptr},          {"error", nullptr}};
    if (topo) {
        Scenario holder;
        holder.topology = *topo;
        doc["topology"] = nlohmann::json::parse(serializeScenario(holder)).at("topology");
    } else {
        doc["error"] = topo.error().message;
        doc["error_message"] = messageToJson(messageOf(topo.error()));
    }
    return doc.dump(1, ' ', true) + "\n";
}

std::string formatDetectedDevices(const std::vector<LiveDevice>& devices, Language language)
{
    auto say = [language](const Message& m) { return render(m, language); };
    std::string out = "\n" + say(Message("topo.detected")) + "\n";
    bool allPeers = devices.size() > 1, nonePeers = true;
    for (const LiveDevice& d : devices) {
        std::vector<Message> peers;
        for (int p : d.peerAccess)
            peers.push_back(verbatim("GPU" + std::to_string(p)));
        allPeers = allPeers && d.peerAccess.size() + 1 == devices.size();
        nonePeers = nonePeers && d.peerAccess.empty();
        out += "  GPU" + std::to_string(d.index) + "  "
               + say(Message("topo.device")
                         .with("name", d.name)
                         .with("capability", std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor))
                         .with("sm", std::to_string(d.computeMajor * 10 + d.computeMinor))
                         .with("sms", d.multiprocessors)
                         .with("memory", formatBytes(d.memory))
                         .with("free", formatBytes(d.freeMemory))
                         .with("pci", d.pciBusId)
                         .with("peers", peers.empty() ? Message("common.none") : listOf(std::move(peers))))
               + "\n";
    }
    if (devices.size() > 1)
        out += say(Message(allPeers ? "topo.peers.all" : nonePeers ? "topo.peers.none" : "topo.peers.some")) + "\n";
    return out;
}

void addTopo(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("topo", "Print a topology as `nvidia-smi topo -m` does, with link bandwidths");
    auto preset = std::make_shared<std::string>();
    auto gpus = std::make_shared<int>(0);
    auto list = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    cmd->add_option("--preset", *preset,
                    "A built-in topology (without it: this machine's own, in a live build; under "
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
                    io.out << p.id << "\t" << io.say(presetDescription(p)) << "\n";
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
                io.out << topoMatrixText(*machine, io.language());
                if (auto devices = liveDevices())
                    io.out << formatDetectedDevices(*devices, io.language());
                return kExitOk;
            }
            auto topo = shardlab::preset(*preset);
            if (!topo) {
                io.err << "shardlab: " << io.say(unknownPresetSentence(*preset)) << "\n";
                return kExitBadInput;
            }
            if (*gpus > topo->rankCount()) {
                io.err << "shardlab: " << io.say(presetTooSmall(*preset, topo->rankCount(), *gpus)) << "\n";
                return kExitBadInput;
            }
            if (*json) {
                io.out << topoJson(*gpus > 0 ? topo->firstGpus(*gpus) : *topo);
                return kExitOk;
            }
            io.out << topoMatrixText(*gpus > 0 ? topo->firstGpus(*gpus) : *topo, io.language());
            return kExitOk;
        };
    });
}

} // namespace shardlab::cli
