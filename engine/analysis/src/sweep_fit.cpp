// Reading a sweep: the alpha-beta line through it, where latency gives way to bandwidth, and
// simulated against measured rows.
#include "shardlab/analysis/sweep_fit.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace shardlab {

AlphaBeta fitAlphaBeta(const std::vector<SweepRow>& rows)
{
    // Weighted least squares of T = a + b S with weights w = 1/T^2 (relative residuals):
    //   minimise sum w (a + b S - T)^2  =>  [sw  swS ] [a]   [swT ]
    //                                       [swS swSS] [b] = [swST]
    double sw = 0, sS = 0, sSS = 0, sT = 0, sST = 0;
    std::map<Bytes, int> distinct;
    for (const SweepRow& r : rows) {
        if (!(r.timeUs > 0))
            continue;
        const double w = 1.0 / (r.timeUs * r.timeUs);
        const double S = static_cast<double>(r.bytes);
        sw += w;
        sS += w * S;
        sSS += w * S * S;
        sT += w * r.timeUs;
        sST += w * S * r.timeUs;
        ++distinct[r.bytes];
    }
    AlphaBeta ab;
    const double det = sw * sSS - sS * sS;
    if (distinct.size() < 2 || !(std::fabs(det) > 0))
        return ab;
    const double a = (sT * sSS - sS * sST) / det;
    const double b = (sw * sST - sS * sT) / det; // microseconds per byte
    if (!(b > 0) || !std::isfinite(a))
        return ab;
    ab.alphaUs = a;
    ab.betaGBps = 1.0 / b / 1e3; // bytes per microsecond -> GB/s
    ab.valid = true;
    return ab;
}

int latencyBandwidthCrossover(const std::vector<SweepRow>& rows)
{
    const AlphaBeta ab = fitAlphaBeta(rows);
    if (!ab.valid)
        return -1;
    const double threshold = std::max(0.0, ab.crossoverBytes());
    for (size_t i = 0; i < rows.size(); ++i)
        if (static_cast<double>(rows[i].bytes) >= threshold)
            return static_cast<int>(i);
    return -1;
}

std::vector<SweepOverlayRow> overlaySweeps(const std::vector<SweepRow>& simulated,
                                           const std::vector<SweepRow>& measured)
{
    std::map<Bytes, SweepOverlayRow> bySize;
    for (const SweepRow& r : simulated) {
        SweepOverlayRow& o = bySize[r.bytes];
        o.bytes = r.bytes;
        o.simulated = r;
    }
    for (const SweepRow& r : measured) {
        SweepOverlayRow& o = bySize[r.bytes];
        o.bytes = r.bytes;
        o.measured = r;
    }
    std::vector<SweepOverlayRow> out;
    for (auto& [bytes, o] : bySize) {
        if (o.simulated && o.measured && o.measured->timeUs > 0)
            o.errorPct = (o.simulated->timeUs - o.measured->timeUs) / o.measured->timeUs * 100.0;
        out.push_back(o);
    }
    return out;
}

ErrorStats errorStats(const std::vector<double>& errorsPct)
{
    ErrorStats s;
    if (errorsPct.empty())
        return s;
    std::vector<double> abs;
    for (double e : errorsPct) {
        abs.push_back(std::fabs(e));
        s.meanPct += e / static_cast<double>(errorsPct.size());
    }
    std::sort(abs.begin(), abs.end());
    const size_t n = abs.size();
    s.count = static_cast<int>(n);
    s.medianAbsPct = n % 2 ? abs[n / 2] : (abs[n / 2 - 1] + abs[n / 2]) / 2;
    s.worstAbsPct = abs.back();
    return s;
}

} // namespace shardlab
