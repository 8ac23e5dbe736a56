// The live executor's side of a multi-process run (mpirun/srun, one process per GPU). These are
// the only calls the multi-process code (multi_process.h) makes into live mode. A build with live
// mode answers them from libshardlab_live.so (engine/live/gpu/rank_part.cpp: the single-process
// executor bound to one rank), through the loader like live.h; a build without live mode answers
// each with an explanation (live_rank_unavailable.cpp). docs/mpi.md ("Integration contract")
// repeats this contract with the reasons behind it.
#pragma once

#include "shardlab/cluster/cluster_topology.h"
#include "shardlab/cluster/job_monitor.h"
#include "shardlab/live/live.h"

#include <cstdint>
#include <vector>

namespace shardlab {

// NCCL's unique id size (NCCL_UNIQUE_ID_BYTES).
inline constexpr size_t kNcclUniqueIdBytes = 128;

// Rank 0 only: ncclGetUniqueId, returned as its 128 opaque bytes (ncclUniqueId::internal). The
// multi-process code broadcasts them unchanged to every process.
Result<std::vector<std::uint8_t>> createNcclUniqueId();

// How many GPUs this process sees (cudaGetDeviceCount, after CUDA_VISIBLE_DEVICES), or -1 when it
// cannot tell (no live mode, no driver). Used only to check the local rank -> device mapping.
int visibleCudaDevices();

// This process's GPU and links for the combined topology. A live build fills it from NVML
// (name, memory, FP32 TFLOP/s, HBM bandwidth, bus id, UUID, NUMA node, PCIe generation x width,
// NVLink peers by bus id or NVSwitch link count and per-link rate) and may start from
// probeTopologyFromSysfs for the host and NICs. A build without live mode uses the sysfs probe.
RankTopologyReport probeRankTopology(int device, const Environment& env);

// Runs THIS process's rank of `scenario` on CUDA device `device` and returns what it measured.
// Called in every process at the same point, after the launcher, device and unique id are
// settled and the clocks have been measured. It must:
//  1. cudaSetDevice(device); a device that does not exist is an Error naming `rank` and `device`.
//  2. Join the job's NCCL communicator: ncclCommInitRank(&world, scenario.ranks(), id, rank) with
//     `ncclUniqueId` (exactly kNcclUniqueIdBytes, copied into ncclUniqueId::internal). A step
//     whose group is not every rank runs on a communicator for that group, created by every
//     process in the same order (ncclCommSplit of the world communicator, NCCL_SPLIT_NOCOLOR
//     for ranks outside the group), as runLive creates them. Every process must plan the same
//     buffer sizes, so the ranks' free memory is exchanged over the world communicator first
//     (an all-gather), and every rank tells the others whether it could allocate its buffers
//     before the warm-up (so that one rank out of memory does not leave the others waiting).
//  3. Allocate this rank's owned shards and transient buffers and run scenario.iterations
//     iterations of the program for this rank only, with this rank's perturbations (slowdown,
//     jitter, delays, mismatches), exactly as runLive runs each rank; verify results when
//     options.verify.
//  4. Watch every collective against options.watchdogMs (poll cudaStreamQuery and
//     ncclCommGetAsyncError, never block in cudaStreamSynchronize); on expiry ncclCommAbort and
//     return a RunResult with `hang` set (not an Error), so that the other processes' reports of
//     the same hang meet it at rank 0. Honour options.cancel and options.progress.
//  5. Report progress as it happens: progress.collectiveCompleted(ordinal, label) each time it
//     sees a collective of this rank complete (ordinal counts all of this rank's collectives from
//     0; label a Message such as "all_reduce 'grads' (step 3, iteration 2)", live.collective.*),
//     progress.iterationCompleted(i) after each iteration, and progress.setActivity(a Message:
//     "in all_reduce 'grads' (step 3, iteration 2)", "computing step 2", live.activity.*) before
//     it waits on something. The heartbeat thread reads these to name the last completed
//     collective when a process dies or hangs, in the reader's language. Before it destroys its
//     communicator it calls progress.programEnded() (job_monitor.h).
//  6. Time everything in microseconds on processClockUs() (clock_sync.h), the clock whose offsets
//     rank 0 measured. (The executor stamps %globaltimer on the GPU and maps it onto that same
//     steady clock by its ping-pong probe before and after the run, as in a single-process run;
//     run.clockNote says within how much: "rank 1's GPU timer within 1.9 us of its process
//     clock ...", which rank 0 appends to its sentence on the processes' clocks.)
//  7. Return a RunResult in the rank-part form (trace_merge.h, RankPart):
//       mode = Live; ranks = scenario.ranks();
//       devices, peakMemory sized ranks() with entry [rank] filled (device name; owned bytes +
//       the largest transient buffer), other entries empty/0;
//       spans: only this rank's (compute on stream 0; collectives on stream 0, or 1 when the op
//       overlaps), each collective as ONE Comm span from this rank's arrival (the event recorded
//       just before the NCCL call on its stream) to the end it saw (the event just after), with
//       `collective` = the index of its record below;
//       collectives: one record per collective this rank took part in: op, iteration, bucket,
//       sequence (per communicator, from 0), kind, bytes (nccl-tests size), group (global ranks),
//       arrivalUs sized group.size() with this rank's arrival at its own index and NaN elsewhere,
//       startUs = that arrival, endUs = the end it saw, lastArrival = -1, algorithm and protocol
//       as runLive reports them, wrongElements = this rank's #wrong;
//       iterations: per iteration, [begin, end] as this rank saw it;
//       hang (if the watchdog fired): lastCompleted and pending sized ranks() with entry [rank]
//       filled (as runLive fills them), explanation in words.
//     rank 0 merges the parts (mergeRankParts): it splits each Comm span at the last arrival into
//     wait + comm, so the merged result is what runLive returns for the same run.
//  8. Return an Error only for failures that are not hangs (CUDA error, out of memory, a device
//     that does not exist); its message is printed by rank 0 prefixed with "rank N (host):".
// Teardown as in runLive (sync streams, ncclCommFinalize, ncclCommDestroy, destroy streams).
Result<RunResult> runLiveRankPart(const Scenario& scenario, int rank, int device,
                                  const std::vector<std::uint8_t>& ncclUniqueId, const LiveOptions& options,
                                  RankProgress& progress);

} // namespace shardlab
