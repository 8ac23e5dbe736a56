// NCCL's tuning tables and rules that the cost model copies: nccl_tuning.h.
#include "nccl_tuning.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace shardlab::detail {

int ncclGeneration(const std::string& gpuName)
{
    std::string name;
    for (char c : gpuName)
        name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto has = [&](const char* part) { return name.find(part) != std::string::npos; };
    if (has("H100") || has("H200") || has("H800") || has("H20")) // compute capability 9.0
        return kHopperGeneration;
    if (has("A100") || has("A800") || has("A30") || has("A40") || has("A10")) // 8.0 and 8.6
        return kAmpereGeneration;
    if (has("V100") || has("P100")) // 7.0 and 6.0: NCCL's Volta row covers everything below 8.0
        return kVoltaGeneration;
    return kUnknownGeneration;
}

int ceilLog2(int n)
{
    int d = 0;
    while ((1 << d) < n)
        ++d;
    return d;
}

// floor(log2(n)), NCCL's log2i
int floorLog2(int n)
{
    int d = 0;
    while ((2 << d) <= n)
        ++d;
    return d;
}

// NCCL's own latency model for its tree and NVLS-tree all-reduce, taken whole (NVIDIA/nccl
// src/graph/tuning.cc, NCCL 2.19 on: baseLat and hwLat). With g ranks per node on N nodes:
//   tree, LL:            baseLat + 2 ((g - 1) hwLat[intra] + log2i(N) hwLat[net])
//                        = 6.8 + 2 ((g - 1) x 0.6 (NVLink; 1.0 other links) + log2i(N) x 5.0)
//   NVLS-tree (Simple):  hwLat[NVLink] + 2 log2i(N) hwLat[net] = 23 + 2 log2i(N) x 14
// NCCL fits these to what nccl-tests measures, launch included: on 2 x 8 H100 its tuner predicts
// 6.8 + 2 (7 x 0.6 + 5.0) = 25.2 us for a tree/LL all-reduce (log of github.com/NVIDIA/nccl/issues/1453)
// and nccl-tests measures 24.7 us at 8 B (github.com/NVIDIA/nccl-tests/issues/309); so neither
// the model's launch and base nor its route latencies are added. LL128 and Simple keep the
// model's own step latencies: NCCL pairs its LL128 and Simple tree latencies (14 + 1.25 / 8.5 per
// step; 28 per step, "the latency of a 256kB chunk") with tree bandwidths that it caps well below
// the model's, and taken alone they would make medium sizes too fast. docs/cost-model.md, section 3.
constexpr double kTreeBaseLlUs = 6.8;
constexpr double kTreeHopLlNvLinkUs = 0.6, kTreeHopLlPciUs = 1.0, kTreeHopLlNetUs = 5.0;
constexpr double kNvlsTreeIntraUs = 23.0, kNvlsTreeNetUs = 14.0;

// NCCL's correction of its tree's bandwidth at medium sizes ("trees are not perfectly sticking to
// the model for medium sizes"; NVIDIA/nccl src/graph/tuning.cc, treeCorrectionFactor, NCCL 2.19
// on): a factor by protocol (LL, LL128, Simple) and by floor(log2(S / 64)), i.e. one per power of
// two from 64 B to 256 MB; 1 outside. The tree's bandwidth is multiplied by it.
constexpr int kTreeCorrectionSizes = 23;
constexpr std::array<std::array<double, kTreeCorrectionSizes>, 3> kTreeCorrection{{
    // LL
    {1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 1.0, 1.0},
    // LL128
    {1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1.0, 1.0},
    // Simple
    {0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9, 0.9},
}};

double treeCorrection(int protocol, Bytes bytes)
{
    const Bytes units = bytes >> 6;
    if (units < 1)
        return 1.0;
    int index = 0;
    while ((units >> (index + 1)) != 0)
        ++index;
    return index < kTreeCorrectionSizes ? kTreeCorrection[static_cast<size_t>(protocol)][static_cast<size_t>(index)]
                                        : 1.0;
}

// NCCL's per-channel caps on its tree's bus bandwidth, in GB/s, by generation (Volta, Ampere,
// Hopper: ncclGeneration()) and node count (one node, two nodes, more): NVIDIA/nccl
// src/graph/tuning.cc, NCCL 2.19, perChMaxTreeBws and perChMaxTreeLL128Bws. Its tuner:
//   tree busBw = min(0.92 x nChannels x bw, nChannels x perChMaxTreeBw)     (every protocol)
//   LL128:  busBw = min(busBw x 120/128, nChannels x perChMaxTreeLL128Bw)
//   algbw = busBw / 2 (ratio .5)
// The model's tree algbw is capped at nChannels x perChMaxTreeBw / 2, and its LL128 at
// nChannels x perChMaxTreeLL128Bw / 2, with nChannels one per NIC (Impl::crossNodeChannels, the
// channels NCCL's search finds where the NICs limit). Its 0.92 and 120/128 are not applied again:
// the model's links and protocols carry their own efficiencies. docs/cost-model.md, section 3.
constexpr std::array<std::array<double, 3>, 3> kPerChannelMaxTreeBusGBps{{
    {26.5, 18.5, 10.0}, // Volta
    {24.0, 23.6, 17.8}, // Ampere
    {38.7, 41.4, 36.0}, // Hopper
}};
constexpr std::array<std::array<double, 3>, 3> kPerChannelMaxTreeLl128BusGBps{{
    {20.0, 20.0, 20.0},
    {20.0, 20.0, 20.0},
    {36.7, 36.7, 29.0},
}};
// The ring's LL128 likewise (perChMaxRingLL128Bws): busBw = min(busBw x 0.92, nChannels x
// perChMaxRingLL128Bw). The ring's bus bandwidth is the model's per-rank bandwidth, so its LL128
// is capped at nChannels x perChMaxRingLL128Bw. Across nodes only: inside a node the model prices
// one ring where NCCL runs many channels.
constexpr std::array<std::array<double, 3>, 3> kPerChannelMaxRingLl128BusGBps{{
    {20.0, 20.0, 20.0},
    {20.0, 20.0, 20.0},
    {36.7, 36.7, 36.7},
}};

ChannelCaps channelCaps(int generation, int channels, int nodes)
{
    ChannelCaps caps;
    if (generation < 0 || nodes < 2)
        return caps;
    const size_t g = static_cast<size_t>(generation), column = nodes == 2 ? 1 : 2;
    caps.treeGBps = channels * kPerChannelMaxTreeBusGBps[g][column] / 2.0;
    caps.treeLl128GBps = channels * kPerChannelMaxTreeLl128BusGBps[g][column] / 2.0;
    caps.ringLl128GBps = channels * kPerChannelMaxRingLl128BusGBps[g][column];
    return caps;
}

// NVLS-tree at medium sizes: NCCL's pipeline does not fill. NCCL divides the buffer over its NVLS
// channels (NVIDIA/nccl src/enqueue.cc, scheduleCollTasksToPlan; 16 on Hopper: src/transport/nvls.cc,
// NVLS_NCHANNELS_SM90) and each channel runs its share in loops of nHeads chunks (one chunk per NVLS
// head, a GPU with its own NIC). The chunk shrinks with the share b = S / 16 (calcCollChunking,
// NCCL 2.28: from NCCL_NVLS_CHUNKSIZE 128 KB, 64 KB from four nodes on (NVLSTREE_MAX_CHUNKSIZE),
// then 256 KB if b < 32 H c, 128 KB if b < 16 H c, 64 KB if b < 4 H c, 32 KB if b < H c, each only
// when the chunk c is larger), so up to 16 x 8 x 32 KB = 4 MB on eight heads all of S is a single loop.
// A loop's stages (the in-node NVLS reduce, the network up and down the tree, the in-node
// multicast) overlap only with other loops':
//   T_data = sum of one loop's stage times + (L - 1) x its slowest stage
//          = S / min(B_nvls, B_net / k) + fill,  fill = sum - slowest    (loop = S / L)
//   reduce = multicast = loop / B_nvls;  network = D x k x loop / B_net, D = ceil(log2 N)
// (on two nodes D = k = 1: half the channels go up one tree while the other half go up the other,
// then down, each direction of every NIC carrying half a loop each time). For many loops the fill,
// one loop's worth, is a small share of the time, and the algbw tends to the large-size
// min(B_nvls, B_net / k). docs/cost-model.md, 4b.
constexpr Bytes kNvlsChannels = 16;
constexpr Bytes kNvlsChunkBytes = 128 * 1024, kNvlsTreeMaxChunkFromFourNodes = 64 * 1024;

Bytes nvlsTreeLoops(Bytes bytes, int heads, int nodes)
{
    const Bytes share = bytes / kNvlsChannels, h = static_cast<Bytes>(std::max(heads, 1));
    Bytes chunk = nodes >= 4 ? kNvlsTreeMaxChunkFromFourNodes : kNvlsChunkBytes;
    if (share < 32 * h * chunk && chunk > 262144)
        chunk = 262144;
    if (share < 16 * h * chunk && chunk > 131072)
        chunk = 131072;
    if (share < 4 * h * chunk && chunk > 65536)
        chunk = 65536;
    if (share < h * chunk && chunk > 32768)
        chunk = 32768;
    return std::max<Bytes>(1, (share + h * chunk - 1) / (h * chunk));
}

double nvlsTreeFillUs(Bytes bytes, int heads, int nodes, double nvlsGBps, double netGBps)
{
    if (bytes == 0 || !(nvlsGBps > 0) || !(netGBps > 0) || !std::isfinite(netGBps))
        return 0.0;
    const double k = nodes == 2 ? 1.0 : 2.0;
    const double loop = static_cast<double>(bytes) / static_cast<double>(nvlsTreeLoops(bytes, heads, nodes));
    const double nvls = loop / (nvlsGBps * kGB / 1e6), net = k * loop / (netGBps * kGB / 1e6);
    const double sum = 2.0 * nvls + ceilLog2(nodes) * net;
    return sum - std::max(nvls, net);
}

// One pass of the ring over its chunks, per rank: k steps that send, c bytes each, each taking c / B
// on the link, then the receive-only step, which moves w c bytes through the rank's HBM at
// kLocalCopyEfficiency x HBM. A thread block runs its steps one after the other, so the pass takes
//   k c / B + w c / (0.85 HBM) = k c / B x (1 + rho / k),  rho = w B / (0.85 HBM),
// and every pass the same: the whole data time stretches by 1 + rho / k.
double finalStepStretch(int ringSteps, double traffic, double linkGBps, double hbmGBps)
{
    if (ringSteps <= 0 || !(traffic > 0) || !(linkGBps > 0) || !(hbmGBps > 0) || !std::isfinite(linkGBps))
        return 1.0;
    const double rho = traffic * linkGBps / (kLocalCopyEfficiency * hbmGBps);
    return 1.0 + rho / ringSteps;
}

double ll128IntraStepUs(double stepLatencyUs, double stepDataUs) { return std::max(0.0, stepLatencyUs - stepDataUs); }

TunerLatency treeTunerLatencyUs(int ranksPerNode, int nodes, LinkKind intraClass)
{
    const double intra = intraClass == LinkKind::NvLink ? kTreeHopLlNvLinkUs : kTreeHopLlPciUs;
    return {kTreeBaseLlUs + 2.0 * ((ranksPerNode - 1) * intra + floorLog2(nodes) * kTreeHopLlNetUs), std::nullopt,
            std::nullopt};
}

TunerLatency nvlsTreeTunerLatencyUs(int nodes)
{
    return {std::nullopt, std::nullopt, kNvlsTreeIntraUs + 2.0 * floorLog2(nodes) * kNvlsTreeNetUs};
}

} // namespace shardlab::detail
