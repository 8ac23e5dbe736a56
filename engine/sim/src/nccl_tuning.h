// NCCL's tuning tables and rules that the cost model copies (NVIDIA/nccl src/graph/tuning.cc,
// src/enqueue.cc): GPU generations, the tree's latency and its correction by size, per-channel
// bandwidth caps, and the fill of NVLS-tree's pipeline. docs/cost-model.md, section 3.
#pragma once

#include "shardlab/base/units.h"
#include "shardlab/model/topology.h"

#include <array>
#include <limits>
#include <optional>
#include <string>

namespace shardlab::detail {

// The GPU generations NCCL's tuner tells apart (NVIDIA/nccl src/graph/tuning.cc, NCCL 2.19:
// compCapIndex = minCompCap >= 90 ? HOPPER_COMPCAP_IDX : minCompCap >= 80 ? AMPERE_COMPCAP_IDX :
// VOLTA_COMPCAP_IDX), read from the GPU's name. A name the model does not know (AMD, Blackwell,
// consumer cards) is kUnknownGeneration: NCCL's per-channel caps are then not applied.
constexpr int kVoltaGeneration = 0, kAmpereGeneration = 1, kHopperGeneration = 2, kUnknownGeneration = -1;
int ncclGeneration(const std::string& gpuName);

int ceilLog2(int n);
int floorLog2(int n); // NCCL's log2i

// A latency by protocol (LL, LL128, Simple) as NCCL's tuner has it, taken whole in place of the
// model's launch + base + steps; empty where the model's own step latencies apply.
using TunerLatency = std::array<std::optional<double>, 3>;

// The tree's latency: NCCL's for LL, the model's own steps for LL128 and Simple.
TunerLatency treeTunerLatencyUs(int ranksPerNode, int nodes, LinkKind intraClass);
// NVLS-tree runs Simple only, with NCCL's latency.
TunerLatency nvlsTreeTunerLatencyUs(int nodes);

// NCCL's correction of its tree's bandwidth by protocol and size (treeCorrectionFactor).
double treeCorrection(int protocol, Bytes bytes);

// NCCL's per-channel bandwidth caps across nodes for a generation, channel and node count.
struct ChannelCaps {
    double treeGBps = std::numeric_limits<double>::infinity();      // tree algbw, every protocol
    double treeLl128GBps = std::numeric_limits<double>::infinity(); // tree algbw, LL128, on top
    double ringLl128GBps = std::numeric_limits<double>::infinity(); // ring bus bandwidth, LL128
};
ChannelCaps channelCaps(int generation, int channels, int nodes);

// NVLS-tree's loops over the buffer and the fill of its pipeline at medium sizes.
Bytes nvlsTreeLoops(Bytes bytes, int heads, int nodes);
double nvlsTreeFillUs(Bytes bytes, int heads, int nodes, double nvlsGBps, double netGBps);

} // namespace shardlab::detail
