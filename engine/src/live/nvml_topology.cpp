// discoverTopology: this machine's GPUs and links from NVML, opened with dlopen (the build
// machine and CI have no driver, and the live library must load without one). The few NVML
// declarations needed are written out here (NVML's ABI is stable: the _v2/_v3 entry points are
// versioned names) because the toolkit ships nvml.h only with the driver's development files.
#include "cuda_util.h"
#include "shardlab/machine_topology.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cctype>
#include <cstring>

namespace shardlab::live {
namespace {

using nvmlReturn = int;
using nvmlDevice = struct NvmlDeviceOpaque*;
constexpr nvmlReturn kNvmlSuccess = 0;

// nvmlPciInfo_t as NVML defines it for nvmlDeviceGetPciInfo_v3 and ..RemotePciInfo_v2.
struct NvmlPciInfo {
    char busIdLegacy[16];
    unsigned domain;
    unsigned bus;
    unsigned device;
    unsigned pciDeviceId;
    unsigned pciSubSystemId;
    char busId[32];
};
struct NvmlMemory {
    unsigned long long total, free, used;
};
constexpr int kNvmlClockSm = 1, kNvmlClockMem = 2;
constexpr int kNvlinkDeviceTypeSwitch = 2;
constexpr unsigned kMaxNvlinks = 18; // NVML_NVLINK_MAX_LINKS

struct Nvml {
    void* handle = nullptr;
    nvmlReturn (*init)() = nullptr;
    nvmlReturn (*shutdown)() = nullptr;
    const char* (*errorString)(nvmlReturn) = nullptr;
    nvmlReturn (*byBusId)(const char*, nvmlDevice*) = nullptr;
    nvmlReturn (*name)(nvmlDevice, char*, unsigned) = nullptr;
    nvmlReturn (*pciInfo)(nvmlDevice, NvmlPciInfo*) = nullptr;
    nvmlReturn (*memory)(nvmlDevice, NvmlMemory*) = nullptr;
    nvmlReturn (*commonAncestor)(nvmlDevice, nvmlDevice, int*) = nullptr;
    nvmlReturn (*nvlinkState)(nvmlDevice, unsigned, int*) = nullptr;
    nvmlReturn (*nvlinkVersion)(nvmlDevice, unsigned, unsigned*) = nullptr;
    nvmlReturn (*nvlinkRemotePci)(nvmlDevice, unsigned, NvmlPciInfo*) = nullptr;
    nvmlReturn (*nvlinkRemoteType)(nvmlDevice, unsigned, int*) = nullptr; // optional
    nvmlReturn (*pcieGen)(nvmlDevice, unsigned*) = nullptr;
    nvmlReturn (*pcieWidth)(nvmlDevice, unsigned*) = nullptr;
    nvmlReturn (*maxClock)(nvmlDevice, int, unsigned*) = nullptr;
    nvmlReturn (*busWidth)(nvmlDevice, unsigned*) = nullptr;
    nvmlReturn (*driverVersion)(char*, unsigned) = nullptr;
};

template <class F>
bool bind(void* h, F& f, const char* name)
{
    f = reinterpret_cast<F>(dlsym(h, name));
    return f != nullptr;
}

Result<Nvml> openNvml()
{
    Nvml n;
    n.handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!n.handle)
        return badInput("NVML (libnvidia-ml.so.1, part of the NVIDIA driver) could not be loaded, so this machine's "
                        "topology cannot be read; use --preset ID");
    const bool ok = bind(n.handle, n.init, "nvmlInit_v2") && bind(n.handle, n.shutdown, "nvmlShutdown")
                    && bind(n.handle, n.errorString, "nvmlErrorString")
                    && bind(n.handle, n.byBusId, "nvmlDeviceGetHandleByPciBusId_v2")
                    && bind(n.handle, n.name, "nvmlDeviceGetName") && bind(n.handle, n.pciInfo, "nvmlDeviceGetPciInfo_v3")
                    && bind(n.handle, n.memory, "nvmlDeviceGetMemoryInfo")
                    && bind(n.handle, n.commonAncestor, "nvmlDeviceGetTopologyCommonAncestor")
                    && bind(n.handle, n.nvlinkState, "nvmlDeviceGetNvLinkState")
                    && bind(n.handle, n.nvlinkVersion, "nvmlDeviceGetNvLinkVersion")
                    && bind(n.handle, n.nvlinkRemotePci, "nvmlDeviceGetNvLinkRemotePciInfo_v2")
                    && bind(n.handle, n.pcieGen, "nvmlDeviceGetMaxPcieLinkGeneration")
                    && bind(n.handle, n.pcieWidth, "nvmlDeviceGetMaxPcieLinkWidth")
                    && bind(n.handle, n.maxClock, "nvmlDeviceGetMaxClockInfo")
                    && bind(n.handle, n.busWidth, "nvmlDeviceGetMemoryBusWidth")
                    && bind(n.handle, n.driverVersion, "nvmlSystemGetDriverVersion");
    bind(n.handle, n.nvlinkRemoteType, "nvmlDeviceGetNvLinkRemoteDeviceType");
    if (!ok)
        return badInput("this NVIDIA driver's NVML lacks functions ShardLab needs (driver too old?); use --preset ID");
    if (const nvmlReturn r = n.init(); r != kNvmlSuccess)
        return badInput(std::string("NVML could not start: ") + n.errorString(r) + "; use --preset ID");
    return n;
}

std::string lower(std::string s)
{
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// "00000000:1B:00.0" and "0000:1b:00.0" name the same function.
std::string normalBusId(const std::string& id)
{
    std::string s = lower(id);
    const auto colon = s.find(':');
    if (colon != std::string::npos && s.find(':', colon + 1) != std::string::npos && colon > 4)
        s = s.substr(colon - 4);
    return s;
}

} // namespace

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
        ~Close() { n.shutdown(); }
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
            return badInput("NVML does not know GPU " + std::to_string(i) + " (" + d.pciBusId + "): " + nv.errorString(r));
        nvmlDevice h = handles[static_cast<size_t>(i)];
        MachineGpu g;
        g.name = d.name;
        g.busId = d.pciBusId;
        g.memory = d.memory;
        unsigned sm = 0, mem = 0, width = 0, gen = 0, lanes = 0;
        if (nv.maxClock(h, kNvmlClockSm, &sm) == kNvmlSuccess)
            g.tflops = d.multiprocessors * fp32LanesPerSm(d.computeMajor, d.computeMinor) * 2.0 * sm * 1e6 / 1e12;
        if (nv.maxClock(h, kNvmlClockMem, &mem) == kNvmlSuccess && nv.busWidth(h, &width) == kNvmlSuccess)
            g.memBandwidthGBps = static_cast<double>(width) * mem * 1e6 * 2 / 8 / 1e9;
        if (nv.pcieGen(h, &gen) == kNvmlSuccess && nv.pcieWidth(h, &lanes) == kNvmlSuccess)
            g.pcieGBps = pcieLaneGBps(static_cast<int>(gen)) * lanes;
        f.gpus.push_back(g);
    }
    for (int a = 0; a < count; ++a) {
        f.pcie[static_cast<size_t>(a)][static_cast<size_t>(a)] = PathClass::Self;
        for (int b = a + 1; b < count; ++b) {
            int level = 50;
            nv.commonAncestor(handles[static_cast<size_t>(a)], handles[static_cast<size_t>(b)], &level);
            f.pcie[static_cast<size_t>(a)][static_cast<size_t>(b)] = f.pcie[static_cast<size_t>(b)][static_cast<size_t>(a)] =
                pathClassFromNvmlLevel(level);
        }
        for (unsigned link = 0; link < kMaxNvlinks; ++link) {
            int active = 0;
            if (nv.nvlinkState(handles[static_cast<size_t>(a)], link, &active) != kNvmlSuccess || !active)
                continue;
            unsigned version = 0;
            if (nv.nvlinkVersion(handles[static_cast<size_t>(a)], link, &version) == kNvmlSuccess)
                nvlinkVersion = std::max(nvlinkVersion, static_cast<int>(version));
            NvmlPciInfo remote{};
            int peer = -1;
            if (nv.nvlinkRemotePci(handles[static_cast<size_t>(a)], link, &remote) == kNvmlSuccess)
                for (int b = 0; b < count; ++b)
                    if (normalBusId(remote.busId) == normalBusId((*devices)[static_cast<size_t>(b)].pciBusId))
                        peer = b;
            int type = -1;
            const bool typed = nv.nvlinkRemoteType && nv.nvlinkRemoteType(handles[static_cast<size_t>(a)], link, &type) == kNvmlSuccess;
            if (peer >= 0 && peer != a && (!typed || type != kNvlinkDeviceTypeSwitch))
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
