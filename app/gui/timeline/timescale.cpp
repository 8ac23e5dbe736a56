#include "timeline/timescale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace shardlab::gui {

double TimeScale::usPerPixel() const { return widthPx > 0 ? (endUs - beginUs) / widthPx : 0.0; }

double TimeScale::toPixel(double us) const
{
    const double span = endUs - beginUs;
    return span > 0 ? leftPx + (us - beginUs) / span * widthPx : leftPx;
}

double TimeScale::toTime(double px) const
{
    return widthPx > 0 ? beginUs + (px - leftPx) / widthPx * (endUs - beginUs) : beginUs;
}

TimeScale TimeScale::zoomed(double factor, double anchorPx) const
{
    const double anchor = toTime(anchorPx);
    TimeScale z = *this;
    z.beginUs = anchor - (anchor - beginUs) * factor;
    z.endUs = anchor + (endUs - anchor) * factor;
    return z;
}

TimeScale TimeScale::panned(double deltaPx) const
{
    const double shift = deltaPx * usPerPixel();
    TimeScale p = *this;
    p.beginUs -= shift;
    p.endUs -= shift;
    return p;
}

TimeScale TimeScale::fit(double beginUs, double endUs, double leftPx, double widthPx, double margin)
{
    double span = endUs - beginUs;
    if (!(span > 0))
        span = 1; // an empty run still gets a usable axis
    return {beginUs - span * margin, beginUs + span * (1 + margin), leftPx, widthPx};
}

TimeUnit unitForSpan(double spanUs)
{
    const double s = std::fabs(spanUs);
    if (s < 2e3)
        return TimeUnit::Microseconds;
    if (s < 2e6)
        return TimeUnit::Milliseconds;
    return TimeUnit::Seconds;
}

double unitDivisor(TimeUnit unit)
{
    switch (unit) {
    case TimeUnit::Microseconds: return 1;
    case TimeUnit::Milliseconds: return 1e3;
    case TimeUnit::Seconds: return 1e6;
    }
    return 1;
}

const char* unitSymbol(TimeUnit unit)
{
    switch (unit) {
    case TimeUnit::Microseconds: return "\xc2\xb5s";
    case TimeUnit::Milliseconds: return "ms";
    case TimeUnit::Seconds: return "s";
    }
    return "";
}

std::string formatTimeValue(double us, TimeUnit unit, double resolutionUs)
{
    const double div = unitDivisor(unit);
    // decimals enough to write a multiple of the resolution exactly: ticks 2.5 ms apart read 2.5,
    // 5.0, 7.5 (the logarithm alone gave 0 decimals: "2", "5", "8")
    int decimals = 0;
    if (resolutionUs > 0) {
        const double r = resolutionUs / div;
        decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(r) - 1e-9)), 0, 6);
        for (double scaled = r * std::pow(10.0, decimals);
             decimals < 6 && std::fabs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, scaled); scaled *= 10)
            ++decimals;
    }
    char buf[64];
    double v = us / div;
    if (std::fabs(v) < 0.5 * std::pow(10.0, -decimals))
        v = 0; // no "-0"
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string formatTime(double us, TimeUnit unit, double resolutionUs)
{
    return formatTimeValue(us, unit, resolutionUs) + " " + unitSymbol(unit);
}

std::string formatDuration(double us)
{
    const TimeUnit unit = unitForSpan(us);
    const double v = std::fabs(us) / unitDivisor(unit);
    // three significant digits
    const double resolution = unitDivisor(unit) * (v >= 100 ? 1 : v >= 10 ? 0.1 : 0.01);
    return formatTime(us, unit, resolution);
}

bool LaneLayout::hasBand(LaneBand b) const
{
    switch (b) {
    case LaneBand::Main: return true;
    case LaneBand::CommStream: return commStream;
    case LaneBand::Reference: return reference;
    }
    return false;
}

BandExtent LaneLayout::band(int rank, LaneBand b) const
{
    // Offsets inside a row, top to bottom; the main lane gets what the thin lanes leave.
    const double r = rank;
    const double top = -0.40, bottom = 0.40, gap = 0.04;
    const double comm = 0.14, ref = 0.26;
    double mainBottom = bottom;
    if (reference)
        mainBottom -= ref + gap;
    if (commStream)
        mainBottom -= comm + gap;
    switch (b) {
    case LaneBand::Main: return {r + top, r + mainBottom};
    case LaneBand::CommStream: return {r + mainBottom + gap, r + mainBottom + gap + comm};
    case LaneBand::Reference: return {r + bottom - ref, r + bottom};
    }
    return {};
}

bool LaneLayout::hit(double value, int* rank, LaneBand* b) const
{
    const int r = static_cast<int>(std::floor(value + 0.5));
    if (r < 0 || r >= ranks)
        return false;
    for (LaneBand candidate : {LaneBand::Main, LaneBand::CommStream, LaneBand::Reference}) {
        if (!hasBand(candidate))
            continue;
        const BandExtent e = band(r, candidate);
        if (value >= e.top && value <= e.bottom) {
            *rank = r;
            *b = candidate;
            return true;
        }
    }
    return false;
}

} // namespace shardlab::gui
