#include "shardlab/live/live_clock.h"

#include <algorithm>
#include <cmath>

namespace shardlab {

ClockFit fitClock(const std::vector<ClockSample>& samples, double resolutionNs)
{
    ClockFit best;
    double narrowest = 0;
    for (const ClockSample& s : samples) {
        const double w = s.bracketNs();
        if (w < 0)
            continue;
        if (!best.valid() || w < narrowest) {
            narrowest = w;
            best.gpuNs = s.gpuNs;
            best.hostNs = s.hostBeforeNs + w / 2;
            best.errorNs = w / 2 + std::max(0.0, resolutionNs);
        }
    }
    return best;
}

double timerResolutionNs(const std::vector<double>& readings)
{
    double tick = 0;
    for (size_t i = 1; i < readings.size(); ++i) {
        const double d = readings[i] - readings[i - 1];
        if (d > 0 && (tick == 0 || d < tick))
            tick = d;
    }
    return tick;
}

ClockMap::ClockMap(const ClockFit& first, const ClockFit& second) : m_a(first), m_b(second)
{
    if (!m_b.valid())
        m_b = m_a;
    if (!m_a.valid())
        m_a = m_b;
    const double dg = m_b.gpuNs - m_a.gpuNs;
    // Fits too close together say nothing about drift: keep a constant offset.
    if (m_a.valid() && std::abs(dg) > 1e6)
        m_rate = (m_b.hostNs - m_a.hostNs) / dg;
}

double ClockMap::toHostNs(double gpuNs) const { return m_a.hostNs + (gpuNs - m_a.gpuNs) * m_rate; }

double ClockMap::errorNs() const { return std::max(m_a.errorNs, m_b.errorNs); }

double ClockMap::driftPpm() const { return (m_rate - 1.0) * 1e6; }

} // namespace shardlab
