// NVML, opened with dlopen (the build machine and CI have no driver, and the live library must
// load without one), and the per-GPU facts both topology probes read from it: the machine's
// (discoverTopology) and one rank's (probeRankTopology). The few NVML declarations needed are
// written out here (NVML's ABI is stable: the _v2/_v3 entry points are versioned names) because
// the toolkit ships nvml.h only with the driver's development files.
#pragma once

#include "shardlab/live/live.h"

#include <string>
#include <vector>

namespace shardlab::live {

using nvmlReturn = int;
using nvmlDevice = struct NvmlDeviceOpaque*;
inline constexpr nvmlReturn kNvmlSuccess = 0;

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

struct Nvml {
    void* handle = nullptr;
    nvmlReturn (*init)() = nullptr;
    nvmlReturn (*shutdown)() = nullptr;
    const char* (*errorString)(nvmlReturn) = nullptr;
    nvmlReturn (*byBusId)(const char*, nvmlDevice*) = nullptr;
    nvmlReturn (*name)(nvmlDevice, char*, unsigned) = nullptr;
    nvmlReturn (*uuid)(nvmlDevice, char*, unsigned) = nullptr;
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

// Opens and initialises NVML; BadInput saying why not. Shut it down with closeNvml.
Result<Nvml> openNvml();
void closeNvml(Nvml& nvml);

// "00000000:1B:00.0" and "0000:1b:00.0" name the same function: lower case, 4-digit domain.
std::string normalBusId(const std::string& id);

// What NVML and CUDA say about one GPU; 0 where NVML does not answer.
struct NvmlGpuFacts {
    double tflops = 0;           // FP32: SMs x FP32 lanes x 2 x boost clock
    double memBandwidthGBps = 0; // bus width x memory clock x 2 (DDR)
    double pcieGBps = 0;         // per direction, at the link's maximum generation and width
};
NvmlGpuFacts gpuFacts(const Nvml& nvml, nvmlDevice handle, const LiveDevice& device);

// One active NVLink of a GPU: where it ends.
struct NvlinkEnd {
    std::string remoteBusId; // normalised; empty when NVML does not say
    bool toSwitch = false;   // NVML says the far end is an NVSwitch
    bool typed = false;      // NVML could say what the far end is
    int version = 0;         // NVLink generation (0: unknown)
};
std::vector<NvlinkEnd> activeNvlinks(const Nvml& nvml, nvmlDevice handle);

} // namespace shardlab::live
