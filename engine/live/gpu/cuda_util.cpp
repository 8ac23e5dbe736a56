#include "cuda_util.h"

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace shardlab::live {
namespace {
std::string where(const char* call, const char* file, int line)
{
    const char* base = file;
    for (const char* p = file; *p; ++p)
        if (*p == '/')
            base = p + 1;
    return std::string(call) + " at " + base + ":" + std::to_string(line);
}
} // namespace

Error cudaError(cudaError_t e, const char* call, const char* file, int line)
{
    std::string msg = std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in "
                      + where(call, file, line);
    if (e == cudaErrorMemoryAllocation)
        msg += "; the GPU is out of memory";
    return runFailed(msg);
}

Error ncclError(ncclResult_t r, const char* call, const char* file, int line)
{
    std::string msg = std::string("NCCL error ") + ncclGetErrorString(r) + " in " + where(call, file, line);
    if (const char* last = ncclGetLastError(nullptr); last && *last)
        msg += ": " + std::string(last);
    return runFailed(msg);
}

void prepareNcclEnvironment() { setenv("NCCL_NVLS_ENABLE", "0", 1); }

Result<int> visibleGpuCount()
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
        const char* vis = std::getenv("CUDA_VISIBLE_DEVICES");
        return badInput(std::string("no CUDA GPU is visible to this process")
                        + (vis ? std::string(" (CUDA_VISIBLE_DEVICES=") + vis + ")" : std::string())
                        + "; live mode needs at least one NVIDIA GPU (use `shardlab sim` to simulate)");
    }
    if (e == cudaErrorInsufficientDriver)
        return badInput("the NVIDIA driver is missing or too old for CUDA " + std::to_string(CUDART_VERSION / 1000)
                        + "." + std::to_string(CUDART_VERSION % 1000 / 10)
                        + " (live mode needs an NVIDIA GPU and driver; use `shardlab sim` to simulate)");
    if (e != cudaSuccess)
        return badInput(std::string("CUDA cannot start here: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e)
                        + "); live mode needs an NVIDIA GPU and driver");
    return count;
}

Status requireGpus(int ranks, const std::string& what)
{
    auto count = visibleGpuCount();
    if (!count)
        return count.error();
    if (ranks < 1)
        return badInput(what + " has no ranks");
    if (ranks > *count)
        return badInput(what + " has " + std::to_string(ranks) + " rank" + (ranks == 1 ? "" : "s")
                        + "; this machine has " + std::to_string(*count) + " GPU" + (*count == 1 ? "" : "s")
                        + " (live mode runs rank i on GPU i; simulate it with `shardlab sim`, or use fewer ranks)");
    return {};
}

Status waitStreams(const std::vector<cudaStream_t>& streams, double deadlineMs, bool* timedOut, bool spin)
{
    *timedOut = false;
    const double giveUp = nowNs() + deadlineMs * 1e6;
    for (size_t i = 0; i < streams.size();) {
        const cudaError_t e = cudaStreamQuery(streams[i]);
        if (e == cudaSuccess) {
            ++i;
            continue;
        }
        if (e != cudaErrorNotReady)
            LIVE_CUDA(e);
        if (nowNs() > giveUp) {
            *timedOut = true;
            return {};
        }
        if (!spin)
            std::this_thread::yield();
    }
    return {};
}

std::string runtimeInfo()
{
    std::string s;
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0)
        s = "driver for CUDA " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);
    else
        s = "no NVIDIA driver found";
    int nccl = 0;
    if (ncclGetVersion(&nccl) == ncclSuccess) {
        char buf[64];
        std::snprintf(buf, sizeof buf, ", NCCL %d.%d.%d at run time", nccl / 10000, nccl / 100 % 100, nccl % 100);
        s += buf;
    }
    return s;
}

Result<std::vector<LiveDevice>> listDevices()
{
    auto count = visibleGpuCount();
    if (!count)
        return count.error();
    DeviceGuard guard;
    std::vector<LiveDevice> list;
    for (int d = 0; d < *count; ++d) {
        cudaDeviceProp p{};
        LIVE_CUDA(cudaGetDeviceProperties(&p, d));
        LiveDevice dev;
        dev.index = d;
        dev.name = p.name;
        dev.memory = p.totalGlobalMem;
        dev.multiprocessors = p.multiProcessorCount;
        dev.computeMajor = p.major;
        dev.computeMinor = p.minor;
        char bus[32] = {};
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess)
            dev.pciBusId = bus;
        LIVE_CUDA(cudaSetDevice(d));
        size_t freeB = 0, totalB = 0;
        LIVE_CUDA(cudaMemGetInfo(&freeB, &totalB));
        dev.freeMemory = freeB;
        for (int peer = 0; peer < *count; ++peer) {
            int can = 0;
            if (peer != d && cudaDeviceCanAccessPeer(&can, d, peer) == cudaSuccess && can)
                dev.peerAccess.push_back(peer);
        }
        list.push_back(dev);
    }
    return list;
}

} // namespace shardlab::live
