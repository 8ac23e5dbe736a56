#include "compute_calibration.h"

#include "cuda_util.h"
#include "shardlab/kernels.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <mutex>
#include <vector>

namespace shardlab::live {

std::uint64_t ComputeCalibration::itemsFor(double us) const
{
    const double ns = us * 1e3 - fixedNs;
    if (ns <= 0 || nsPerItem <= 0)
        return us > 0 ? static_cast<std::uint64_t>(kernels::kComputeThreads) * kernels::kComputeVisitsPerThread : 0;
    return static_cast<std::uint64_t>(std::llround(ns / nsPerItem));
}

int roundsForIntensity(double flopPerByte) { return std::max(1, static_cast<int>(std::lround(flopPerByte / 2.0))); }

std::size_t computeScratchCount(std::size_t freeBytes)
{
    std::size_t count = std::size_t{1} << 26;
    while (count > (std::size_t{1} << 16) && count * sizeof(float) > freeBytes / 16)
        count /= 2;
    return count;
}

Result<double> timeCompute(const ComputeCalibration& c, std::uint64_t items, float* scratch, std::size_t countPow2,
                           cudaStream_t stream, int repeats)
{
    cudaEvent_t a = nullptr, b = nullptr;
    LIVE_CUDA(cudaEventCreate(&a));
    if (cudaError_t e = cudaEventCreate(&b); e != cudaSuccess) {
        cudaEventDestroy(a);
        LIVE_CUDA(e);
    }
    std::vector<double> times;
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < repeats && e == cudaSuccess; ++i) {
        e = cudaEventRecord(a, stream);
        if (e == cudaSuccess)
            e = static_cast<cudaError_t>(kernels::launchCompute(scratch, countPow2, items, c.rounds, stream));
        if (e == cudaSuccess)
            e = cudaEventRecord(b, stream);
        if (e == cudaSuccess)
            e = cudaEventSynchronize(b);
        float ms = 0;
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&ms, a, b);
        times.push_back(ms * 1e3);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    LIVE_CUDA(e);
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

Result<ComputeCalibration> calibrateCompute(int device, int rounds, float* scratch, std::size_t countPow2,
                                            cudaStream_t stream)
{
    static std::mutex mutex;
    static std::map<std::tuple<int, int>, ComputeCalibration> cache;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (auto it = cache.find({device, rounds}); it != cache.end())
            return it->second;
    }
    ComputeCalibration c;
    c.device = device;
    c.rounds = rounds;
    int sms = 0;
    LIVE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const std::uint64_t threads =
        static_cast<std::uint64_t>(std::max(1, sms)) * 8 * kernels::kComputeThreads; // one full wave
    // A first guess, then sizes of about 3 and 12 ms for the fit.
    std::uint64_t probe = threads * 16;
    double probeUs = 0;
    for (int i = 0; i < 12; ++i) {
        auto t = timeCompute(c, probe, scratch, countPow2, stream, 1);
        if (!t)
            return t.error();
        probeUs = *t;
        if (probeUs > 500)
            break;
        probe *= 4;
    }
    const double perItemUs = probeUs / static_cast<double>(probe);
    const auto small = static_cast<std::uint64_t>(3000 / perItemUs);
    const auto large = static_cast<std::uint64_t>(12000 / perItemUs);
    auto ts = timeCompute(c, small, scratch, countPow2, stream, 3);
    if (!ts)
        return ts.error();
    auto tl = timeCompute(c, large, scratch, countPow2, stream, 3);
    if (!tl)
        return tl.error();
    c.nsPerItem = (*tl - *ts) * 1e3 / static_cast<double>(large - small);
    if (c.nsPerItem <= 0) // noise larger than the difference: fall back to the ratio
        c.nsPerItem = *tl * 1e3 / static_cast<double>(large);
    c.fixedNs = std::max(0.0, *tl * 1e3 - c.nsPerItem * static_cast<double>(large));
    std::lock_guard<std::mutex> lock(mutex);
    cache[{device, rounds}] = c;
    return c;
}

} // namespace shardlab::live
