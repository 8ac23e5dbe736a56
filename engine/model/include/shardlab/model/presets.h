// Built-in topologies. Each preset's figures come from a datasheet or a measurement cited in
// presets.cpp next to it.
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/text/message.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct PresetInfo {
    std::string id;
    std::string description;
};

std::vector<PresetInfo> presetList();
// The preset's description as a Message ("preset.ID" of topo.inc), worded in either language.
Message presetDescription(const PresetInfo& preset);
std::optional<Topology> preset(std::string_view id);
// A cluster of `gpus` GPUs built from copies of the first node of `node` (its GPUs, switches and
// links), joined by a non-blocking network switch. Copies keep the template's NICs; a template
// without NICs gets one 400 Gb/s NIC per PCIe switch (or per CPU when it has no PCIe switch).
// With gpus <= the template's GPUs it is firstGpus(gpus). Used for scaling curves and benchmarks.
Topology scaleOut(const Topology& node, int gpus);

// A link of the given class with the figures the presets use for it (NVLink4 x18, PCIe Gen5 x16,
// UPI, NDR 400 Gb/s InfiniBand): a sensible default when a user draws a new link.
Link typicalLink(LinkKind kind, const std::string& a, const std::string& b);

// "unknown preset 'x' (expected one of: a, b, c)" (error.says.unknown_preset), and its English.
Message unknownPresetSentence(std::string_view id);
std::string unknownPresetMessage(std::string_view id);

} // namespace shardlab
