// Measurements on this machine's GPUs for the analyses that can use them: the collective comparison
// (fillMeasuredTimes) and calibration (runCalibration) take these as hooks, so that the analysis
// code itself never calls live mode.
#pragma once

#include "shardlab/analysis/calibration_run.h"
#include "shardlab/analysis/collective_comparison.h"

namespace shardlab {

// benchLive with its default options: the measurement that the CLI and the GUI use.
SweepMeasure liveSweepMeasure();
// This machine's topology, sweeps and compute rates (live mode), and its host name.
CalibrationHooks liveCalibrationHooks();

} // namespace shardlab
