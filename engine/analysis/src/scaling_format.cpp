// Text forms of a scaling curve: the CLI table and `shardlab scale --json`.
#include "shardlab/analysis/scaling_format.h"

#include "shardlab/analysis/collective_path.h"
#include "shardlab/base/display_width.h"
#include "shardlab/text/message.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iterator>
#include <sstream>

namespace shardlab {

namespace {

Message limitedBy(const ScalingPoint& p)
{
    const Message what = bottleneckMessage(p.bottleneck);
    if ((p.bottleneck == Bottleneck::Communication || p.bottleneck == Bottleneck::Wait) && !p.collective.empty()
        && p.linkKind) {
        char busbw[32];
        std::snprintf(busbw, sizeof busbw, "%.3g", p.busbwGBps);
        return Message("scale.table.limited_over")
            .with("bottleneck", what)
            .with("collective", p.collective)
            .with("link", linkShortMessage(*p.linkKind))
            .with("busbw", busbw);
    }
    return what;
}

} // namespace

std::string formatScalingTable(const ScalingCurve& c, Language language)
{
    std::ostringstream out;
    auto say = [language](const Message& m) { return render(m, language); };
    char buf[512];
    out << "# "
        << say(Message(
                   std::string(c.mode == ScalingMode::Strong ? "scale.table.title.strong" : "scale.table.title.weak")
                   + (c.baseGpus == 1 ? ".one" : ""))
                   .with("scenario", c.scenarioName)
                   .with("topology", c.topologyName)
                   .with("gpus", c.baseGpus))
        << "\n";
    out << "# "
        << say(Message(c.mode == ScalingMode::Strong ? "scale.table.formula.strong" : "scale.table.formula.weak"))
        << "\n";
    out << "# " << say(Message("scale.table.parts")) << "\n";
    const char* columns[] = {"scale.col.gpus",    "scale.col.nodes",      "scale.col.step",
                             "scale.col.speedup", "scale.col.efficiency", "scale.col.compute",
                             "scale.col.comm",    "scale.col.wait",       "scale.col.idle"};
    const std::size_t widths[] = {6, 5, 11, 9, 6, 11, 10, 10, 9};
    for (std::size_t i = 0; i < std::size(columns); ++i)
        out << (i ? " " : "") << rightAligned(say(Message(columns[i])), widths[i]);
    out << "  " << say(Message("scale.col.limited_by")) << "\n";
    for (const ScalingPoint& p : c.points) {
        std::snprintf(buf, sizeof buf, "%6d %5d %11.3f %8.2fx %6s %11.3f %10.3f %10.3f %9.3f  ", p.gpus, p.nodes,
                      p.stepTimeMs, p.speedup, formatPercent(p.efficiency).c_str(), p.computeMs, p.commMs, p.waitMs,
                      p.idleMs);
        out << buf << say(limitedBy(p)) << (p.fits ? "" : say(Message("scale.table.does_not_fit"))) << "\n";
    }
    if (!c.notes.empty()) {
        out << "\n" << say(Message("scale.table.notes")) << "\n";
        for (const ScalingNote& n : c.notes)
            out << "  * " << say(n.message()) << "\n";
    }
    if (!c.rescaleNotes.empty()) {
        out << "\n" << say(Message("scale.table.rescaled")) << "\n";
        // a curve whose notes have no Messages (made by hand) shows its English
        const bool worded = c.rescaleMessages.size() == c.rescaleNotes.size();
        for (size_t i = 0; i < c.rescaleNotes.size(); ++i)
            out << "  * " << (worded ? say(c.rescaleMessages[i]) : c.rescaleNotes[i]) << "\n";
    }
    return out.str();
}

std::string scalingJson(const ScalingCurve& c)
{
    using nlohmann::json;
    json doc = {{"mode", scalingModeName(c.mode)},
                {"scenario", c.scenarioName},
                {"topology", c.topologyName},
                {"base_gpus", c.baseGpus}};
    doc["points"] = json::array();
    for (const ScalingPoint& p : c.points) {
        json pt = {{"gpus", p.gpus},
                   {"nodes", p.nodes},
                   {"step_time_ms", p.stepTimeMs},
                   {"speedup", p.speedup},
                   {"efficiency", p.efficiency},
                   {"compute_ms", p.computeMs},
                   {"comm_ms", p.commMs},
                   {"wait_ms", p.waitMs},
                   {"idle_ms", p.idleMs},
                   {"max_compute_ms", p.maxComputeMs},
                   {"bottleneck", bottleneckName(p.bottleneck)},
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
        doc["notes"].push_back(
            {{"from_gpus", n.fromGpus}, {"to_gpus", n.toGpus}, {"kind", kind}, {"sentence", n.sentence}});
    }
    doc["rescale_notes"] = c.rescaleNotes;
    return doc.dump(2) + "\n";
}

} // namespace shardlab
