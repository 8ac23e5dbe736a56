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

// A device-to-device copy reaches this share of the HBM bandwidth: on one H200 (4.8 TB/s) a
// 250 MB out-of-place 1-rank all-reduce took 0.126-0.136 ms (docs/benchmarks.md, issue 14), and
// 2 x 250 MB / (0.85 x 4.8 TB/s) + 6 us = 0.129 ms.
constexpr double kLocalCopyEfficiency = 0.85;

// The bytes of HBM traffic per received byte in the last step of a ring pass (finalStepStretch):
// the copy out of the receive buffer reads it and writes the output (2); reduce-scatter's last step
// also reads the rank's own input to reduce it in (3).
constexpr double kFinalRecvCopyTraffic = 2.0, kFinalRecvReduceCopyTraffic = 3.0;

// NCCL's ring all-reduce, all-gather and reduce-scatter end every pass over their chunks with a
// step that only receives (NVIDIA/nccl src/device/all_reduce.h, all_gather.h, reduce_scatter.h,
// runRing: directRecv / recvReduceCopy after the k steps that send). Its time is that of the
// rank's memory, not of its link, and the link waits for it:
//   T_data = moved / B x (1 + rho / k),  rho = w B / (kLocalCopyEfficiency x HBM)
// with B the bandwidth of the k sending steps, w the step's memory traffic per byte
// (kFinal...Traffic) and k = 2(n-1) for all-reduce, n-1 for all-gather and reduce-scatter. 1 where
// k or the HBM bandwidth is 0 (broadcast and reduce are pipelines along the ring: no such step).
// docs/cost-model.md, section 3 ("The ring's last step").
double finalStepStretch(int ringSteps, double traffic, double linkGBps, double hbmGBps);

// An LL128 step inside a node: what of its latency (hop + route) the step's data does not cover.
// LL128 has no per-step handshake (NVIDIA/nccl src/device/prims_ll128.h): the receiver polls the
// flag that each 128-byte line carries (recvFlag, needReload) instead of waiting for the step's
// tail pointer, and the sender only checks that one of the NCCL_STEPS slots ahead is free
// (waitSend). So a rank forwards each line of step j + 1 as the matching line of step j arrives.
// On a ring, where every rank runs step j at the same time T_j and sends its data in t (the
// step's data time), the lines of step j reach the next rank from T_j + h on, and step j + 1 starts
// once the rank has sent its own step j and the first line has come:
//   T_{j+1} = T_j + max(t, h),  so a step costs  t + max(0, h - t)
// where Simple, which waits for the whole step (its tail pointer) before passing it on, costs
// t + h. At 8 B (t = 0) the whole latency shows, as for LL; from a few MB on, none of it.
// docs/cost-model.md, section 3.
double ll128IntraStepUs(double stepLatencyUs, double stepDataUs);

// NVLS-tree's loops over the buffer and the fill of its pipeline at medium sizes.
Bytes nvlsTreeLoops(Bytes bytes, int heads, int nodes);
double nvlsTreeFillUs(Bytes bytes, int heads, int nodes, double nvlsGBps, double netGBps);

} // namespace shardlab::detail
