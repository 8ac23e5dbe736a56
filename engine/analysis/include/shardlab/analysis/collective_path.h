// The collective that costs a step the most time, and the link that limits it: the "topology
// path" that the scaling notes and the diagnosis cite. Shared so that both name the same link.
#pragma once

#include "shardlab/analysis/summary.h"
#include "shardlab/sim/cost_model.h"

#include <optional>
#include <string>

namespace shardlab {

struct CollectivePath {
    int op = -1;      // program index
    std::string name; // the op's label
    OpKind kind = OpKind::AllReduce;
    Bytes bytes = 0; // nccl-tests size of one call (one bucket)
    int ranks = 0;
    double msPerStep = 0;             // mean duration x calls per iteration
    double busbwGBps = 0;             // bytes / mean duration x busBandwidthFactor
    CollectiveCost cost;              // the cost model's view of one call: algorithm, protocol, bottleneck
    std::optional<LinkKind> linkKind; // class of the bottleneck link (none on one rank)
    std::string linkText;             // "gpu4 - pcie2 (PCIe, 15.8 GB/s per direction)"
    Message linkMessage;              // the same, as data (linkDescription)
};

// The collective op with the largest total time per iteration in `run` (ties: the first in program
// order), priced again by `model` on the scenario's topology to find its bottleneck link. Empty
// when the program has no collective that took time.
std::optional<CollectivePath> dominantCollective(const Scenario& scenario, const RunResult& run, CostModel& model);

// "a - b (NVLink x18, 450 GB/s per direction)"; "" for an index out of range.
std::string describeLink(const Topology& topology, int link);
Message linkDescription(const Topology& topology, int link); // the same as data; empty out of range
// "NVLink", "PCIe", "the CPU-socket interconnect", "the network"
const char* linkKindWords(LinkKind kind);
Message linkKindMessage(LinkKind kind); // the same as data
// A link kind as a table names it: "NVLink", "PCIe", "cross-socket", "network" (link.short.*)
Message linkShortMessage(LinkKind kind);

} // namespace shardlab
