#include "gpu_clock.h"

#include "cuda_util.h"
#include "shardlab/kernels.h"

#include <atomic>
#include <vector>

namespace shardlab::live {

Result<double> measureTimerResolution()
{
    constexpr int kReadings = 4096;
    std::uint64_t* dev = nullptr;
    LIVE_CUDA(cudaMalloc(&dev, kReadings * sizeof(std::uint64_t)));
    std::vector<std::uint64_t> host(kReadings);
    const int launch = kernels::launchTimerSeries(dev, kReadings, nullptr);
    cudaError_t e = launch ? static_cast<cudaError_t>(launch) : cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaMemcpy(host.data(), dev, kReadings * sizeof(std::uint64_t), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    LIVE_CUDA(e);
    std::vector<double> readings(host.begin(), host.end());
    return timerResolutionNs(readings);
}

Result<ClockFit> probeClock(int rounds, double resolutionNs)
{
    struct Mapped {
        unsigned flag;
        unsigned ack;
        std::uint64_t out[64];
    };
    rounds = std::min(rounds, 64);
    Mapped* host = nullptr;
    LIVE_CUDA(
        cudaHostAlloc(reinterpret_cast<void**>(&host), sizeof(Mapped), cudaHostAllocMapped | cudaHostAllocPortable));
    Mapped* dev = nullptr;
    cudaStream_t stream = nullptr;
    auto cleanup = [&] {
        if (stream)
            cudaStreamDestroy(stream);
        cudaFreeHost(host);
    };
    host->flag = 0;
    host->ack = 0;
    cudaError_t e = cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev), host, 0);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = static_cast<cudaError_t>(kernels::launchClockProbe(&dev->flag, &dev->ack, dev->out, rounds, stream));
    if (e != cudaSuccess) {
        cleanup();
        LIVE_CUDA(e);
    }
    volatile unsigned* flag = &host->flag;
    volatile unsigned* ack = &host->ack;
    volatile std::uint64_t* out = host->out;
    std::vector<ClockSample> samples;
    bool answered = true;
    for (int k = 1; k <= rounds && answered; ++k) {
        const double before = nowNs();
        *flag = static_cast<unsigned>(k);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        const double giveUp = before + 2e9;
        while (*ack < static_cast<unsigned>(k)) {
            if (nowNs() > giveUp) {
                answered = false;
                break;
            }
        }
        const double after = nowNs();
        std::atomic_thread_fence(std::memory_order_seq_cst);
        if (answered)
            samples.push_back({before, after, static_cast<double>(out[k - 1])});
    }
    if (!answered) {
        *flag = static_cast<unsigned>(rounds); // let the probe finish whenever it starts
        std::atomic_thread_fence(std::memory_order_seq_cst);
    }
    e = cudaStreamSynchronize(stream);
    cleanup();
    LIVE_CUDA(e);
    if (!answered)
        return runFailed(Message("error.live.clock_probe_silent").with("seconds", 2));
    return fitClock(samples, resolutionNs);
}

} // namespace shardlab::live
