// Small helpers of the live library: CUDA/NCCL errors as Error values (with the call and
// file:line, as nccl-tests' CUDACHECK/NCCLCHECK), the host clock, the process environment NCCL
// needs, and what the driver and NCCL report. Inside libshardlab_live.so only.
#pragma once

#include "shardlab/live/live.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <string>
#include <vector>

namespace shardlab::live {

Error cudaError(cudaError_t e, const char* call, const char* file, int line);
Error ncclError(ncclResult_t r, const char* call, const char* file, int line);

// Return an Error from the enclosing function (Status or Result<T>) when a call fails.
#define LIVE_CUDA(call)                                                                                                \
    do {                                                                                                               \
        const cudaError_t e_ = (call);                                                                                 \
        if (e_ != cudaSuccess)                                                                                         \
            return ::shardlab::live::cudaError(e_, #call, __FILE__, __LINE__);                                         \
    } while (0)
#define LIVE_KERNEL(launch)                                                                                            \
    do {                                                                                                               \
        const int e_ = (launch);                                                                                       \
        if (e_ != 0)                                                                                                   \
            return ::shardlab::live::cudaError(static_cast<cudaError_t>(e_), #launch, __FILE__, __LINE__);             \
    } while (0)
#define LIVE_NCCL(call)                                                                                                \
    do {                                                                                                               \
        const ncclResult_t r_ = (call);                                                                                \
        if (r_ != ncclSuccess && r_ != ncclInProgress)                                                                 \
            return ::shardlab::live::ncclError(r_, #call, __FILE__, __LINE__);                                         \
    } while (0)
#define LIVE_TRY(expr)                                                                                                 \
    do {                                                                                                               \
        if (::shardlab::Status st_ = (expr); !st_)                                                                     \
            return st_.error();                                                                                        \
    } while (0)

// Host steady clock (CLOCK_MONOTONIC) in nanoseconds.
inline double nowNs()
{
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

// Sets what NCCL must see before its first initialisation in this process: NVLink multicast
// (NVLS) off, always (it can take a shared machine's GPUs out of service).
void prepareNcclEnvironment();

// The number of visible GPUs, or BadInput saying why there are none (no driver, driver too old,
// no device, CUDA_VISIBLE_DEVICES empty).
Result<int> visibleGpuCount();

// BadInput unless `ranks` GPUs are visible: "the scenario has 4 ranks; this machine has 2 GPUs".
Status requireGpus(int ranks, const Message& what);

// Waits until every stream is idle (polling, so that a hang cannot block the caller), up to
// `deadlineMs`; sets *timedOut when it gives up. `spin`: no yielding between polls (timing).
Status waitStreams(const std::vector<cudaStream_t>& streams, double deadlineMs, bool* timedOut, bool spin = false);

RuntimeVersions runtimeVersions();
Result<std::vector<LiveDevice>> listDevices();

// Restores the calling thread's current device when it goes out of scope.
class DeviceGuard {
public:
    DeviceGuard() { m_ok = cudaGetDevice(&m_device) == cudaSuccess; }
    ~DeviceGuard()
    {
        if (m_ok)
            cudaSetDevice(m_device);
    }
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int m_device = 0;
    bool m_ok = false;
};

} // namespace shardlab::live
