#include "shardlab/analysis/calibration_bounds.h"

#include "shardlab/sim/profiles.h"

#include <cstdio>
#include <string>

namespace shardlab {

namespace {

const char* const kProtocolKeys[] = {"LL", "LL128", "Simple"};
const char* const kLinkKeys[] = {"nvlink", "pcie", "cross-socket", "network"};

std::string number(double x)
{
    char b[32];
    std::snprintf(b, sizeof b, "%g", x);
    return b;
}

} // namespace

Status checkCalibratedProfile(const CostProfile& p, std::size_t samples)
{
    // the first value outside (lo, hi] (a share: above 0) or [lo, hi]; NaN is outside every range
    std::string path;
    double value = 0, lo = 0, hi = 0;
    auto within = [&](const std::string& at, double v, double from, double to, bool aboveFrom) {
        if (!path.empty() || ((aboveFrom ? v > from : v >= from) && v <= to))
            return;
        path = at;
        value = v;
        lo = from;
        hi = to;
    };
    within("$.launch_us", p.launchUs, 0, kMaxCalibratedLatencyUs, false);
    within("$.nvls_efficiency", p.nvlsEfficiency, 0, 1, true);
    for (size_t i = 0; i < p.protocol.size(); ++i) {
        const std::string at = std::string("$.protocols.") + kProtocolKeys[i];
        within(at + ".base_us", p.protocol[i].baseUs, 0, kMaxCalibratedLatencyUs, false);
        within(at + ".bandwidth_factor", p.protocol[i].bandwidthFactor, 0, 1, true);
    }
    for (size_t i = 0; i < p.link.size(); ++i) {
        const std::string at = std::string("$.links.") + kLinkKeys[i];
        within(at + ".efficiency", p.link[i].efficiency, 0, 1, true);
        for (size_t k = 0; k < p.link[i].hopUs.size(); ++k)
            within(at + ".hop_us[" + std::to_string(k) + "]", p.link[i].hopUs[k], 0, kMaxCalibratedHopUs, false);
    }
    for (const auto& [gpu, share] : p.computeEfficiency)
        within("$.compute_efficiency." + gpu, share, 0, 1, true);
    for (const auto& [key, points] : p.corrections)
        for (size_t k = 0; k < points.size(); ++k)
            within("$.corrections." + key.text() + "[" + std::to_string(k) + "].factor", points[k].factor,
                   kMinCorrectionFactor, kMaxCorrectionFactor, false);
    if (!path.empty())
        return badInput(Message("calibration.error.undetermined")
                            .with("path", path)
                            .with("value", number(value))
                            .with("lo", number(lo))
                            .with("hi", number(hi))
                            .with("samples", std::to_string(samples)));
    // and `--profile NAME` reads it back (the loader's own ranges)
    if (auto back = profileFromJson(profileToJson(p), "the calibrated profile"); !back)
        return back.error();
    return {};
}

} // namespace shardlab
