// What a sweep says beyond its rows: the alpha-beta line and the latency/bandwidth crossover,
// simulated and measured rows side by side, and error statistics.
#pragma once

#include "shardlab/analysis/sweep.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

// The alpha-beta line through a sweep: T(S) = alpha + S / beta, fitted by least squares on the
// relative error (weights 1/T^2), so small and large sizes count alike. `valid` is false with
// fewer than two distinct sizes or when time does not grow with size.
struct AlphaBeta {
    double alphaUs = 0;  // latency: the time of an empty message
    double betaGBps = 0; // bandwidth in the algbw sense (bytes / time)
    bool valid = false;
    // S* = alpha x beta: the size whose bandwidth term equals the latency term
    double crossoverBytes() const { return alphaUs * 1e-6 * betaGBps * 1e9; }
};
AlphaBeta fitAlphaBeta(const std::vector<SweepRow>& rows);

// The row from which bandwidth, not latency, dominates: the first row whose size reaches the
// fitted alpha x beta (where S / beta = alpha, so the time is twice the latency). 0 when every row
// is already bandwidth-bound, -1 when none is (or the fit fails).
int latencyBandwidthCrossover(const std::vector<SweepRow>& rows);

// Simulated and measured rows of one collective side by side, matched by size.
struct SweepOverlayRow {
    Bytes bytes = 0;
    std::optional<SweepRow> simulated;
    std::optional<SweepRow> measured;
    std::optional<double> errorPct; // (simulated - measured) / measured x 100, where both exist
};
std::vector<SweepOverlayRow> overlaySweeps(const std::vector<SweepRow>& simulated,
                                           const std::vector<SweepRow>& measured);

// Median and largest absolute error of a set of errors in %.
struct ErrorStats {
    int count = 0;
    double medianAbsPct = 0;
    double worstAbsPct = 0;
    double meanPct = 0; // signed: > 0 when the model is slower than the measurement on average
};
ErrorStats errorStats(const std::vector<double>& errorsPct);

} // namespace shardlab
