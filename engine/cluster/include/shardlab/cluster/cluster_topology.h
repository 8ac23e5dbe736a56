// The machine of a multi-process run: each process reports its host, its GPU and what it can
// read about links (NVML on a live build; /proc and sysfs otherwise), and rank 0 combines the
// reports into one Topology (nodes by host, NVLink/NVSwitch inside nodes, NICs and a network
// switch between them) for `shardlab topo` under mpirun/srun and for the report.
#pragma once

#include "shardlab/cluster/launch.h"
#include "shardlab/cluster/transport.h"
#include "shardlab/model/topology.h"
#include "shardlab/text/language.h"

#include <filesystem>
#include <string>
#include <vector>

namespace shardlab {

// An NVLink bundle from this GPU to another GPU, named by its PCI bus id.
struct PeerLinkReport {
    std::string busId;
    int nvlinks = 0;
    bool operator==(const PeerLinkReport&) const = default;
};

struct NicReport {
    std::string name;  // "mlx5_0", "eth0"
    std::string kind;  // "infiniband", "roce" or "ethernet"
    double gbps = 0;   // per direction, GB/s (400 Gb/s NDR = 50)
    int numaNode = -1; // -1: unknown
    bool operator==(const NicReport&) const = default;
};

struct RankTopologyReport {
    int rank = 0;
    std::string host;
    int device = 0;       // CUDA index inside the process
    std::string physical; // CUDA_VISIBLE_DEVICES entry or index
    std::string gpuName;  // empty: unknown
    Bytes gpuMemory = 0;  // 0: unknown
    double tflops = 0;    // FP32, 0: unknown
    double memBandwidthGBps = 0;
    std::string busId;      // "0000:18:00.0"; empty: unknown
    std::string uuid;       // "GPU-..."
    int numaNode = -1;      // the GPU's NUMA node (socket); -1: unknown
    double pcieGBps = 0;    // the GPU's PCIe link per direction; 0: unknown
    std::string pcieSwitch; // the first PCIe bridge below the root port (GPUs sharing it sit on one switch)
    std::vector<PeerLinkReport> nvlinks; // to other GPUs, by bus id
    int nvswitchLinks = 0;               // NVLinks that end at an NVSwitch
    double nvlinkGBps = 0;               // per link per direction (NVLink4: 25)
    std::vector<NicReport> nics;         // the host's NICs that are up
    std::string probe;                   // where the figures come from: "NVML", "/proc and sysfs"
    std::vector<Message> notes;          // what could not be read (error.piece.* of readers.inc)
    bool operator==(const RankTopologyReport&) const = default;
};

// A report's notes as one piece: "first; second; ..." (error.piece.notes); empty where there are none.
Message probeNotes(const std::vector<Message>& notes);

Bytes8 encodeTopologyReport(const RankTopologyReport& report);
// `origin` names the report in an error ("rank 2's setup report").
Result<RankTopologyReport> decodeTopologyReport(const Bytes8& bytes, const Message& origin);
Result<RankTopologyReport> decodeTopologyReport(const Bytes8& bytes, const std::string& origin);

// One Topology from the reports (indexed by rank; GPU i = rank i):
//  * nodes in order of first appearance of their host; a CPU per NUMA node of each node
//    (joined by a cross-socket link when there are two or more);
//  * PCIe: GPUs that report the same PCIe switch hang below one; the others on their CPU;
//  * NVLink: GPUs with NVSwitch links meet on one NVSwitch per node (the bundle's width is the
//    link count times the per-link rate); otherwise NV# bundles between the GPUs that report them;
//  * between nodes: each node's NICs on its CPU, all NICs on one network switch. A node whose
//    NICs could not be read gets none, and the Topology's `source` says so.
// Figures a report leaves unknown (PCIe width, cross-socket rate) take the assumptions listed in
// cluster_topology.cpp, and `source` names each one used.
Result<Topology> combineTopology(const std::vector<RankTopologyReport>& reports);

// A table of who runs where: rank, host, device, GPU, bus id, NUMA node, NICs; column titles in
// `language` (topo.inc), the values as the processes reported them.
std::string formatPlacement(const std::vector<RankTopologyReport>& reports, Language language = Language::English);

// The /proc and sysfs probe (no NVML): host name; the GPU from /proc/driver/nvidia/gpus (name,
// bus id, UUID) matched to `device` through CUDA_VISIBLE_DEVICES; its PCIe link, switch and NUMA
// node from /sys/bus/pci/devices; NICs that are up from /sys/class/infiniband and
// /sys/class/net. `root` is "/" on a machine and a folder of fake files in tests. Never fails:
// what it cannot read stays unknown and is named in `notes`.
RankTopologyReport probeTopologyFromSysfs(int device, const Environment& env, const std::filesystem::path& root = "/");
std::string hostName();
// The PCIe facts of the GPU at `busId` ("0000:18:00.0") from sysfs, into `report`: bus id, NUMA
// node, link bandwidth, PCIe switch (the part of probeTopologyFromSysfs that the NVML probe reuses
// once CUDA has named the process's GPU).
void readPcieFromSysfs(RankTopologyReport& report, const std::string& busId, const std::filesystem::path& root = "/");

// PCIe per-direction bandwidth from sysfs' link speed and width: "16.0 GT/s PCIe" x 16 -> 31.5 GB/s
// (GT/s x lanes x encoding / 8: 8b/10b up to 5 GT/s, 128b/130b from 8 GT/s). 0 when unreadable.
double pcieGBpsFromSysfs(const std::string& speed, const std::string& width);
// InfiniBand port rate "400 Gb/sec (4X NDR)" -> 50 GB/s; 0 when unreadable.
double ibRateGBps(const std::string& rate);

} // namespace shardlab
