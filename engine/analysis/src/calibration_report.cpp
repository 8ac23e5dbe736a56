// Text forms of a calibration: the accuracy table, `shardlab calibrate --json`, and reading the
// measurements back from `shardlab bench --json`.
#include "shardlab/analysis/calibration_report.h"
#include "shardlab/analysis/collective_path.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/base/display_width.h"
#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace shardlab {

std::string formatAccuracyTable(const CalibrationResult& r, Language language)
{
    auto say = [language](const Message& m) { return render(m, language); };
    std::ostringstream out;
    char buf[512];
    out << "# " << say(Message("calibration.table.title").with("topology", r.topologyName)) << "\n";
    out << "# " << say(Message("calibration.table.columns_explained")) << "\n";
    // column titles aligned by terminal columns (a Chinese character takes two)
    const char* columns[] = {"calibration.col.ranks",  "calibration.col.size",       "calibration.col.measured",
                             "calibration.col.before", "calibration.col.error",      "calibration.col.fitted",
                             "calibration.col.error",  "calibration.col.calibrated", "calibration.col.error"};
    const std::size_t widths[] = {5, 10, 12, 11, 7, 11, 7, 11, 7};
    out << leftAligned(say(Message("calibration.col.collective")), 15);
    for (std::size_t i = 0; i < std::size(columns); ++i)
        out << " " << rightAligned(say(Message(columns[i])), widths[i]);
    out << "\n";
    for (const AccuracyRow& a : r.rows) {
        std::snprintf(buf, sizeof buf, "%-15s %5d %10s %12.2f %11.2f %+7.1f %11.2f %+7.1f %11.2f %+7.1f\n",
                      opName(a.kind), a.ranks, formatBinaryBytes(a.bytes).c_str(), a.measuredUs, a.startUs,
                      a.startErrorPct, a.fittedUs, a.fittedErrorPct, a.calibratedUs, a.calibratedErrorPct);
        out << buf;
    }
    auto pct = [](double v) { return number("%.1f", v); };
    out << "\n"
        << say(Message("calibration.table.summary")
                   .with("samples", r.calibrated.count)
                   .with("median_before", pct(r.start.medianAbsPct))
                   .with("median_fitted", pct(r.fitted.medianAbsPct))
                   .with("median_calibrated", pct(r.calibrated.medianAbsPct))
                   .with("worst_before", pct(r.start.worstAbsPct))
                   .with("worst_fitted", pct(r.fitted.worstAbsPct))
                   .with("worst_calibrated", pct(r.calibrated.worstAbsPct)))
        << "\n";
    out << "\n"
        << say(Message("calibration.table.profile")
                   .with("profile", r.profile.name)
                   .with("launch", number("%g", r.profile.launchUs))
                   .with("base", number("%.2f", r.profile.protocol[0].baseUs) + "/"
                                     + number("%.2f", r.profile.protocol[1].baseUs) + "/"
                                     + number("%.2f", r.profile.protocol[2].baseUs))
                   .with("ll", number("%.3f", r.profile.protocol[0].bandwidthFactor))
                   .with("ll128", number("%.3f", r.profile.protocol[1].bandwidthFactor)))
        << "\n";
    for (const FittedLinkClass& c : r.classes) {
        const std::string hops = number("%.2f", c.params.hopUs[0]) + "/" + number("%.2f", c.params.hopUs[1]) + "/"
                                 + number("%.2f", c.params.hopUs[2]);
        out << "  " << leftAligned(say(linkShortMessage(c.kind)), 12) << " "
            << say(Message("calibration.table.link")
                       .with("efficiency", number("%.3f", c.params.efficiency))
                       .with("efficiency_fitted",
                             c.bandwidthFitted ? verbatim({}) : Message("calibration.table.not_fitted"))
                       .with("hops", hops)
                       .with("hops_fitted", c.latencyFitted ? verbatim({}) : Message("calibration.table.not_fitted")))
            << "\n";
    }
    for (const auto& [gpu, eff] : r.profile.computeEfficiency)
        out << "  " << say(Message("calibration.table.compute").with("gpu", gpu).with("ratio", number("%.2f", eff)))
            << "\n";
    if (!r.profile.corrections.empty()) {
        std::vector<Message> keys;
        for (const auto& [key, pts] : r.profile.corrections)
            keys.push_back(Message("calibration.table.correction")
                               .with("key", key.text())
                               .with("sizes", static_cast<int>(pts.size())));
        out << "  " << say(Message("calibration.table.corrections").with("list", listOf(std::move(keys)))) << "\n";
    }
    for (const Message& note : r.notes)
        out << say(Message("calibration.table.note").with("note", note)) << "\n";
    return out.str();
}

std::string calibrationJson(const CalibrationResult& r)
{
    using nlohmann::json;
    auto stats = [](const ErrorStats& s) {
        return json{{"count", s.count},
                    {"median_abs_pct", s.medianAbsPct},
                    {"worst_abs_pct", s.worstAbsPct},
                    {"mean_pct", s.meanPct}};
    };
    json doc = {{"profile", r.profile.name}, {"source", r.profile.source}, {"topology", r.topologyName}};
    doc["rows"] = json::array();
    for (const AccuracyRow& a : r.rows)
        doc["rows"].push_back({{"collective", opName(a.kind)},
                               {"ranks", a.ranks},
                               {"size", a.bytes},
                               {"measured_us", a.measuredUs},
                               {"before_us", a.startUs},
                               {"fitted_us", a.fittedUs},
                               {"calibrated_us", a.calibratedUs},
                               {"before_error_pct", a.startErrorPct},
                               {"fitted_error_pct", a.fittedErrorPct},
                               {"calibrated_error_pct", a.calibratedErrorPct}});
    doc["before"] = stats(r.start);
    doc["fitted"] = stats(r.fitted);
    doc["calibrated"] = stats(r.calibrated);
    doc["links"] = json::array();
    for (const FittedLinkClass& c : r.classes)
        doc["links"].push_back({{"kind", linkKindName(c.kind)},
                                {"efficiency", c.params.efficiency},
                                {"hop_us", c.params.hopUs},
                                {"latency_fitted", c.latencyFitted},
                                {"bandwidth_fitted", c.bandwidthFitted}});
    doc["compute_efficiency"] = r.profile.computeEfficiency;
    doc["notes"] = english(r.notes);
    return doc.dump(2) + "\n";
}

namespace {
// What a measured sweep may hold: the rank counts of `--gpus`, sizes up to 1 PB.
constexpr std::uint64_t kMaxSweepRanks = 65536;
constexpr std::uint64_t kMaxSweepBytes = 1000000000000000ull;
} // namespace

Result<std::vector<CalibrationSample>> samplesFromSweepJson(const std::string& text, const std::string& origin)
{
    using nlohmann::json;
    auto parsed = detail::parseJsonText(text, origin);
    if (!parsed)
        return parsed.error();
    json doc = std::move(parsed).value();
    if (!doc.is_object() || !doc.contains("collective") || !doc["collective"].is_string())
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$.collective")
                            .with("what", Message("error.json.missing")
                                              .with("expected", Message("calibration.expects.bench_output")
                                                                    .with("command", "shardlab bench --json"))));
    const auto kind = opFromName(doc["collective"].get<std::string>());
    if (!kind || *kind == OpKind::Compute)
        return badInput(
            Message("error.at")
                .with("origin", origin)
                .with("path", "$.collective")
                .with("what",
                      Message("error.says.not_collective").with("value", doc["collective"].get<std::string>())));
    if (!doc.contains("ranks") || !doc["ranks"].is_number_integer())
        return badInput(
            Message("error.at")
                .with("origin", origin)
                .with("path", "$.ranks")
                .with("what", Message("error.says.expected").with("expected", Message("calibration.expects.ranks"))));
    // read whole, then checked: 2^32 + 8 is not 8
    if (const json& ranks = doc["ranks"];
        !ranks.is_number_unsigned() || ranks.get<std::uint64_t>() < 2 || ranks.get<std::uint64_t>() > kMaxSweepRanks)
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$.ranks")
                            .with("what", Message("error.json.out_of_range")
                                              .with("value", ranks.dump())
                                              .with("expected", Message("error.expects.range")
                                                                    .with("lo", "2")
                                                                    .with("hi", std::to_string(kMaxSweepRanks)))));
    if (!doc.contains("rows") || !doc["rows"].is_array())
        return badInput(
            Message("error.at")
                .with("origin", origin)
                .with("path", "$.rows")
                .with("what", Message("error.says.expected").with("expected", Message("calibration.expects.rows"))));
    std::vector<CalibrationSample> out;
    for (size_t i = 0; i < doc["rows"].size(); ++i) {
        const json& row = doc["rows"][i];
        const std::string path = "$.rows[" + std::to_string(i) + "]";
        if (!row.is_object() || !row.contains("size") || !row["size"].is_number_unsigned())
            return badInput(
                Message("error.at")
                    .with("origin", origin)
                    .with("path", path + ".size")
                    .with("what",
                          Message("error.says.expected").with("expected", Message("calibration.expects.byte_count"))));
        if (row["size"].get<std::uint64_t>() > kMaxSweepBytes)
            return badInput(Message("error.at")
                                .with("origin", origin)
                                .with("path", path + ".size")
                                .with("what", Message("error.json.out_of_range")
                                                  .with("value", row["size"].dump())
                                                  .with("expected", Message("error.expects.range")
                                                                        .with("lo", "0")
                                                                        .with("hi", std::to_string(kMaxSweepBytes)))));
        if (!row.contains("time_us") || !row["time_us"].is_number() || !(row["time_us"].get<double>() > 0))
            return badInput(Message("error.at")
                                .with("origin", origin)
                                .with("path", path + ".time_us")
                                .with("what", Message("error.says.expected")
                                                  .with("expected", Message("calibration.expects.positive_time"))));
        if (row.contains("wrong") && row["wrong"].is_number() && row["wrong"].get<double>() > 0)
            return badInput(Message("error.at")
                                .with("origin", origin)
                                .with("path", path + ".wrong")
                                .with("what", Message("calibration.error.wrong_results")));
        out.push_back({*kind, doc["ranks"].get<int>(), row["size"].get<Bytes>(), row["time_us"].get<double>()});
    }
    return out;
}

Result<std::vector<CalibrationSample>> samplesFromSweepFiles(const std::vector<std::string>& paths)
{
    std::vector<CalibrationSample> all;
    for (const std::string& path : paths) {
        auto text = readUserFile(path, Message("error.file_kind.suffix").with("suffix", "`shardlab bench --json`"),
                                 kMaxRunFileBytes);
        if (!text)
            return text.error();
        auto samples = samplesFromSweepJson(*text, path);
        if (!samples)
            return samples.error();
        all.insert(all.end(), samples->begin(), samples->end());
    }
    return all;
}

} // namespace shardlab
