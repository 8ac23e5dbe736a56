// The physical bounds of a calibrated cost profile (docs/analysis.md, "Calibration"): a fit of too
// few or inconsistent measurements can land anywhere (an NVLink efficiency of 21,012, an LL factor
// of 7,756); such a profile is refused before it is saved, so the profile of that name stays.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/sim/cost_model.h"

#include <cstddef>

namespace shardlab {

// The ranges (a share is at most 1: no link, protocol or GPU goes faster than its nominal rate).
inline constexpr double kMaxCalibratedLatencyUs = 10000; // launch, protocol base: 10 ms
inline constexpr double kMaxCalibratedHopUs = 1000;      // per algorithm step
inline constexpr double kMinCorrectionFactor = 0.1;      // measured / fitted at one size
inline constexpr double kMaxCorrectionFactor = 10;

// BadInput naming the first value out of its range by its key in the profile file: "calibration:
// $.links.nvlink.efficiency would be 21012 (expected 0 to 1); the measurements do not determine it
// (3 collective times): measure more sizes and rank counts; nothing was saved". `samples` is the
// number of collective times fitted. The profile must also read back as `--profile` reads it.
Status checkCalibratedProfile(const CostProfile& profile, std::size_t samples);

} // namespace shardlab
