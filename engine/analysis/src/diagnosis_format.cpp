// Text forms of the diagnosis: `shardlab diagnose` and its --json.
#include "shardlab/analysis/diagnosis_format.h"

#include "shardlab/base/display_width.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace shardlab {

namespace {

// `text` right-aligned in `width` terminal columns (Chinese characters take two).
std::string findingsPadLeft(const std::string& text, size_t width)
{
    const size_t w = displayWidth(text);
    return w >= width ? text : std::string(width - w, ' ') + text;
}

} // namespace

std::string formatFindings(const std::vector<Finding>& findings, Language language)
{
    const auto say = [language](const char* id) { return render(Message(id), language); };
    std::ostringstream out;
    if (findings.empty()) {
        out << say("diagnosis.format.none") << "\n";
        return out.str();
    }
    char buf[256];
    for (const Finding& f : findings) {
        out << "[" << severityWord(f.severity, language) << "] " << f.title << "\n  " << f.sentence << "\n";
        out << "  " << say("diagnosis.format.checks") << "\n";
        for (const Check& c : f.checks)
            out << "    - " << c.what << (language == Language::Chinese ? "：" : ": ") << c.shows << "\n";
        out << "  " << say("diagnosis.format.evidence") << "\n";
        out << "    " << findingsPadLeft("rank", 4) << " " << fitToWidth(say("diagnosis.format.col.device"), 14) << " "
            << findingsPadLeft(say("diagnosis.format.col.compute"), 10) << " "
            << findingsPadLeft(say("diagnosis.format.col.comm"), 9) << " "
            << findingsPadLeft(say("diagnosis.format.col.wait"), 9) << " "
            << findingsPadLeft(say("diagnosis.format.col.last"), 5) << " "
            << findingsPadLeft(say("diagnosis.format.col.work"), 6) << " "
            << findingsPadLeft(say("diagnosis.format.col.slowdown"), 9) << " "
            << findingsPadLeft(say("diagnosis.format.col.socket"), 6) << "\n";
        for (const RankEvidence& e : f.ranks) {
            std::snprintf(buf, sizeof buf, "    %4d %s %10.3f %9.3f %9.3f %5d %5.0f%% %9.2f %6d", e.rank,
                          fitToWidth(e.device, 14).c_str(), e.computeMs, e.commMs, e.waitMs, e.timesLast,
                          e.workShare * 100, e.slowdown, e.socket);
            out << buf;
            if (f.rule == FindingRule::CollectiveHang)
                out << "  " << render(HangReport::lastCompletedMessage(e.lastCompleted), language)
                    << (language == Language::Chinese ? "，" : ", ") << e.state;
            out << "\n";
        }
        for (const CollectiveEvidence& c : f.collectives) {
            Message line(c.bottleneckLink.empty() ? "diagnosis.format.collective"
                                                  : "diagnosis.format.collective.limited");
            line.arg("name", c.name)
                .arg("bytes", formatBytes(c.bytes))
                .arg("ranks", c.ranks)
                .arg("ms", number("%.3f", c.timeMs))
                .arg("busbw", number("%.2f", c.busbwGBps))
                .arg("bound",
                     Message(c.latencyBound ? "diagnosis.format.latency_bound" : "diagnosis.format.bandwidth_bound"));
            if (!c.bottleneckLink.empty())
                line.arg("link", c.bottleneckLink);
            out << "    " << render(line, language) << "\n";
        }
        if (!f.scaling.empty()) {
            std::vector<Message> points;
            for (const ScalingPoint& p : f.scaling)
                points.push_back(
                    Message(p.gpus == 1 ? "diagnosis.format.scaling_point" : "diagnosis.format.scaling_point.plural")
                        .with("gpus", p.gpus)
                        .with("ms", number("%.3g", p.stepTimeMs))
                        .with("efficiency", formatPercent(p.efficiency)));
            out << "    " << say("diagnosis.format.scaling") << " " << render(listOf(std::move(points)), language)
                << "\n";
        }
        out << "\n";
    }
    return out.str();
}

std::string findingsJson(const std::vector<Finding>& findings)
{
    using nlohmann::json;
    json doc = json::array();
    for (const Finding& f : findings) {
        json j = {{"rule", findingRuleName(f.rule)},
                  {"severity", severityName(f.severity)},
                  {"title", f.title},
                  {"sentence", f.sentence},
                  {"evidence_needed", f.evidenceNeeded}};
        j["rank"] = f.rank ? json(*f.rank) : json(nullptr);
        j["checks"] = json::array();
        for (const Check& c : f.checks)
            j["checks"].push_back({{"what", c.what}, {"shows", c.shows}});
        j["ranks"] = json::array();
        for (const RankEvidence& e : f.ranks) {
            json r = {{"rank", e.rank},
                      {"device", e.device},
                      {"compute_ms", e.computeMs},
                      {"comm_ms", e.commMs},
                      {"wait_ms", e.waitMs},
                      {"times_last", e.timesLast},
                      {"work_share", e.workShare},
                      {"owned_bytes", e.owned},
                      {"slowdown", e.slowdown},
                      {"delay_ms", e.delayMs},
                      {"gpu_tflops", e.gpuTflops},
                      {"node", e.node},
                      {"socket", e.socket},
                      {"ring_in_gbps", e.ringInGBps},
                      {"ring_out_gbps", e.ringOutGBps}};
            if (f.rule == FindingRule::CollectiveHang) {
                r["last_completed"] = e.lastCompleted >= 0 ? nlohmann::json(e.lastCompleted) : nlohmann::json(nullptr);
                r["state"] = e.state;
            }
            j["ranks"].push_back(r);
        }
        j["collectives"] = json::array();
        for (const CollectiveEvidence& c : f.collectives)
            j["collectives"].push_back({{"name", c.name},
                                        {"kind", opName(c.kind)},
                                        {"bytes", c.bytes},
                                        {"ranks", c.ranks},
                                        {"time_ms", c.timeMs},
                                        {"algbw_gbps", c.algbwGBps},
                                        {"busbw_gbps", c.busbwGBps},
                                        {"bottleneck_link", c.bottleneckLink},
                                        {"link_kind", c.linkKind ? json(linkKindName(*c.linkKind)) : json(nullptr)},
                                        {"crossover_bytes", c.crossoverBytes},
                                        {"latency_bound", c.latencyBound}});
        j["scaling"] = json::array();
        for (const ScalingPoint& p : f.scaling)
            j["scaling"].push_back({{"gpus", p.gpus},
                                    {"step_time_ms", p.stepTimeMs},
                                    {"speedup", p.speedup},
                                    {"efficiency", p.efficiency},
                                    {"compute_ms", p.computeMs},
                                    {"comm_ms", p.commMs},
                                    {"wait_ms", p.waitMs}});
        doc.push_back(j);
    }
    return json{{"findings", doc}}.dump(2) + "\n";
}

} // namespace shardlab
