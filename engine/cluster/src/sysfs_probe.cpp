// The topology probe that needs no NVML: /proc/driver/nvidia and sysfs (cluster_topology.h).
#include "shardlab/cluster/cluster_topology.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <system_error>
#include <unistd.h>

namespace shardlab {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    const auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::optional<std::string> readLine(const fs::path& p)
{
    std::ifstream in(p);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    return trim(line);
}

int readInt(const fs::path& p, int fallback)
{
    auto s = readLine(p);
    if (!s || s->empty())
        return fallback;
    char* end = nullptr;
    const long v = std::strtol(s->c_str(), &end, 10);
    return end && *end == '\0' ? static_cast<int>(v) : fallback;
}

std::vector<fs::path> children(const fs::path& dir)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
}

struct ProcGpu {
    std::string busId, model, uuid;
};

// /proc/driver/nvidia/gpus/<bus id>/information: "Model:  NVIDIA H200", "Bus Location: ...", "GPU UUID: ..."
std::vector<ProcGpu> procGpus(const fs::path& root)
{
    std::vector<ProcGpu> gpus;
    for (const fs::path& dir : children(root / "proc/driver/nvidia/gpus")) {
        ProcGpu g;
        g.busId = dir.filename().string();
        std::ifstream in(dir / "information");
        for (std::string line; std::getline(in, line);) {
            const auto colon = line.find(':');
            if (colon == std::string::npos)
                continue;
            const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
            if (key == "Model")
                g.model = value;
            else if (key == "GPU UUID")
                g.uuid = value;
            else if (key == "Bus Location")
                g.busId = value;
        }
        gpus.push_back(g);
    }
    // CUDA numbers GPUs in PCI order when CUDA_DEVICE_ORDER=PCI_BUS_ID (and, for identical GPUs,
    // by default too).
    std::sort(gpus.begin(), gpus.end(), [](const ProcGpu& a, const ProcGpu& b) { return a.busId < b.busId; });
    return gpus;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

void note(RankTopologyReport& r, Message what) { r.notes.push_back(std::move(what)); }

} // namespace

double pcieGBpsFromSysfs(const std::string& speed, const std::string& width)
{
    // speed: "16.0 GT/s PCIe" (older kernels: "16 GT/s"); width: "16"
    const double gts = std::atof(speed.c_str());
    const int lanes = std::atoi(width.c_str());
    if (!(gts > 0) || lanes <= 0)
        return 0;
    // 8b/10b through Gen2 (5 GT/s), 128b/130b for Gen3-5; Gen6 (64 GT/s) FLIT mode ~ 242/256
    const double encoding = gts <= 5.0 ? 0.8 : gts < 64.0 ? 128.0 / 130.0 : 242.0 / 256.0;
    return gts * lanes * encoding / 8.0;
}

double ibRateGBps(const std::string& rate)
{
    // "400 Gb/sec (4X NDR)": the data rate in Gb/s
    const double gbits = std::atof(rate.c_str());
    return gbits > 0 ? gbits / 8.0 : 0;
}

std::string hostName()
{
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0)
        return "unknown-host";
    return buf;
}

void readPcieFromSysfs(RankTopologyReport& r, const std::string& busId, const fs::path& root)
{
    r.busId = lower(busId);
    const fs::path dev = root / "sys/bus/pci/devices" / r.busId;
    r.numaNode = readInt(dev / "numa_node", -1);
    r.pcieGBps = pcieGBpsFromSysfs(readLine(dev / "current_link_speed").value_or(""),
                                   readLine(dev / "current_link_width").value_or(""));
    r.pcieSwitch.clear();
    // .../pci0000:17/0000:17:00.0 (root port)/0000:18:00.0 (switch)/.../<gpu>: GPUs below the
    // same bridge under a root port share a PCIe switch.
    std::error_code ec;
    const fs::path real = fs::canonical(dev, ec);
    if (!ec) {
        std::vector<std::string> chain;
        std::string hostBridge;
        for (const fs::path& part : real) {
            const std::string s = part.string();
            if (s.rfind("pci", 0) == 0)
                hostBridge = s;
            else if (!hostBridge.empty())
                chain.push_back(s);
        }
        if (chain.size() >= 3)
            r.pcieSwitch = hostBridge + "/" + chain[1];
    } else {
        note(r, Message("error.piece.pcie_unreadable").with("where", "sysfs"));
    }
}

RankTopologyReport probeTopologyFromSysfs(int device, const Environment& env, const fs::path& root)
{
    RankTopologyReport r;
    r.probe = "/proc and sysfs";
    r.device = device;
    r.host = root == fs::path("/") ? hostName() : readLine(root / "proc/sys/kernel/hostname").value_or("unknown-host");
    const auto gpus = procGpus(root);
    const auto visible = cudaVisibleDevices(env);
    r.physical = std::to_string(device);
    const ProcGpu* gpu = nullptr;
    if (visible) {
        if (device >= 0 && device < static_cast<int>(visible->size())) {
            const std::string& entry = (*visible)[static_cast<size_t>(device)];
            r.physical = entry;
            if (entry.rfind("GPU-", 0) == 0) {
                for (const ProcGpu& g : gpus)
                    if (lower(g.uuid).rfind(lower(entry), 0) == 0)
                        gpu = &g;
            } else if (entry.rfind("MIG-", 0) != 0) {
                const int idx = std::atoi(entry.c_str());
                if (idx >= 0 && idx < static_cast<int>(gpus.size()))
                    gpu = &gpus[static_cast<size_t>(idx)];
            }
        }
    } else if (device >= 0 && device < static_cast<int>(gpus.size())) {
        gpu = &gpus[static_cast<size_t>(device)];
    }
    if (gpus.empty())
        note(r, Message("error.piece.no_gpu_listed").with("file", "/proc/driver/nvidia/gpus"));
    else if (!gpu)
        note(r, Message("error.piece.device_not_listed")
                    .with("device", device)
                    .with("physical", r.physical)
                    .with("count", static_cast<int>(gpus.size()))
                    .with("file", "/proc/driver/nvidia/gpus"));
    if (gpu) {
        r.gpuName = gpu->model;
        r.uuid = gpu->uuid;
        readPcieFromSysfs(r, gpu->busId, root);
    }
    if (gpu)
        note(r, Message("error.piece.nvlink_unreadable"));

    // NICs that are up: InfiniBand/RoCE ports, then physical Ethernet interfaces not already seen.
    std::set<std::string> seenDevices;
    for (const fs::path& ib : children(root / "sys/class/infiniband")) {
        const auto ports = children(ib / "ports");
        for (const fs::path& port : ports) {
            if (readLine(port / "state").value_or("").find("ACTIVE") == std::string::npos)
                continue;
            NicReport nic;
            nic.name = ib.filename().string() + (ports.size() > 1 ? "/" + port.filename().string() : "");
            nic.kind = readLine(port / "link_layer").value_or("InfiniBand") == "Ethernet" ? "roce" : "infiniband";
            nic.gbps = ibRateGBps(readLine(port / "rate").value_or(""));
            nic.numaNode = readInt(ib / "device/numa_node", -1);
            if (nic.gbps > 0)
                r.nics.push_back(nic);
        }
        std::error_code ec;
        seenDevices.insert(fs::canonical(ib / "device", ec).string());
    }
    for (const fs::path& net : children(root / "sys/class/net")) {
        std::error_code ec;
        if (net.filename() == "lo" || !fs::exists(net / "device", ec))
            continue; // loopback and virtual interfaces (bridges, containers) have no device
        if (readLine(net / "operstate").value_or("") != "up" || readInt(net / "type", 1) == 32)
            continue; // down, or IP over InfiniBand (the port is listed above)
        const std::string devPath = fs::canonical(net / "device", ec).string();
        if (!ec && seenDevices.count(devPath))
            continue; // the Ethernet face of a RoCE port already listed
        const int mbps = readInt(net / "speed", -1);
        if (mbps <= 0)
            continue;
        r.nics.push_back({net.filename().string(), "ethernet", mbps / 8000.0, readInt(net / "device/numa_node", -1)});
    }
    return r;
}

} // namespace shardlab
