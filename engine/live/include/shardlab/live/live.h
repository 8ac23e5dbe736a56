// Live mode: runs a scenario on the GPUs of this machine with real CUDA kernels and NCCL
// collectives. No CUDA or NCCL header here: the implementation is a separate library,
// libshardlab_live.so, built when CMake finds CUDA and NCCL, and opened at the first call of any
// function below (the simulation app does not need CUDA to start). It is looked for in
// $SHARDLAB_LIVE_LIBRARY (a file), next to the executable, in ../lib and ../lib/shardlab beside
// it, in the build tree, then by the dynamic loader's search path. When it (or what it needs:
// libnccl.so.2, the NVIDIA driver) cannot be loaded, every call returns ErrorKind::BadInput with
// the reason ("live mode is not available here: ..."), and the CLI exits with status 2.
//
// How a scenario maps onto the machine (docs/live-engine.md has the details):
//   * rank i runs on CUDA device i, one process, one host thread driving every GPU; each rank
//     has a compute stream and a communication stream (overlapped collectives); one NCCL
//     communicator per distinct group of ranks;
//   * compute phases run a calibrated kernel for as long as the cost model says the scenario's GPU
//     takes for the rank's share of the work, times its slowdown and jitter; injected delays spin;
//   * collectives move float elements with the scenario's byte counts, scaled down (with a note)
//     when the buffers would not fit in LiveOptions::memoryFraction of free memory;
//   * times are GPU %globaltimer stamps at every phase boundary, mapped onto the host clock
//     (RunResult::clockNote gives the alignment error); a warm-up pass runs every collective once
//     first and verifies its result (CollectiveRecord::wrongElements);
//   * a watchdog aborts the communicators when a collective makes no progress for watchdogMs and
//     the result carries a HangReport; the process stays usable for the next run.
#pragma once

#include "shardlab/analysis/sweep.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/text/message.h"

#include <atomic>
#include <functional>
#include <string>

namespace shardlab {

// Whether this build contains live mode (the library was built alongside).
bool liveBuiltIn();
// What the live library reports of the machine it loaded on: the CUDA version the driver supports
// and NCCL's, as their APIs give them (13000 is CUDA 13.0, 22809 NCCL 2.28.9); 0: none found.
struct RuntimeVersions {
    int cudaDriver = 0;
    int nccl = 0;
};
// "driver for CUDA 13.0, NCCL 2.28.9 at run time" (error.piece.runtime*).
Message runtimeVersionsMessage(const RuntimeVersions& versions);

// "built in (CUDA 13.0, NCCL 2.28.9); loads here: yes (PATH; driver for CUDA 13.0, NCCL 2.28.9 at
// run time)" or why it is not built in or cannot load. Does not touch the GPUs.
Message liveBuildInfo();

struct LiveOptions {
    std::function<bool(int, int)> progress; // (iterations done, total); false cancels
    // Set: the timeline is handed over as each iteration completes, as the simulator's
    // iterationDone does: (the run so far, iterations done, total); false cancels. Later calls only
    // append, and the run returned at the end begins with the last run handed over (entry for
    // entry, the same doubles). For that, each iteration's GPU stamps are mapped onto the host
    // clock by the line through clock probes just before and just after it (a probe after every
    // iteration, about a millisecond, between iterations) instead of one line through probes
    // before and after the whole run. A rank part (live_rank.h) hands over its part so far.
    std::function<bool(const RunResult&, int, int)> iterationDone;
    const std::atomic<bool>* cancel = nullptr;
    double watchdogMs = 10000;    // a collective without progress for this long is aborted
    bool captureTimeline = true;  // false: only iteration times (no per-phase stamps)
    bool verify = true;           // check every collective's result in the warm-up pass
    double computeIntensity = 64; // FLOP per byte of the compute kernel (>= 2)
    double memoryFraction = 0.8;  // share of free device memory the collective buffers may take
    bool fitToMemory = true;      // scale collectives down to fit (false: try, and report what failed)
    // Processes sharing this process's GPU (`shardlab live --share-gpu N`): each plans its buffers
    // and scratch with 1/N of the GPU's free memory, so that N of them fit on the one card.
    int shareGpu = 1;
};

Result<RunResult> runLive(const Scenario& scenario, const LiveOptions& options = {});

// One size sweep of one collective on the first `gpus` GPUs, in nccl-tests' columns, timed as
// nccl-tests does: `iterations` back-to-back calls (after `warmup`) timed on the host from the
// first launch to the completion of the last, divided by `iterations`; that is repeated `batches`
// times and the median batch kept. Out of place, float, sum. #wrong counts the elements of the last
// call's output that differ from the exact expected result, over all ranks.
struct LiveBenchOptions {
    int warmup = 5;
    int iterations = 20;
    int batches = 5;
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
    std::string pciBusId;
    std::vector<int> peerAccess; // devices this one can read and write directly (CUDA peer access)
};
// The GPUs this process can see, or a message saying why none (no driver, no device).
Result<std::vector<LiveDevice>> liveDevices();

// This machine's GPUs and links, from NVML (the classes of `nvidia-smi topo -m`).
Result<Topology> discoverTopology();

// The FP32 rate the live compute kernel reaches on `device` at `intensity` FLOP/byte with the whole
// chip to itself (8 blocks of 256 threads per SM), in TFLOP/s (FLOP counted as 2 per fused
// multiply-add; median of five timed launches of ~20 ms). For calibrating the cost model's compute
// rates against this machine. (Live compute phases run the same kernel at one block per SM, so
// that NCCL's kernels find room beside them; their duration is calibrated, not their rate.)
Result<double> measureComputeTflops(int device, double intensity = 64);

// How well `device`'s timer maps onto the host clock: two fits `pauseMs` apart, then a third
// reading in between checked against the map. residualUs is that check's error; errorBoundUs the
// map's stated bound (what clockNote reports).
struct ClockCheck {
    double errorBoundUs = 0;
    double residualUs = 0;
    double driftPpm = 0;
    double resolutionNs = 0;
};
Result<ClockCheck> checkClockAlignment(int device, double pauseMs = 200);

} // namespace shardlab
