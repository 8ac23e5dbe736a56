// The live library's side of a multi-process run (live_rank.h): NCCL's unique id for rank 0, how
// many GPUs a process sees, one rank's GPU and links from NVML, and one rank's part of a run, by
// the same executor as a single-process run (bound to one rank: executor.h).
#include "cuda_util.h"
#include "executor.h"
#include "nvml.h"
#include "shardlab/live/live_rank.h"
#include "shardlab/live/machine_topology.h"

#include <map>

namespace shardlab::live {

Result<std::vector<std::uint8_t>> uniqueIdBytes()
{
    // Without a usable GPU here the job cannot run: rank 0 says so once, before anything starts.
    auto count = visibleGpuCount();
    if (!count)
        return count.error();
    prepareNcclEnvironment();
    ncclUniqueId id;
    LIVE_NCCL(ncclGetUniqueId(&id));
    static_assert(sizeof id.internal == kNcclUniqueIdBytes, "NCCL's unique id size changed");
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(id.internal);
    return std::vector<std::uint8_t>(bytes, bytes + sizeof id.internal);
}

int cudaDeviceCount()
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaSuccess)
        return count;
    return e == cudaErrorNoDevice ? 0 : -1; // -1: no driver, or CUDA cannot start: not known
}

Result<RunResult> runRankPart(const Scenario& scenario, int rank, int device, const std::vector<std::uint8_t>& uniqueId,
                              const LiveOptions& options, RankProgress& progress)
{
    return Executor(scenario, options, RankBinding{rank, device, uniqueId, &progress}).run();
}

// The sysfs probe (host, NICs) with what CUDA and NVML know about the GPU itself: its bus id from
// CUDA (authoritative for this process's device numbering), then name, memory, rates, UUID and
// NVLinks from NVML. What NVML cannot tell stays as the sysfs probe found it, with a note.
RankTopologyReport rankTopology(int device, const Environment& env)
{
    RankTopologyReport r = probeTopologyFromSysfs(device, env);
    auto devices = listDevices();
    if (!devices || device < 0 || device >= static_cast<int>(devices->size())) {
        r.notes.push_back(devices ? Message("error.piece.cuda_device_unlisted").with("device", device)
                                  : Message("error.piece.cuda_device_unlisted_why")
                                        .with("device", device)
                                        .with("why", messageOf(devices.error())));
        return r;
    }
    const LiveDevice& d = (*devices)[static_cast<size_t>(device)];
    if (normalBusId(d.pciBusId) != r.busId) // sysfs matched by position; CUDA knows which GPU it is
        readPcieFromSysfs(r, normalBusId(d.pciBusId));
    r.gpuName = d.name;
    r.gpuMemory = d.memory;
    auto opened = openNvml();
    if (!opened) {
        r.notes.push_back(messageOf(opened.error()));
        return r;
    }
    Nvml nv = *opened;
    nvmlDevice h = nullptr;
    if (nv.byBusId(d.pciBusId.c_str(), &h) != kNvmlSuccess) {
        r.notes.push_back(Message("error.piece.nvml_unknown_bus").with("bus", d.pciBusId));
        closeNvml(nv);
        return r;
    }
    r.probe = "NVML, CUDA and sysfs";
    // NVLink is what the sysfs probe could not read; NVML has it.
    std::erase_if(r.notes, [](const Message& m) { return m.id == "error.piece.nvlink_unreadable"; });
    const NvmlGpuFacts facts = gpuFacts(nv, h, d);
    r.tflops = facts.tflops;
    r.memBandwidthGBps = facts.memBandwidthGBps;
    if (facts.pcieGBps > 0)
        r.pcieGBps = facts.pcieGBps; // the link's maximum: sysfs reads an idle link's lower speed
    char uuid[96] = {};
    if (nv.uuid(h, uuid, sizeof uuid) == kNvmlSuccess)
        r.uuid = uuid;
    int version = 0;
    std::map<std::string, int> peers;
    for (const NvlinkEnd& end : activeNvlinks(nv, h)) {
        version = std::max(version, end.version);
        nvmlDevice far = nullptr;
        // Untyped (older NVML): a far end NVML knows as a GPU is one, anything else a switch.
        const bool toGpu = !end.remoteBusId.empty() && !end.toSwitch
                           && (end.typed || nv.byBusId(end.remoteBusId.c_str(), &far) == kNvmlSuccess);
        if (toGpu)
            ++peers[end.remoteBusId];
        else
            ++r.nvswitchLinks;
    }
    r.nvlinks.clear();
    for (const auto& [bus, links] : peers)
        r.nvlinks.push_back({bus, links});
    r.nvlinkGBps = version > 0 ? nvlinkLinkGBps(version) : 0;
    closeNvml(nv);
    return r;
}

} // namespace shardlab::live
