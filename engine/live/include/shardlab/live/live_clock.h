// Putting GPU timestamps on the host's clock: the maths of live mode's clock alignment (no CUDA
// here, so that it is tested on any machine; docs/live-engine.md describes the method).
//
// Each GPU stamps its timeline with %globaltimer (nanoseconds). A probe kernel reads that timer
// while the host brackets the reading between two reads of its own clock (ClockSample). The
// narrowest bracket of a series gives the best pairing: the GPU reading happened somewhere inside
// it, so taking its midpoint errs by at most half its width, plus the timer's resolution
// (ClockFit). Two fits, one before and one after a run, give a linear map that also absorbs the
// drift between the two clocks (ClockMap).
#pragma once

#include <vector>

namespace shardlab {

struct ClockSample {
    double hostBeforeNs = 0; // host clock just before the host raised the probe's flag
    double hostAfterNs = 0;  // host clock just after it saw the probe's answer
    double gpuNs = 0;        // what the GPU's timer read in between
    double bracketNs() const { return hostAfterNs - hostBeforeNs; }
};

struct ClockFit {
    double gpuNs = 0;    // this GPU reading ...
    double hostNs = 0;   // ... happened at this host time ...
    double errorNs = -1; // ... give or take this much (negative: no usable sample)
    bool valid() const { return errorNs >= 0; }
};

// The sample with the narrowest bracket: host time = bracket midpoint, error = half the bracket
// plus `resolutionNs` (the GPU timer's tick). Samples with a negative bracket are ignored.
ClockFit fitClock(const std::vector<ClockSample>& samples, double resolutionNs);

// The GPU timer's tick: the smallest positive difference between consecutive readings (0 if none).
double timerResolutionNs(const std::vector<double>& readings);

// GPU timer -> host clock. With one fit, a constant offset; with two, a straight line through both
// (the drift between the clocks is corrected); between the fits its error is at most the larger of
// the two fits' errors, provided the drift is steady.
class ClockMap {
public:
    ClockMap() = default;
    explicit ClockMap(const ClockFit& fit) : m_a(fit), m_b(fit) {}
    ClockMap(const ClockFit& first, const ClockFit& second);

    double toHostNs(double gpuNs) const;
    double errorNs() const;
    double driftPpm() const; // (host rate / GPU rate - 1) * 1e6
    bool valid() const { return m_a.valid(); }

private:
    ClockFit m_a, m_b;
    double m_rate = 1.0;
};

} // namespace shardlab
