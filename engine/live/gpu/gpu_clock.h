// Aligning each GPU's %globaltimer with the host clock (the maths is in shardlab/live_clock.h).
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/live/live_clock.h"

namespace shardlab::live {

// The GPU timer's tick on the current device, in nanoseconds.
Result<double> measureTimerResolution();

// Plays `rounds` rounds of ping-pong with a probe kernel on the current device and returns the
// best-bracketed pairing of GPU and host time. The device must be otherwise idle enough for a
// one-thread kernel to start within a second.
Result<ClockFit> probeClock(int rounds, double resolutionNs);

} // namespace shardlab::live
