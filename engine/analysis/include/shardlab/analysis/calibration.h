// Calibration: fit a CostProfile to measured collective times (and compute rates) of one machine,
// and say how well it predicts them. docs/analysis.md ("Calibration") gives the method.
//
// 1. Decompose. For every measured sample (collective, ranks, size) the cost model is probed
//    with special profiles to split it into what the parameters multiply:
//      T_p = launch + base[p] + steps x hop[p][h] + steps x R + max_c(x_c / eff[c]) / bw[p]
//    where h is the slowest link class on the pattern (its per-step latency), R the longest
//    route's wire latency, and x_c the time the pattern's bytes take if only links of class c
//    limited them, at nominal bandwidth. The model's time is min over protocols p, as NCCL's
//    tuner takes the fastest.
// 2. Fit. base[p], hop[p][h] and eff[c] for the classes the samples exercise, and the LL and LL128
//    bandwidth factors (Simple's is 1: it and eff are not separable), minimise
//      sum over samples (ln T_model - ln T_measured)^2 + 0.01 x sum over parameters ln(v / v0)^2
//    (Nelder-Mead in log space, from the starting profile v0; the small prior keeps parameters
//    the samples cannot tell apart at their starting values). launch_us stays: only
//    launch + base[p] is observable.
// 3. Correct. What the parametric model still misses (NCCL's bandwidth ramp with size, collectives
//    that reach different shares of the link) becomes corrections["KIND/RANKS"]: the ratio
//    measured / fitted at each measured size, interpolated log-linearly in size by the cost model.
// 4. Compute: efficiency[GPU name] = measured FP32 TFLOP/s / the GPU's nominal TFLOP/s.
#pragma once

#include "shardlab/text/message.h"
#include "shardlab/analysis/collective_comparison.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/sim/cost_model.h"

#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace shardlab {

struct CalibrationSample {
    OpKind kind = OpKind::AllReduce;
    int ranks = 2;   // the first `ranks` GPUs of the topology
    Bytes bytes = 0; // nccl-tests size
    double measuredUs = 0;
};

struct CalibrationData {
    Topology topology; // the machine measured
    std::vector<CalibrationSample> samples;
    std::map<std::string, double> measuredTflops; // by GPU name: what measureComputeTflops reached
    std::string host;                             // for the profile's source line
};

struct CalibrationOptions {
    std::string name = "calibrated";
    bool corrections = true;                     // add per-collective corrections (step 3)
    CostProfile start = CostProfile::defaults(); // where the fit starts, and its prior
};

// One line of the accuracy table: a measurement and three predictions of it.
struct AccuracyRow {
    OpKind kind = OpKind::AllReduce;
    int ranks = 0;
    Bytes bytes = 0;
    double measuredUs = 0;
    double startUs = 0;                                                   // the starting (uncalibrated) profile
    double fittedUs = 0;                                                  // fitted parameters, no corrections
    double calibratedUs = 0;                                              // the calibrated profile as saved
    double startErrorPct = 0, fittedErrorPct = 0, calibratedErrorPct = 0; // (predicted - measured) / measured
};

struct FittedLinkClass {
    LinkKind kind = LinkKind::NvLink;
    bool latencyFitted = false;   // some sample's slowest class: hop_us fitted
    bool bandwidthFitted = false; // some sample's bytes crossed it: efficiency fitted
    LinkClassParams params;
};

struct CalibrationResult {
    CostProfile profile;
    std::string topologyName;
    std::vector<AccuracyRow> rows;
    ErrorStats start, fitted, calibrated;
    std::vector<FittedLinkClass> classes;
    std::vector<Message> notes; // samples left out and parameters not fitted, with why (calibration.inc)
};

Result<CalibrationResult> fitProfile(const CalibrationData& data, const CalibrationOptions& options = {});

// Predictions of two profiles for each sample on `topology` (the accuracy table without a fit):
// `before` fills startUs, `after` fittedUs and calibratedUs.
std::vector<AccuracyRow> predictSamples(const Topology& topology, const std::vector<CalibrationSample>& samples,
                                        const CostProfile& before, const CostProfile& after);
void computeErrors(std::vector<AccuracyRow>& rows);

} // namespace shardlab
