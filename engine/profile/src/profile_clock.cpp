#include "shardlab/profile/profile_clock.h"

#include <algorithm>

namespace shardlab {

std::vector<ClockSample> kernelBrackets(const std::vector<const ProfiledOp*>& ops, std::uint64_t gpuBase)
{
    std::vector<ClockSample> samples;
    for (const ProfiledOp* op : ops)
        for (const KernelChannel& ch : op->kernel)
            samples.push_back({op->hostNs, ch.hostSeenNs, sinceBase(ch.gpuStartNs, gpuBase)});
    return samples;
}

std::uint64_t earliestGpuReading(const std::vector<const ProfiledOp*>& ops)
{
    std::uint64_t base = 0;
    bool any = false;
    for (const ProfiledOp* op : ops)
        for (const KernelChannel& ch : op->kernel)
            if (!any || ch.gpuStartNs < base) {
                base = ch.gpuStartNs;
                any = true;
            }
    return base;
}

ClockMap gpuClockFromBrackets(std::vector<ClockSample> samples)
{
    if (samples.empty())
        return {};
    std::sort(samples.begin(), samples.end(),
              [](const ClockSample& a, const ClockSample& b) { return a.hostBeforeNs < b.hostBeforeNs; });
    // The timer's own tick is left out of the bound (docs/profiling.md): kernel starts are far apart,
    // so their differences say nothing about it, and Hopper's globaltimer ticks in tens of ns.
    const double tick = 0;
    const size_t half = samples.size() / 2;
    ClockFit a = fitClock(samples, tick), b = a;
    if (half > 0) {
        const std::vector<ClockSample> first(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(half));
        const std::vector<ClockSample> second(samples.begin() + static_cast<std::ptrdiff_t>(half), samples.end());
        a = fitClock(first, tick);
        b = fitClock(second, tick);
    }
    const ClockMap line(a, b);
    if (!line.valid())
        return line;
    // The bound covers every bracket, not only the two the line goes through: where the line puts
    // a reading outside its own bracket (a timer that jumped, drift that is not steady), the line is
    // shown to be off there by at least the distance to the bracket's near end, and the bound is the
    // line's own error plus that distance. Not the distance to the far end: a bracket can be wide
    // (ranks that share a GPU report a kernel's start only once their peers arrive, hundreds of ms
    // later), and a bound that wide would call every wait a tie (profile_build.cpp's tieUs).
    const double own = line.errorNs();
    double worst = own;
    for (const ClockSample& s : samples) {
        if (s.bracketNs() < 0) // ignored by the fit too
            continue;
        const double host = line.toHostNs(s.gpuNs);
        if (host < s.hostBeforeNs)
            worst = std::max(worst, own + (s.hostBeforeNs - host));
        else if (host > s.hostAfterNs)
            worst = std::max(worst, own + (host - s.hostAfterNs));
    }
    for (ClockFit* fit : {&a, &b})
        if (fit->valid())
            fit->errorNs = std::max(fit->errorNs, worst);
    return ClockMap(a, b);
}

bool sameHost(const ProfileFile& a, const ProfileFile& b) { return a.host == b.host; }

ProcessClockFit hostClockFit(const ProfileFile& file, const ProfileFile& reference)
{
    if (sameHost(file, reference))
        return exactClock(0);
    // monotonic - realtime on each host; the difference is this host's clock minus the reference's.
    const double offsetUs =
        ((file.startNs - reference.startNs) - static_cast<double>(file.startRealNs - reference.startRealNs)) / 1e3;
    ProcessClockFit fit;
    fit.before = {offsetUs, 0.0, (reference.startNs) / 1e3, 0};
    if (file.endNs && file.endRealNs && reference.endNs && reference.endRealNs) {
        const double after =
            ((*file.endNs - *reference.endNs) - static_cast<double>(*file.endRealNs - *reference.endRealNs)) / 1e3;
        fit.after = ClockOffset{after, 0.0, *reference.endNs / 1e3, 0};
    }
    return fit;
}

} // namespace shardlab
