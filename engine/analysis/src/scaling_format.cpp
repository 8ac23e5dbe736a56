// Text forms of a scaling curve: the CLI table and `shardlab scale --json`.
#include "shardlab/analysis/scaling_format.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace shardlab {

namespace {

std::string limitedBy(const ScalingPoint& p)
{
    std::string text = bottleneckName(p.bottleneck);
    if ((p.bottleneck == Bottleneck::Communication || p.bottleneck == Bottleneck::Wait) && !p.collective.empty()
        && p.linkKind) {
        char buf[160];
        std::snprintf(buf, sizeof buf, ": %s over %s, busbw %.3g GB/s", p.collective.c_str(), linkKindName(*p.linkKind),
                      p.busbwGBps);
        text += buf;
    }
    return text;
}

} // namespace

std::string formatScalingTable(const ScalingCurve& c)
{
    std::ostringstream out;
    char buf[512];
    out << "# " << (c.mode == ScalingMode::Strong ? "Strong" : "Weak") << " scaling of \"" << c.scenarioName << "\" on "
        << c.topologyName << " (scenario written for " << c.baseGpus << " GPU" << (c.baseGpus == 1 ? "" : "s") << ")\n";
    out << (c.mode == ScalingMode::Strong ? "# the same total work on n GPUs: speed-up = T(1) / T(n), efficiency = speed-up / n\n"
                                          : "# the same work per GPU on n GPUs: efficiency = T(1) / T(n), speed-up = n x efficiency\n");
    out << "# compute, comm, wait and idle: per rank and step, averaged over ranks; they add up to the step time\n";
    std::snprintf(buf, sizeof buf, "%6s %5s %11s %9s %6s %11s %10s %10s %9s  %s\n", "gpus", "nodes", "step ms", "speed-up",
                  "eff %", "compute ms", "comm ms", "wait ms", "idle ms", "limited by");
    out << buf;
    for (const ScalingPoint& p : c.points) {
        std::snprintf(buf, sizeof buf, "%6d %5d %11.3f %8.2fx %6.0f %11.3f %10.3f %10.3f %9.3f  %s%s\n", p.gpus, p.nodes,
                      p.stepTimeMs, p.speedup, p.efficiency * 100, p.computeMs, p.commMs, p.waitMs, p.idleMs,
                      limitedBy(p).c_str(), p.fits ? "" : " (does not fit)");
        out << buf;
    }
    if (!c.notes.empty()) {
        out << "\nWhat changes along the curve:\n";
        for (const ScalingNote& n : c.notes)
            out << "  * " << n.sentence << "\n";
    }
    if (!c.rescaleNotes.empty()) {
        out << "\nHow the scenario was rescaled:\n";
        for (const std::string& n : c.rescaleNotes)
            out << "  * " << n << "\n";
    }
    return out.str();
}

std::string scalingJson(const ScalingCurve& c)
{
    using nlohmann::json;
    json doc = {{"mode", scalingModeName(c.mode)}, {"scenario", c.scenarioName}, {"topology", c.topologyName},
                {"base_gpus", c.baseGpus}};
    doc["points"] = json::array();
    for (const ScalingPoint& p : c.points) {
        json pt = {{"gpus", p.gpus},           {"nodes", p.nodes},           {"step_time_ms", p.stepTimeMs},
                   {"speedup", p.speedup},     {"efficiency", p.efficiency}, {"compute_ms", p.computeMs},
                   {"comm_ms", p.commMs},      {"wait_ms", p.waitMs},        {"idle_ms", p.idleMs},
                   {"max_compute_ms", p.maxComputeMs}, {"bottleneck", bottleneckName(p.bottleneck)},
                   {"fits", p.fits}};
        if (p.collective.empty())
            pt["collective"] = nullptr;
        else
            pt["collective"] = {{"name", p.collective},
                                {"kind", opName(p.collectiveKind)},
                                {"bytes", p.collectiveBytes},
                                {"time_ms", p.collectiveMs},
                                {"busbw_gbps", p.busbwGBps},
                                {"algorithm", algorithmName(p.algorithm)},
                                {"link_kind", p.linkKind ? json(linkKindName(*p.linkKind)) : json(nullptr)},
                                {"link", p.linkText},
                                {"pattern_gbps", p.patternGBps}};
        doc["points"].push_back(pt);
    }
    doc["notes"] = json::array();
    for (const ScalingNote& n : c.notes) {
        const char* kind = n.kind == ScalingNote::Kind::Slower             ? "slower"
                           : n.kind == ScalingNote::Kind::CrossesLink      ? "crosses_link"
                           : n.kind == ScalingNote::Kind::NetworkTakesOver ? "network_takes_over"
                                                                           : "efficiency_drop";
        doc["notes"].push_back({{"from_gpus", n.fromGpus}, {"to_gpus", n.toGpus}, {"kind", kind}, {"sentence", n.sentence}});
    }
    doc["rescale_notes"] = c.rescaleNotes;
    return doc.dump(2) + "\n";
}

} // namespace shardlab
