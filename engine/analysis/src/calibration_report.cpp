// Text forms of a calibration: the accuracy table, `shardlab calibrate --json`, and reading the
// measurements back from `shardlab bench --json`.
#include "shardlab/analysis/calibration_report.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace shardlab {

std::string formatAccuracyTable(const CalibrationResult& r)
{
    std::ostringstream out;
    char buf[512];
    out << "# Calibration on " << r.topologyName << ": predicted against measured, error = (predicted - measured) / measured\n";
    out << "# 'before' is the starting profile; 'fitted' the fitted link and protocol parameters alone; 'calibrated' adds\n"
           "# the per-collective corrections (the profile as saved)\n";
    std::snprintf(buf, sizeof buf, "%-15s %5s %10s %12s %11s %7s %11s %7s %11s %7s\n", "collective", "ranks", "size",
                  "measured us", "before us", "err %", "fitted us", "err %", "calibr. us", "err %");
    out << buf;
    for (const AccuracyRow& a : r.rows) {
        std::snprintf(buf, sizeof buf, "%-15s %5d %10s %12.2f %11.2f %+7.1f %11.2f %+7.1f %11.2f %+7.1f\n", opName(a.kind),
                      a.ranks, formatBinaryBytes(a.bytes).c_str(), a.measuredUs, a.startUs, a.startErrorPct, a.fittedUs,
                      a.fittedErrorPct, a.calibratedUs, a.calibratedErrorPct);
        out << buf;
    }
    std::snprintf(buf, sizeof buf,
                  "\n|error| over %d samples: median %.1f%% before, %.1f%% fitted, %.1f%% calibrated; worst %.1f%%, %.1f%%, "
                  "%.1f%%\n",
                  r.calibrated.count, r.start.medianAbsPct, r.fitted.medianAbsPct, r.calibrated.medianAbsPct,
                  r.start.worstAbsPct, r.fitted.worstAbsPct, r.calibrated.worstAbsPct);
    out << buf;
    out << "\nProfile '" << r.profile.name << "': launch " << r.profile.launchUs << " us; base LL/LL128/Simple ";
    std::snprintf(buf, sizeof buf, "%.2f/%.2f/%.2f us; bandwidth factor LL %.3f, LL128 %.3f\n", r.profile.protocol[0].baseUs,
                  r.profile.protocol[1].baseUs, r.profile.protocol[2].baseUs, r.profile.protocol[0].bandwidthFactor,
                  r.profile.protocol[1].bandwidthFactor);
    out << buf;
    for (const FittedLinkClass& c : r.classes) {
        std::snprintf(buf, sizeof buf, "  %-12s efficiency %.3f%s, per-step latency LL/LL128/Simple %.2f/%.2f/%.2f us%s\n",
                      linkKindName(c.kind), c.params.efficiency, c.bandwidthFitted ? "" : " (not fitted)",
                      c.params.hopUs[0], c.params.hopUs[1], c.params.hopUs[2], c.latencyFitted ? "" : " (not fitted)");
        out << buf;
    }
    for (const auto& [gpu, eff] : r.profile.computeEfficiency) {
        std::snprintf(buf, sizeof buf, "  compute %s: %.2f of nominal FP32\n", gpu.c_str(), eff);
        out << buf;
    }
    if (!r.profile.corrections.empty()) {
        out << "  corrections for:";
        for (const auto& [key, pts] : r.profile.corrections)
            out << " " << key << " (" << pts.size() << " sizes)";
        out << "\n";
    }
    for (const std::string& n : r.notes)
        out << "note: " << n << "\n";
    return out.str();
}

std::string calibrationJson(const CalibrationResult& r)
{
    using nlohmann::json;
    auto stats = [](const ErrorStats& s) {
        return json{{"count", s.count}, {"median_abs_pct", s.medianAbsPct}, {"worst_abs_pct", s.worstAbsPct}, {"mean_pct", s.meanPct}};
    };
    json doc = {{"profile", r.profile.name}, {"source", r.profile.source}, {"topology", r.topologyName}};
    doc["rows"] = json::array();
    for (const AccuracyRow& a : r.rows)
        doc["rows"].push_back({{"collective", opName(a.kind)}, {"ranks", a.ranks}, {"size", a.bytes},
                               {"measured_us", a.measuredUs}, {"before_us", a.startUs}, {"fitted_us", a.fittedUs},
                               {"calibrated_us", a.calibratedUs}, {"before_error_pct", a.startErrorPct},
                               {"fitted_error_pct", a.fittedErrorPct}, {"calibrated_error_pct", a.calibratedErrorPct}});
    doc["before"] = stats(r.start);
    doc["fitted"] = stats(r.fitted);
    doc["calibrated"] = stats(r.calibrated);
    doc["links"] = json::array();
    for (const FittedLinkClass& c : r.classes)
        doc["links"].push_back({{"kind", linkKindName(c.kind)}, {"efficiency", c.params.efficiency},
                                {"hop_us", c.params.hopUs}, {"latency_fitted", c.latencyFitted},
                                {"bandwidth_fitted", c.bandwidthFitted}});
    doc["compute_efficiency"] = r.profile.computeEfficiency;
    doc["notes"] = r.notes;
    return doc.dump(2) + "\n";
}

Result<std::vector<CalibrationSample>> samplesFromSweepJson(const std::string& text, const std::string& origin)
{
    using nlohmann::json;
    auto parsed = detail::parseJsonText(text, origin);
    if (!parsed)
        return parsed.error();
    json doc = std::move(parsed).value();
    if (!doc.is_object() || !doc.contains("collective") || !doc["collective"].is_string())
        return badInput(origin + ": $.collective: missing (expected the output of `shardlab bench --json`)");
    const auto kind = opFromName(doc["collective"].get<std::string>());
    if (!kind || *kind == OpKind::Compute)
        return badInput(origin + ": $.collective: '" + doc["collective"].get<std::string>() + "' is not a collective");
    if (!doc.contains("ranks") || !doc["ranks"].is_number_integer() || doc["ranks"].get<int>() < 2)
        return badInput(origin + ": $.ranks: expected a whole number of 2 or more");
    if (!doc.contains("rows") || !doc["rows"].is_array())
        return badInput(origin + ": $.rows: expected an array of measured sizes");
    std::vector<CalibrationSample> out;
    for (size_t i = 0; i < doc["rows"].size(); ++i) {
        const json& row = doc["rows"][i];
        const std::string path = origin + ": $.rows[" + std::to_string(i) + "]";
        if (!row.is_object() || !row.contains("size") || !row["size"].is_number_unsigned())
            return badInput(path + ".size: expected a byte count");
        if (!row.contains("time_us") || !row["time_us"].is_number() || !(row["time_us"].get<double>() > 0))
            return badInput(path + ".time_us: expected a positive time in microseconds");
        if (row.contains("wrong") && row["wrong"].is_number() && row["wrong"].get<double>() > 0)
            return badInput(path + ".wrong: the measurement reported wrong results; it cannot calibrate anything");
        out.push_back({*kind, doc["ranks"].get<int>(), row["size"].get<Bytes>(), row["time_us"].get<double>()});
    }
    return out;
}

Result<std::vector<CalibrationSample>> samplesFromSweepFiles(const std::vector<std::string>& paths)
{
    std::vector<CalibrationSample> all;
    for (const std::string& path : paths) {
        auto text = readUserFile(path, "a `shardlab bench --json` file", kNoFileSizeLimit);
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
