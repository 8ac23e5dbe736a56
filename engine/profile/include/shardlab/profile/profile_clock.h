// Putting a profiled job on one clock (docs/profiling.md, "Clocks"), with the live engine's and the
// multi-process runs' own maths (live_clock.h, clock_sync.h):
//  * GPU -> host, per rank: NCCL's proxy thread reports each kernel channel's start (GPU
//    globaltimer) after it happened, and NCCL started the collective's event before launching the
//    kernel. So the GPU reading lies between two host readings: the event's start and the moment
//    the plugin heard of the channel. That is live mode's bracket (ClockSample); the narrowest of
//    the first and of the second half of the run give a ClockMap that also follows drift.
//  * process -> process: processes on one host share CLOCK_MONOTONIC (offset 0, exact); processes
//    on other hosts are put on the reference host's clock through both hosts' CLOCK_REALTIME
//    (kept in step by NTP or PTP, whose error the profiler cannot measure: the run says so).
#pragma once

#include "shardlab/cluster/clock_sync.h"
#include "shardlab/live/live_clock.h"
#include "shardlab/profile/profile_reader.h"

#include <vector>

namespace shardlab {

// The brackets of one rank's kernel channels (host times in ns; GPU readings in ns after
// `gpuBase`, so that they keep their last digits as doubles).
std::vector<ClockSample> kernelBrackets(const std::vector<const ProfiledOp*>& ops, std::uint64_t gpuBase);
// The earliest GPU reading among `ops`' kernel channels (0 without one).
std::uint64_t earliestGpuReading(const std::vector<const ProfiledOp*>& ops);
inline double sinceBase(std::uint64_t gpuNs, std::uint64_t base)
{
    return static_cast<double>(static_cast<std::int64_t>(gpuNs - base));
}
// GPU timer -> this process's host clock; invalid without a kernel channel. Its errorNs() covers
// every bracket: half the wider of the two fits' brackets, or, where the map puts a reading outside
// its own bracket (a timer that jumped forward, drift that is not steady), the distance from there
// to that bracket's far end.
ClockMap gpuClockFromBrackets(std::vector<ClockSample> samples);

// `file`'s host clock -> `reference`'s, in microseconds (ProcessClockFit of clock_sync.h).
ProcessClockFit hostClockFit(const ProfileFile& file, const ProfileFile& reference);
bool sameHost(const ProfileFile& a, const ProfileFile& b);

} // namespace shardlab
