// Text forms of the diagnosis: `shardlab diagnose` and its --json.
#include "shardlab/analysis/diagnosis_format.h"

#include "shardlab/base/display_width.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace shardlab {

std::string formatFindings(const std::vector<Finding>& findings)
{
    std::ostringstream out;
    if (findings.empty()) {
        out << "No finding: the run scales, nobody is waited for, and every collective completes.\n";
        return out.str();
    }
    char buf[256];
    for (const Finding& f : findings) {
        out << "[" << severityName(f.severity) << "] " << f.title << "\n  " << f.sentence << "\n";
        out << "  What the handbook says to check first:\n";
        for (const Check& c : f.checks)
            out << "    - " << c.what << ": " << c.shows << "\n";
        out << "  Evidence:\n";
        std::snprintf(buf, sizeof buf, "    %4s %-14s %10s %9s %9s %5s %6s %9s %6s\n", "rank", "device", "compute ms", "comm ms",
                      "wait ms", "last", "work", "slowdown", "socket");
        out << buf;
        for (const RankEvidence& e : f.ranks) {
            std::snprintf(buf, sizeof buf, "    %4d %s %10.3f %9.3f %9.3f %5d %5.0f%% %9.2f %6d", e.rank, fitToWidth(e.device, 14).c_str(),
                          e.computeMs, e.commMs, e.waitMs, e.timesLast, e.workShare * 100, e.slowdown, e.socket);
            out << buf;
            if (f.rule == FindingRule::CollectiveHang)
                out << "  " << HangReport::lastCompletedText(e.lastCompleted) << ", " << e.state;
            out << "\n";
        }
        for (const CollectiveEvidence& c : f.collectives) {
            std::snprintf(buf, sizeof buf, "    %s, %s on %d ranks: %.3f ms, busbw %.2f GB/s, %s", c.name.c_str(),
                          formatBytes(c.bytes).c_str(), c.ranks, c.timeMs, c.busbwGBps,
                          c.latencyBound ? "latency-bound" : "bandwidth-bound");
            out << buf << (c.bottleneckLink.empty() ? "" : ", limited by " + c.bottleneckLink) << "\n";
        }
        if (!f.scaling.empty()) {
            out << "    scaling:";
            for (const ScalingPoint& p : f.scaling) {
                std::snprintf(buf, sizeof buf, " %d GPU%s %.3g ms (%.0f%%)", p.gpus, p.gpus == 1 ? "" : "s", p.stepTimeMs,
                              p.efficiency * 100);
                out << buf << (&p == &f.scaling.back() ? "" : ",");
            }
            out << "\n";
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
        json j = {{"rule", findingRuleName(f.rule)}, {"severity", severityName(f.severity)}, {"title", f.title},
                  {"sentence", f.sentence}, {"evidence_needed", f.evidenceNeeded}};
        j["rank"] = f.rank ? json(*f.rank) : json(nullptr);
        j["checks"] = json::array();
        for (const Check& c : f.checks)
            j["checks"].push_back({{"what", c.what}, {"shows", c.shows}});
        j["ranks"] = json::array();
        for (const RankEvidence& e : f.ranks) {
            json r = {{"rank", e.rank},           {"device", e.device},          {"compute_ms", e.computeMs},
                      {"comm_ms", e.commMs},      {"wait_ms", e.waitMs},         {"times_last", e.timesLast},
                      {"work_share", e.workShare}, {"owned_bytes", e.owned},     {"slowdown", e.slowdown},
                      {"delay_ms", e.delayMs},    {"gpu_tflops", e.gpuTflops},   {"node", e.node},
                      {"socket", e.socket},       {"ring_in_gbps", e.ringInGBps}, {"ring_out_gbps", e.ringOutGBps}};
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
            j["scaling"].push_back({{"gpus", p.gpus}, {"step_time_ms", p.stepTimeMs}, {"speedup", p.speedup},
                                    {"efficiency", p.efficiency}, {"compute_ms", p.computeMs}, {"comm_ms", p.commMs},
                                    {"wait_ms", p.waitMs}});
        doc.push_back(j);
    }
    return json{{"findings", doc}}.dump(2) + "\n";
}

} // namespace shardlab
