// This machine's topology from what NVML reports, as a ShardLab Topology graph whose pair classes
// (classifyPairs) are exactly the ones `nvidia-smi topo -m` prints. The live engine gathers the
// facts (NVML, CUDA); building the graph is plain C++ and tested without a GPU.
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/sim/topo_matrix.h"

#include <string>
#include <vector>

namespace shardlab {

struct MachineGpu {
    std::string name;  // "NVIDIA H200"
    std::string busId; // PCI bus id
    Bytes memory = 0;
    double tflops = 0;           // FP32 peak: SMs x FP32 lanes per SM x 2 x boost clock
    double memBandwidthGBps = 0; // bus width x memory clock x 2 (DDR) / 8
    double pcieGBps = 0;         // per direction, from the link's generation and width
    int socket = 0;              // filled in by topologyFromMachine
};

struct MachineFacts {
    std::string name;   // e.g. the host name
    std::string source; // how the facts were gathered
    std::vector<MachineGpu> gpus;
    // Per pair: the PCIe class (Pix, Pxb, Phb, Node, Sys; Self on the diagonal), from NVML's common
    // ancestor of the two GPUs.
    std::vector<std::vector<PathClass>> pcie;
    std::vector<std::vector<int>> nvlinks; // links joining GPU a directly to GPU b
    std::vector<int> switchLinks;          // per GPU: links into an NVSwitch fabric
    double nvlinkGBps = 0;                 // one link, per direction
};

// NVML's nvmlGpuTopologyLevel_t (0 internal, 10 single switch, 20 multiple switches, 30 host
// bridge, 40 NUMA node, 50 system) as the class nvidia-smi prints.
PathClass pathClassFromNvmlLevel(int level);

// The graph: GPUs; an NVSwitch vertex when GPUs have links into a fabric; direct NVLink bundles;
// and a PCIe tree rebuilt from the pair classes by clustering: GPUs joined at PIX share a PCIe
// switch; switches joined at PXB hang under one more switch; PHB clusters share a host bridge (a
// CPU vertex); host bridges of one NUMA node are joined to each other (NODE) and NUMA nodes across
// sockets (SYS). Bandwidths: NVLink count x per-link rate; PCIe the GPU's link; between host
// bridges and sockets an assumed 64 GB/s (NVML does not report it; the source says so).
Topology topologyFromMachine(const MachineFacts& facts);

// Per-lane PCIe rate in GB/s per direction for a generation (1..6), after encoding: 0.25, 0.5,
// 0.985, 1.969, 3.938, 7.563. 0 for an unknown generation.
double pcieLaneGBps(int generation);
// Per-link NVLink rate in GB/s per direction for an NVLink version (1..5): 20, 25, 25, 25, 50.
double nvlinkLinkGBps(int version);
// FP32 lanes per SM for a compute capability (CUDA programming guide's throughput table).
int fp32LanesPerSm(int major, int minor);

} // namespace shardlab
