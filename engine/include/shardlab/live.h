// Live mode: runs a scenario on the GPUs of this machine with real CUDA kernels and NCCL
// collectives. The implementation lives behind this header (no CUDA or NCCL header here) and is
// compiled only when the build found CUDA and NCCL; otherwise every call explains that.
#pragma once

#include "shardlab/run_result.h"
#include "shardlab/scenario.h"
#include "shardlab/sweep.h"

#include <atomic>
#include <functional>
#include <string>

namespace shardlab {

// Whether this build contains live mode.
bool liveBuiltIn();
// "built in (CUDA 13.0, NCCL 2.28.9)" or why it is not.
std::string liveBuildInfo();

struct LiveOptions {
    std::function<bool(int, int)> progress; // (iterations done, total); false cancels
    const std::atomic<bool>* cancel = nullptr;
    double watchdogMs = 10000;              // a collective that takes longer is aborted
    bool captureTimeline = true;
    bool verify = true;
};

Result<RunResult> runLive(const Scenario& scenario, const LiveOptions& options = {});

// One size sweep of one collective on the first `gpus` GPUs, in nccl-tests' columns (time is the
// median of `iterations` timed runs after `warmup`, out of place; #wrong from the verify kernels).
struct LiveBenchOptions {
    int warmup = 5;
    int iterations = 20;
    bool verify = true;
    double watchdogMs = 10000;
    std::function<bool(int, int)> progress; // (sizes done, total); false cancels
    const std::atomic<bool>* cancel = nullptr;
};
Result<std::vector<SweepRow>> benchLive(OpKind kind, int gpus, const std::vector<Bytes>& sizes,
                                        const LiveBenchOptions& options = {});

struct LiveDevice {
    int index = 0;
    std::string name;
    Bytes memory = 0;
    Bytes freeMemory = 0;
    int multiprocessors = 0;
    int computeMajor = 0, computeMinor = 0;
};
// The GPUs this process can see, or a message saying why none (no driver, no device).
Result<std::vector<LiveDevice>> liveDevices();

// The FP32 rate a compute-bound kernel (chains of fused multiply-adds) reaches on `device`, in
// TFLOP/s; calibration divides it by the GPU's nominal rate to get its compute efficiency.
Result<double> measureComputeTflops(int device);

// This machine's GPUs and links, from NVML (the classes of `nvidia-smi topo -m`).
Result<Topology> discoverTopology();

} // namespace shardlab
