// discoverTopology: this machine's GPUs and links from NVML (nvml.h), in the classes of
// `nvidia-smi topo -m`.
#include "cuda_util.h"
#include "nvml.h"
#include "shardlab/live/machine_topology.h"

#include <unistd.h>

namespace shardlab::live {

Result<Topology> machineTopology()
{
    auto devices = listDevices();
    if (!devices)
        return devices.error();
    auto opened = openNvml();
    if (!opened)
        return opened.error();
    Nvml nv = *opened;
    struct Close {
        Nvml& n;
        ~Close() { closeNvml(n); }
    } close{nv};

    const int count = static_cast<int>(devices->size());
    std::vector<nvmlDevice> handles(static_cast<size_t>(count), nullptr);
    MachineFacts f;
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    char driver[96] = {};
    nv.driverVersion(driver, sizeof driver);
    f.name = std::string("this machine (") + host + ")";
    f.source = std::string("NVML and CUDA on this machine, driver ") + driver
               + "; FP32 rate = SMs x FP32 lanes x 2 x boost clock; memory bandwidth = bus width x memory clock x 2";
    f.pcie.assign(static_cast<size_t>(count), std::vector<PathClass>(static_cast<size_t>(count), PathClass::Sys));
    f.nvlinks.assign(static_cast<size_t>(count), std::vector<int>(static_cast<size_t>(count), 0));
    f.switchLinks.assign(static_cast<size_t>(count), 0);
    int nvlinkVersion = 0;
    for (int i = 0; i < count; ++i) {
        const LiveDevice& d = (*devices)[static_cast<size_t>(i)];
        if (const nvmlReturn r = nv.byBusId(d.pciBusId.c_str(), &handles[static_cast<size_t>(i)]); r != kNvmlSuccess)
            return badInput(Message("error.live.nvml_unknown_gpu")
                                .with("index", i)
                                .with("bus", d.pciBusId)
                                .with("why", nv.errorString(r)));
        const NvmlGpuFacts facts = gpuFacts(nv, handles[static_cast<size_t>(i)], d);
        MachineGpu g;
        g.name = d.name;
        g.busId = d.pciBusId;
        g.memory = d.memory;
        g.tflops = facts.tflops;
        g.memBandwidthGBps = facts.memBandwidthGBps;
        g.pcieGBps = facts.pcieGBps;
        f.gpus.push_back(g);
    }
    for (int a = 0; a < count; ++a) {
        f.pcie[static_cast<size_t>(a)][static_cast<size_t>(a)] = PathClass::Self;
        for (int b = a + 1; b < count; ++b) {
            int level = 50;
            nv.commonAncestor(handles[static_cast<size_t>(a)], handles[static_cast<size_t>(b)], &level);
            f.pcie[static_cast<size_t>(a)][static_cast<size_t>(b)] =
                f.pcie[static_cast<size_t>(b)][static_cast<size_t>(a)] = pathClassFromNvmlLevel(level);
        }
        for (const NvlinkEnd& end : activeNvlinks(nv, handles[static_cast<size_t>(a)])) {
            nvlinkVersion = std::max(nvlinkVersion, end.version);
            int peer = -1;
            for (int b = 0; b < count; ++b)
                if (!end.remoteBusId.empty()
                    && end.remoteBusId == normalBusId((*devices)[static_cast<size_t>(b)].pciBusId))
                    peer = b;
            if (peer >= 0 && peer != a && !end.toSwitch)
                ++f.nvlinks[static_cast<size_t>(a)][static_cast<size_t>(peer)];
            else if (peer < 0)
                ++f.switchLinks[static_cast<size_t>(a)]; // an NVSwitch, or a GPU this process cannot see
        }
    }
    // Direct links were counted from both ends: keep one count per pair, the smaller (links both ends see).
    for (int a = 0; a < count; ++a)
        for (int b = a + 1; b < count; ++b) {
            const int c = std::min(f.nvlinks[static_cast<size_t>(a)][static_cast<size_t>(b)],
                                   f.nvlinks[static_cast<size_t>(b)][static_cast<size_t>(a)]);
            f.nvlinks[static_cast<size_t>(a)][static_cast<size_t>(b)] = c;
            f.nvlinks[static_cast<size_t>(b)][static_cast<size_t>(a)] = 0;
        }
    f.nvlinkGBps = nvlinkLinkGBps(nvlinkVersion);
    return topologyFromMachine(f);
}

} // namespace shardlab::live
