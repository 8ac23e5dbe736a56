// The live library's one exported symbol: the table of live.h's functions (live_abi.h). Every
// entry catches exceptions, so that nothing thrown inside CUDA/NCCL code crosses into the app.
#include "compute_calibration.h"
#include "gemm_measure.h"
#include "gpu_clock.h"
#include "cuda_util.h"
#include "executor.h"
#include "shardlab/kernels.h"
#include "shardlab/live/live_abi.h"

#include <chrono>
#include <thread>

namespace shardlab::live {

Result<std::vector<SweepRow>> runBench(OpKind kind, int gpus, const std::vector<Bytes>& sizes,
                                       const LiveBenchOptions& o);
Result<Topology> machineTopology();
Result<std::vector<std::uint8_t>> uniqueIdBytes();
int cudaDeviceCount();
Result<RunResult> runRankPart(const Scenario& scenario, int rank, int device, const std::vector<std::uint8_t>& uniqueId,
                              const LiveOptions& options, RankProgress& progress);
RankTopologyReport rankTopology(int device, const Environment& env);

namespace {

// `what`: the id of what is being done ("error.live.task.run": "the live run"); an exception's own
// text is a value.
template <class T, class F>
Result<T> guarded(const char* what, F&& f)
{
    try {
        return f();
    } catch (const std::exception& e) {
        return runFailed(Message("error.live.task_failed").with("what", Message(what)).with("why", e.what()));
    } catch (...) {
        return runFailed(Message("error.live.task_threw").with("what", Message(what)));
    }
}

Result<double> computeTflops(int device, double intensity)
{
    auto count = visibleGpuCount();
    if (!count)
        return count.error();
    if (device < 0 || device >= *count)
        return badInput(Message("error.live.no_such_gpu_of").with("device", device).with("count", *count));
    DeviceGuard guard;
    LIVE_CUDA(cudaSetDevice(device));
    size_t freeB = 0, totalB = 0;
    LIVE_CUDA(cudaMemGetInfo(&freeB, &totalB));
    const std::size_t n = computeScratchCount(freeB);
    float* scratch = nullptr;
    cudaStream_t stream = nullptr;
    LIVE_CUDA(cudaMalloc(&scratch, n * sizeof(float)));
    struct Free {
        float* p;
        cudaStream_t& s;
        ~Free()
        {
            if (s)
                cudaStreamDestroy(s);
            cudaFree(p);
        }
    } release{scratch, stream};
    LIVE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    LIVE_KERNEL(kernels::fillConstant(scratch, n, 1.0f, stream));
    auto c = calibrateCompute(device, roundsForIntensity(std::max(2.0, intensity)), scratch, n, stream);
    if (!c)
        return c.error();
    const std::uint64_t items = c->itemsFor(20000);
    auto us = timeCompute(*c, items, scratch, n, stream, 5);
    if (!us)
        return us.error();
    // FLOP / us / 1e6 = TFLOP/s
    return static_cast<double>(items) * kernels::computeFlopPerItem(c->rounds) / *us / 1e6;
}

Result<ClockCheck> clockCheck(int device, double pauseMs)
{
    auto count = visibleGpuCount();
    if (!count)
        return count.error();
    if (device < 0 || device >= *count)
        return badInput(Message("error.live.no_such_gpu").with("device", device));
    DeviceGuard guard;
    LIVE_CUDA(cudaSetDevice(device));
    auto res = measureTimerResolution();
    if (!res)
        return res.error();
    auto a = probeClock(32, *res);
    if (!a)
        return a.error();
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(pauseMs / 2));
    auto mid = probeClock(32, *res);
    if (!mid)
        return mid.error();
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(pauseMs / 2));
    auto b = probeClock(32, *res);
    if (!b)
        return b.error();
    const ClockMap map(*a, *b);
    ClockCheck check;
    check.errorBoundUs = map.errorNs() / 1e3;
    check.residualUs = std::abs(map.toHostNs(mid->gpuNs) - mid->hostNs) / 1e3;
    check.driftPpm = map.driftPpm();
    check.resolutionNs = *res;
    return check;
}

const liveabi::Api kApi = [] {
    liveabi::Api api;
    api.layoutKey = liveabi::layoutKey();
    api.builtWith = SHARDLAB_LIVE_BUILT_WITH;
    api.runtimeVersions = [] {
        try {
            return runtimeVersions();
        } catch (...) {
            return RuntimeVersions{};
        }
    };
    api.runLive = [](const Scenario& s, const LiveOptions& o) {
        return guarded<RunResult>("error.live.task.run", [&] { return Executor(s, o).run(); });
    };
    api.benchLive = [](OpKind k, int g, const std::vector<Bytes>& sizes, const LiveBenchOptions& o) {
        return guarded<std::vector<SweepRow>>("error.live.task.sweep", [&] { return runBench(k, g, sizes, o); });
    };
    api.liveDevices = [] {
        return guarded<std::vector<LiveDevice>>("error.live.task.devices", [] { return listDevices(); });
    };
    api.discoverTopology = [] {
        return guarded<Topology>("error.live.task.topology", [] { return machineTopology(); });
    };
    api.measureComputeTflops = [](int d, double i) {
        return guarded<double>("error.live.task.compute", [&] { return computeTflops(d, i); });
    };
    api.measureGemms = [](const std::vector<GemmShape>& shapes, const GemmMeasureOptions& o) {
        return guarded<GemmMeasurement>("error.live.task.gemm", [&] { return gemmMeasurement(shapes, o); });
    };
    api.checkClockAlignment = [](int d, double p) {
        return guarded<ClockCheck>("error.live.task.clock", [&] { return clockCheck(d, p); });
    };
    api.createNcclUniqueId = [] {
        return guarded<std::vector<std::uint8_t>>("error.live.task.unique_id", [] { return uniqueIdBytes(); });
    };
    api.visibleCudaDevices = [] {
        try {
            return cudaDeviceCount();
        } catch (...) {
            return -1;
        }
    };
    api.probeRankTopology = [](int device, const Environment& env) {
        try {
            return rankTopology(device, env);
        } catch (const std::exception& e) {
            RankTopologyReport r = probeTopologyFromSysfs(device, env);
            r.notes.push_back(Message("error.piece.nvml_probe_failed").with("why", std::string(e.what())));
            return r;
        }
    };
    api.runLiveRankPart = [](const Scenario& s, int rank, int device, const std::vector<std::uint8_t>& id,
                             const LiveOptions& o, RankProgress& p) {
        return guarded<RunResult>("error.live.task.rank_part", [&] { return runRankPart(s, rank, device, id, o, p); });
    };
    return api;
}();

} // namespace
} // namespace shardlab::live

extern "C" __attribute__((visibility("default"))) const shardlab::liveabi::Api* shardlab_live_api_v1()
{
    shardlab::live::prepareNcclEnvironment();
    return &shardlab::live::kApi;
}
