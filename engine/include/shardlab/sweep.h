// Message-size sweeps of one collective, in the columns of nccl-tests.
#pragma once

#include "shardlab/cost_model.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct SweepRow {
    Bytes bytes = 0;
    std::uint64_t count = 0; // elements of `type`
    std::string type = "float";
    double timeUs = 0;
    double algbwGBps = 0;
    double busbwGBps = 0;
    long wrong = 0;          // -1: not checked (simulation)
    Algorithm algorithm = Algorithm::Ring;
    Protocol protocol = Protocol::Simple;
};

// START, START*FACTOR, ... up to END inclusive. Sizes are parsed by parseBenchSize.
Result<std::vector<Bytes>> parseSizeRange(const std::string& spec);

// The size nccl-tests actually runs for a requested one: a whole number of float elements, per
// rank for the gathering and scattering collectives (at least one element). Simulated and live
// sweeps both use it, so their rows line up.
Bytes roundBenchSize(OpKind kind, Bytes bytes, int ranks);

std::vector<SweepRow> simulateSweep(CostModel& model, OpKind kind, int ranks, const std::vector<Bytes>& sizes);

// The table as nccl-tests prints it, with a header naming the collective, ranks and source.
std::string formatSweepTable(OpKind kind, int ranks, const std::vector<SweepRow>& rows, const std::string& title);
std::string sweepJson(OpKind kind, int ranks, const std::vector<SweepRow>& rows, const std::string& mode);

// The alpha-beta line through a sweep: T(S) = alpha + S / beta, fitted by least squares on the
// relative error (weights 1/T^2), so small and large sizes count alike. `valid` is false with
// fewer than two distinct sizes or when time does not grow with size.
struct AlphaBeta {
    double alphaUs = 0;   // latency: the time of an empty message
    double betaGBps = 0;  // bandwidth in the algbw sense (bytes / time)
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
std::vector<SweepOverlayRow> overlaySweeps(const std::vector<SweepRow>& simulated, const std::vector<SweepRow>& measured);

// Median and largest absolute error of a set of errors in %.
struct ErrorStats {
    int count = 0;
    double medianAbsPct = 0;
    double worstAbsPct = 0;
    double meanPct = 0;   // signed: > 0 when the model is slower than the measurement on average
};
ErrorStats errorStats(const std::vector<double>& errorsPct);

} // namespace shardlab
