#include "nvml.h"

#include "shardlab/live/machine_topology.h"

#include <dlfcn.h>

#include <cctype>

namespace shardlab::live {
namespace {

constexpr int kNvmlClockSm = 1, kNvmlClockMem = 2;
constexpr int kNvlinkDeviceTypeSwitch = 2;
constexpr unsigned kMaxNvlinks = 18; // NVML_NVLINK_MAX_LINKS

template <class F>
bool bind(void* h, F& f, const char* name)
{
    f = reinterpret_cast<F>(dlsym(h, name));
    return f != nullptr;
}

} // namespace

Result<Nvml> openNvml()
{
    Nvml n;
    n.handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!n.handle)
        return badInput(
            Message("error.live.nvml_missing").with("library", "libnvidia-ml.so.1").with("option", "--preset ID"));
    const bool ok = bind(n.handle, n.init, "nvmlInit_v2") && bind(n.handle, n.shutdown, "nvmlShutdown")
                    && bind(n.handle, n.errorString, "nvmlErrorString")
                    && bind(n.handle, n.byBusId, "nvmlDeviceGetHandleByPciBusId_v2")
                    && bind(n.handle, n.name, "nvmlDeviceGetName") && bind(n.handle, n.uuid, "nvmlDeviceGetUUID")
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
        return badInput(Message("error.live.nvml_too_old").with("option", "--preset ID"));
    if (const nvmlReturn r = n.init(); r != kNvmlSuccess)
        return badInput(
            Message("error.live.nvml_cannot_start").with("why", n.errorString(r)).with("option", "--preset ID"));
    return n;
}

void closeNvml(Nvml& nvml)
{
    if (nvml.shutdown)
        nvml.shutdown();
}

std::string normalBusId(const std::string& id)
{
    std::string s = id;
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto colon = s.find(':');
    if (colon != std::string::npos && s.find(':', colon + 1) != std::string::npos && colon > 4)
        s = s.substr(colon - 4);
    return s;
}

NvmlGpuFacts gpuFacts(const Nvml& nv, nvmlDevice h, const LiveDevice& d)
{
    NvmlGpuFacts f;
    unsigned sm = 0, mem = 0, width = 0, gen = 0, lanes = 0;
    if (nv.maxClock(h, kNvmlClockSm, &sm) == kNvmlSuccess)
        f.tflops = d.multiprocessors * fp32LanesPerSm(d.computeMajor, d.computeMinor) * 2.0 * sm * 1e6 / 1e12;
    if (nv.maxClock(h, kNvmlClockMem, &mem) == kNvmlSuccess && nv.busWidth(h, &width) == kNvmlSuccess)
        f.memBandwidthGBps = static_cast<double>(width) * mem * 1e6 * 2 / 8 / 1e9;
    if (nv.pcieGen(h, &gen) == kNvmlSuccess && nv.pcieWidth(h, &lanes) == kNvmlSuccess)
        f.pcieGBps = pcieLaneGBps(static_cast<int>(gen)) * lanes;
    return f;
}

std::vector<NvlinkEnd> activeNvlinks(const Nvml& nv, nvmlDevice h)
{
    std::vector<NvlinkEnd> links;
    for (unsigned link = 0; link < kMaxNvlinks; ++link) {
        int active = 0;
        if (nv.nvlinkState(h, link, &active) != kNvmlSuccess || !active)
            continue;
        NvlinkEnd end;
        unsigned version = 0;
        if (nv.nvlinkVersion(h, link, &version) == kNvmlSuccess)
            end.version = static_cast<int>(version);
        NvmlPciInfo remote{};
        if (nv.nvlinkRemotePci(h, link, &remote) == kNvmlSuccess)
            end.remoteBusId = normalBusId(remote.busId);
        int type = -1;
        end.typed = nv.nvlinkRemoteType && nv.nvlinkRemoteType(h, link, &type) == kNvmlSuccess;
        end.toSwitch = end.typed && type == kNvlinkDeviceTypeSwitch;
        links.push_back(end);
    }
    return links;
}

} // namespace shardlab::live
