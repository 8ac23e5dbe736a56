#include "cuda_util.h"

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace shardlab::live {
namespace {
// The call and where in the source it was made: "cudaMalloc(&p, n) at executor.cpp:120"
Message where(const char* call, const char* file, int line)
{
    const char* base = file;
    for (const char* p = file; *p; ++p)
        if (*p == '/')
            base = p + 1;
    return Message("error.live.call_at").with("call", call).with("file", base).with("line", line);
}
} // namespace

// CUDA's and NCCL's own names and strings of their errors are values, as they give them.
Error cudaError(cudaError_t e, const char* call, const char* file, int line)
{
    Message msg = Message("error.live.cuda_error")
                      .with("name", cudaGetErrorName(e))
                      .with("why", cudaGetErrorString(e))
                      .with("where", where(call, file, line));
    if (e == cudaErrorMemoryAllocation)
        msg = Message("error.live.out_of_memory").with("error", std::move(msg));
    return runFailed(std::move(msg));
}

Error ncclError(ncclResult_t r, const char* call, const char* file, int line)
{
    Message msg =
        Message("error.live.nccl_error").with("why", ncclGetErrorString(r)).with("where", where(call, file, line));
    if (const char* last = ncclGetLastError(nullptr); last && *last)
        msg = Message("error.live.nccl_last_error").with("error", std::move(msg)).with("last", last);
    return runFailed(std::move(msg));
}

void prepareNcclEnvironment() { setenv("NCCL_NVLS_ENABLE", "0", 1); }

Result<int> visibleGpuCount()
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
        const char* vis = std::getenv("CUDA_VISIBLE_DEVICES");
        if (vis)
            return badInput(Message("error.live.no_gpu_visible_in")
                                .with("variable", "CUDA_VISIBLE_DEVICES")
                                .with("value", vis)
                                .with("command", "shardlab sim"));
        return badInput(Message("error.live.no_gpu_visible").with("command", "shardlab sim"));
    }
    if (e == cudaErrorInsufficientDriver)
        return badInput(Message("error.live.driver_too_old")
                            .with("version", std::to_string(CUDART_VERSION / 1000) + "."
                                                 + std::to_string(CUDART_VERSION % 1000 / 10))
                            .with("command", "shardlab sim"));
    if (e != cudaSuccess)
        return badInput(Message("error.live.cuda_cannot_start")
                            .with("name", cudaGetErrorName(e))
                            .with("why", cudaGetErrorString(e)));
    return count;
}

Status requireGpus(int ranks, const Message& what)
{
    auto count = visibleGpuCount();
    if (!count)
        return count.error();
    if (ranks < 1)
        return badInput(Message("error.live.no_ranks").with("what", what));
    if (ranks > *count)
        return badInput(
            Message("error.live.too_few_gpus")
                .with("what", what)
                .with("ranks", Message(ranks == 1 ? "error.piece.rank" : "error.piece.ranks").with("count", ranks))
                .with("gpus", Message(*count == 1 ? "error.piece.gpu" : "error.piece.gpus").with("count", *count))
                .with("command", "shardlab sim"));
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

RuntimeVersions runtimeVersions()
{
    RuntimeVersions v;
    if (int driver = 0; cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0)
        v.cudaDriver = driver;
    if (int nccl = 0; ncclGetVersion(&nccl) == ncclSuccess && nccl > 0)
        v.nccl = nccl;
    return v;
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
