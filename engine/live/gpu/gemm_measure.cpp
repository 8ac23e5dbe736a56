#include "gemm_measure.h"

#include "cublas.h"
#include "cuda_util.h"
#include "shardlab/kernels.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace shardlab::live {
namespace {

struct DeviceMemory {
    void* p = nullptr;
    DeviceMemory() = default;
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;
    ~DeviceMemory()
    {
        if (p)
            cudaFree(p);
    }
};

struct Timer {
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    Timer() = default;
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;
    ~Timer()
    {
        if (start)
            cudaEventDestroy(start);
        if (stop)
            cudaEventDestroy(stop);
        if (stream)
            cudaStreamDestroy(stream);
    }
    // The median of `repeats` timings of `launch` (after `warmup` untimed ones), in microseconds.
    Result<double> median(const std::function<Status()>& launch, int warmup, int repeats)
    {
        for (int i = 0; i < warmup; ++i)
            LIVE_TRY(launch());
        LIVE_CUDA(cudaStreamSynchronize(stream));
        std::vector<double> us;
        for (int i = 0; i < repeats; ++i) {
            LIVE_CUDA(cudaEventRecord(start, stream));
            LIVE_TRY(launch());
            LIVE_CUDA(cudaEventRecord(stop, stream));
            LIVE_CUDA(cudaEventSynchronize(stop));
            float ms = 0;
            LIVE_CUDA(cudaEventElapsedTime(&ms, start, stop));
            us.push_back(ms * 1e3);
        }
        std::sort(us.begin(), us.end());
        return us[us.size() / 2];
    }
};

Result<std::size_t> freeMemory()
{
    size_t freeB = 0, totalB = 0;
    LIVE_CUDA(cudaMemGetInfo(&freeB, &totalB));
    return freeB;
}

Result<GemmTiming> timeGemm(Cublas& blas, Timer& timer, const GemmShape& s, const GemmMeasureOptions& o)
{
    const auto elements = [](long long a, long long b) {
        return static_cast<std::size_t>(a) * static_cast<std::size_t>(b);
    };
    DeviceMemory a, b, c;
    LIVE_CUDA(cudaMalloc(&a.p, 2 * elements(s.m, s.k)));
    LIVE_CUDA(cudaMalloc(&b.p, 2 * elements(s.k, s.n)));
    LIVE_CUDA(cudaMalloc(&c.p, 2 * elements(s.m, s.n)));
    LIVE_KERNEL(kernels::fillNoiseBf16(a.p, elements(s.m, s.k), 1, timer.stream));
    LIVE_KERNEL(kernels::fillNoiseBf16(b.p, elements(s.k, s.n), 2, timer.stream));
    auto launch = [&]() -> Status { return launchGemm(blas, s, a.p, b.p, c.p); };
    auto us = timer.median(launch, o.warmup, o.repeats);
    if (!us)
        return us.error();
    return GemmTiming{s, *us};
}

Result<CopyTiming> timeCopy(Timer& timer, std::size_t bytes, const GemmMeasureOptions& o)
{
    DeviceMemory from, to;
    LIVE_CUDA(cudaMalloc(&from.p, bytes));
    LIVE_CUDA(cudaMalloc(&to.p, bytes));
    LIVE_KERNEL(kernels::fillNoiseBf16(from.p, bytes / 2, 3, timer.stream));
    auto launch = [&]() -> Status {
        LIVE_CUDA(cudaMemcpyAsync(to.p, from.p, bytes, cudaMemcpyDeviceToDevice, timer.stream));
        return {};
    };
    auto us = timer.median(launch, o.warmup, o.repeats);
    if (!us)
        return us.error();
    return CopyTiming{2.0 * static_cast<double>(bytes), *us};
}

} // namespace

Result<GemmMeasurement> gemmMeasurement(const std::vector<GemmShape>& shapes, const GemmMeasureOptions& o)
{
    LIVE_TRY(checkGemmShapes(shapes));
    if (o.warmup < 0 || o.repeats < 1)
        return badInput(Message("error.live.gemm_repeats").with("warmup", o.warmup).with("repeats", o.repeats));
    auto count = visibleGpuCount();
    if (!count)
        return count.error();
    if (o.device < 0 || o.device >= *count)
        return badInput(Message("error.live.no_such_gpu_of").with("device", o.device).with("count", *count));
    DeviceGuard guard;
    LIVE_CUDA(cudaSetDevice(o.device));
    cudaDeviceProp p{};
    LIVE_CUDA(cudaGetDeviceProperties(&p, o.device));
    GemmMeasurement out;
    out.device = p.name;
    out.multiprocessors = p.multiProcessorCount;

    // the timer (its stream) outlives the cuBLAS handle that uses it: declared first, destroyed last
    Timer timer;
    Cublas blas;
    LIVE_TRY(openCublas(blas));
    out.library = blas.version;
    LIVE_CUDA(cudaStreamCreateWithFlags(&timer.stream, cudaStreamNonBlocking));
    LIVE_CUDA(cudaEventCreate(&timer.start));
    LIVE_CUDA(cudaEventCreate(&timer.stop));
    if (const cublasStatus_t st = blas.setStream(blas.handle, timer.stream); st != CUBLAS_STATUS_SUCCESS)
        return cublasError(st, "cublasSetStream");

    for (size_t i = 0; i < shapes.size(); ++i) {
        const GemmShape& s = shapes[i];
        auto freeB = freeMemory();
        if (!freeB)
            return freeB.error();
        // half of what is free, so that cuBLAS's workspace and other programs keep room
        if (s.bytes() > static_cast<double>(*freeB) / 2) {
            out.tooLarge.push_back(s);
        } else {
            auto t = timeGemm(blas, timer, s, o);
            if (!t)
                return t.error();
            out.bf16.push_back(*t);
        }
        if (o.progress)
            o.progress(static_cast<int>(i) + 1, static_cast<int>(shapes.size()), s);
    }
    for (std::size_t mib : {64, 256, 1024}) {
        const std::size_t bytes = mib << 20;
        auto freeB = freeMemory();
        if (!freeB)
            return freeB.error();
        if (2 * bytes > *freeB / 2)
            continue;
        auto t = timeCopy(timer, bytes, o);
        if (!t)
            return t.error();
        out.copies.push_back(*t);
    }
    return out;
}

} // namespace shardlab::live
