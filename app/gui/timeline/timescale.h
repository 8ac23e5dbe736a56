// Time <-> pixel maths and the vertical layout of the lanes, as plain values (no Qt), so that
// they can be unit-tested row by row (after hotspot's TimeLineData). Times are microseconds.
#pragma once

#include <string>
#include <vector>

namespace shardlab::gui {

// The visible window of a time axis mapped onto a pixel span.
struct TimeScale {
    double beginUs = 0;
    double endUs = 1;
    double leftPx = 0;
    double widthPx = 1;

    double usPerPixel() const;
    double toPixel(double us) const;
    double toTime(double px) const;
    // Wheel zoom: `factor` < 1 zooms in; the time under `anchorPx` stays under it.
    TimeScale zoomed(double factor, double anchorPx) const;
    // Drag: content follows the mouse, moving right by `deltaPx` shows earlier times.
    TimeScale panned(double deltaPx) const;
    // The whole of [beginUs, endUs] with `margin` (a share of the width) on both sides.
    static TimeScale fit(double beginUs, double endUs, double leftPx, double widthPx, double margin = 0.01);
};

// The unit a time axis shows its labels in, chosen from the visible span so that labels keep
// few digits: microseconds below 2 ms, milliseconds below 2 s, seconds above.
enum class TimeUnit { Microseconds, Milliseconds, Seconds };
TimeUnit unitForSpan(double spanUs);
double unitDivisor(TimeUnit unit);     // us per unit
const char* unitSymbol(TimeUnit unit); // "µs", "ms", "s" (UTF-8)
// "12.5 ms": the value in `unit` with as many decimals as `resolutionUs` (the smallest
// difference worth showing) needs, at most 6.
std::string formatTime(double us, TimeUnit unit, double resolutionUs);
// The same without the unit symbol (axis tick labels; the axis title carries the unit).
std::string formatTimeValue(double us, TimeUnit unit, double resolutionUs);
// Picks the unit from the magnitude of `us` itself (tooltips, durations).
std::string formatDuration(double us);

// Where each rank's bands sit on the value axis. Rank r owns the row [r - 0.5, r + 0.5]; rows
// grow downwards on screen (the axis is reversed). Inside a row: the main lane (compute stream),
// then, when present, a thin lane for the communication stream and one for the reference
// (simulated) run shown against a measured one.
enum class LaneBand { Main, CommStream, Reference };

struct BandExtent {
    double top = 0; // smaller value (higher on screen)
    double bottom = 0;
    double centre() const { return (top + bottom) / 2; }
};

struct LaneLayout {
    int ranks = 0;
    bool commStream = false;
    bool reference = false;

    BandExtent band(int rank, LaneBand band) const;
    bool hasBand(LaneBand band) const;
    // The rank and band at a value-axis coordinate; false between bands or outside the rows.
    bool hit(double value, int* rank, LaneBand* band) const;
    double valueMin() const { return -0.5; }
    double valueMax() const { return ranks - 0.5; }
};

} // namespace shardlab::gui
