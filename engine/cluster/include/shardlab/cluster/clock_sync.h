// Putting the processes of a multi-process run on one clock: rank 0's. Each process measures its
// timeline on its own clock (processClockUs); rank 0 measures every other process's offset by
// ping-pong exchanges before and after the run (Cristian's method, as NTP does), and the merge
// moves each process's times onto rank 0's clock. docs/mpi.md ("Clocks") derives the error bound.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/cluster/transport.h"
#include "shardlab/model/run_result.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

// Microseconds on this process's monotonic clock (CLOCK_MONOTONIC via std::chrono::steady_clock).
// Every time in a rank's part of a live run is on this clock.
double processClockUs();
using Clock = std::function<double()>;

// One exchange, seen from rank 0: it sent at `sendUs` (its clock), the peer stamped `remoteUs`
// (the peer's clock) when the ping arrived, and rank 0 got the answer at `receiveUs`.
struct PingSample {
    double sendUs = 0;
    double remoteUs = 0;
    double receiveUs = 0;
    double roundTripUs() const { return receiveUs - sendUs; }
};

// The peer's clock minus rank 0's, at root time `atUs`.
struct ClockOffset {
    double offsetUs = 0;
    double errorUs = 0; // |estimate - true offset| <= errorUs
    double atUs = 0;    // rank 0's clock at the middle of the exchange used
    int samples = 0;
};

// From the exchange with the smallest round trip (the one least disturbed by queueing):
//   offset = remote - (send + receive) / 2,  error <= roundTrip / 2
// (the peer's stamp was taken between send and receive; with one-way delays f and b,
// estimate - truth = (f - b) / 2, and |f - b| <= f + b = roundTrip). Errors when there is no
// sample or a round trip is negative (the clock went backwards).
Result<ClockOffset> estimateOffset(const std::vector<PingSample>& samples);

// How one process's clock maps to rank 0's: the offset measured before the run and, where
// measured, after it. With both, the offset is interpolated linearly in time (it follows a
// constant drift between the two clocks); the error is then the larger of the two bounds.
struct ProcessClockFit {
    ClockOffset before;
    std::optional<ClockOffset> after;
    // rank 0's time for a time on this process's clock
    double toRoot(double localUs) const;
    double errorUs() const;
    // Drift between the clocks in parts per million (0 without a second measurement).
    double driftPpm() const;
};
ProcessClockFit exactClock(double offsetUs); // a known offset (rank 0: 0), no error

// Moves every time in `run` (spans, collective arrivals/start/end, iteration marks) onto rank 0's clock.
void applyClockFit(RunResult& run, const ProcessClockFit& fit);

// Rank 0 exchanges `rounds` pings with each other rank in turn and returns every rank's offset
// (rank 0's own: exactly 0). The other ranks answer rank 0's pings and return an empty vector.
// Every rank must call it; each waits at most until `deadline`.
Result<std::vector<ClockOffset>> measureClockOffsets(Transport& transport, const Clock& clock, int rounds,
                                                     Deadline deadline);

// The sentence a run states about its clocks: "clocks of 4 processes aligned to rank 0 by
// 32 MPI ping-pongs each, before and after the run; residual error <= 3.1 us (rank 2), drift
// <= 0.8 ppm".
std::string clockNote(const std::vector<ProcessClockFit>& fits, int rounds, const std::string& transport);
// The same as data (live.inc), to be worded in the user's language; clockNote() is its English.
Message clockMessage(const std::vector<ProcessClockFit>& fits, int rounds, const std::string& transport);

// A fit that keeps only the offset measured before the run, held through it (a streamed run's:
// what was sent during the run must not move when the second measurement comes).
ProcessClockFit heldBefore(const ProcessClockFit& fit);
// How far off a held offset can be anywhere in the run: the true offset moves steadily from its
// value at the first measurement to its value at the second, so it stays within
//   |after - before| + after.error + before.error
// of the first estimate's true value, which is itself within before.error of the estimate:
//   bound = |after - before| + after.error + 2 before.error   (before.error without a second).
double heldErrorUs(const ProcessClockFit& fit);
// The note of a run whose offsets were held: "clocks of 4 processes aligned to rank 0's by 32
// ping-pongs each over Open MPI v4.1.4 before the run and held through it (it was streamed as it
// happened); measured again after it, they had moved by <= 2.1 us: error <= 3.4 us (rank 2)".
std::string heldClockNote(const std::vector<ProcessClockFit>& fits, int rounds, const std::string& transport);
// The same as data (live.inc); heldClockNote() is its English.
Message heldClockMessage(const std::vector<ProcessClockFit>& fits, int rounds, const std::string& transport);

} // namespace shardlab
