// The measured sweep of an nccl-tests file beside ShardLab's simulation (nccl_tests.h): the table,
// its --json and the one call `shardlab import` makes. Every figure is the file's (checked by the
// reader) or simulateSweep's; nothing is recomputed here but the average, by averageBusBandwidth.
#include "shardlab/import/nccl_tests.h"

#include "shardlab/base/display_width.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/program.h"
#include "shardlab/sim/cost_model.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace shardlab {

namespace {

// nccl-tests' words for the two halves of a row, kept in every language as its other column names
constexpr const char* kOutOfPlace = "out-of-place";
constexpr const char* kInPlace = "in-place";
// the columns of one timed half: time, algbw, busbw, #wrong (" %10s %8s %8s %6s")
constexpr size_t kHalfWidth = 1 + 10 + 1 + 8 + 1 + 8 + 1 + 6;
// simulated: time, algbw, busbw (" %10s %8s %8s")
constexpr size_t kSimWidth = 1 + 10 + 1 + 8 + 1 + 8;

std::string centred(const std::string& text, size_t width)
{
    const size_t w = displayWidth(text);
    if (w >= width)
        return " " + text;
    const size_t right = (width - w) / 2;
    return std::string(width - w - right, ' ') + text + std::string(right, ' ');
}

std::string half(const std::optional<NcclTestsTiming>& t)
{
    char buf[96];
    if (!t) {
        std::snprintf(buf, sizeof buf, " %10s %8s %8s %6s", "", "", "", ""); // nccl-tests leaves it blank too
        return buf;
    }
    const std::string wrong = t->wrong ? std::to_string(*t->wrong) : "N/A";
    std::snprintf(buf, sizeof buf, " %10.2f %8.2f %8.2f %6s", t->timeUs, t->algbwGBps, t->busbwGBps, wrong.c_str());
    return buf;
}

nlohmann::json halfJson(const std::optional<NcclTestsTiming>& t)
{
    if (!t)
        return nullptr;
    nlohmann::json j = {{"time_us", t->timeUs}, {"algbw_gbps", t->algbwGBps}, {"busbw_gbps", t->busbwGBps}};
    j["wrong"] = t->wrong ? nlohmann::json(*t->wrong) : nlohmann::json(nullptr);
    return j;
}

bool simulatedFits(const NcclTestsSweep& sweep, const std::vector<SweepRow>* simulated)
{
    return simulated && simulated->size() == sweep.rows.size();
}

double simulatedAverage(const std::vector<SweepRow>& rows)
{
    double sum = 0;
    for (const SweepRow& r : rows)
        sum += r.busbwGBps;
    return rows.empty() ? 0 : sum / static_cast<double>(rows.size());
}

} // namespace

std::string formatMeasuredSweep(const NcclTestsSweep& sweep, const std::vector<SweepRow>* simulated,
                                const Message& title, Language language)
{
    auto say = [language](const Message& m) { return render(m, language); };
    const bool sim = simulatedFits(sweep, simulated);
    std::ostringstream out;
    char buf[256];
    out << "# " << say(title) << "\n";
    out << "# "
        << say(Message("import_sweep.header")
                   .with("collective", opName(sweep.kind))
                   .with("program", sweep.program)
                   .with("ranks", sweep.ranks)
                   .with("factor", number("%.4g", busBandwidthFactor(sweep.kind, sweep.ranks))))
        << "\n";
    std::vector<Message> ran;
    if (sweep.ncclVersion > 0)
        ran.push_back(Message("import_sweep.nccl").with("version", ncclVersionText(sweep.ncclVersion)));
    if (!sweep.gpu.empty())
        ran.push_back(verbatim(sweep.gpu));
    if (sweep.iterations > 0)
        ran.push_back(Message("import_sweep.iterations")
                          .with("iterations", sweep.iterations)
                          .with("warmup", sweep.warmupIterations));
    if (!ran.empty())
        out << "# " << say(Message("import_sweep.measured_with").with("what", listOf(std::move(ran)))) << "\n";
    out << "#\n";
    // the groups' titles over their columns, then nccl-tests' column names and units
    std::string groups = "# " + std::string(12 + 1 + 12 + 1 + 6 + 1 + 6 + 1 + 5, ' ') + centred(kOutOfPlace, kHalfWidth)
                         + centred(kInPlace, kHalfWidth);
    if (sim)
        groups += centred(say(Message("import_sweep.simulated")), kSimWidth);
    out << groups.substr(0, groups.find_last_not_of(' ') + 1) << "\n";
    std::snprintf(buf, sizeof buf, "# %12s %12s %6s %6s %5s", "size", "count", "type", "redop", "root");
    out << buf;
    for (int i = 0; i < 2; ++i) {
        std::snprintf(buf, sizeof buf, " %10s %8s %8s %6s", "time", "algbw", "busbw", "#wrong");
        out << buf;
    }
    if (sim) {
        std::snprintf(buf, sizeof buf, " %10s %8s %8s  ", "time", "algbw", "busbw");
        out << buf << say(Message("sweep.col.algorithm"));
    }
    out << "\n";
    out << "# " << rightAligned("(B)", 12) << " " << rightAligned(say(Message("sweep.unit.elements")), 12);
    std::snprintf(buf, sizeof buf, " %6s %6s %5s", "", "", "");
    out << buf;
    const int groupCount = sim ? 3 : 2;
    for (int i = 0; i < groupCount; ++i) {
        std::snprintf(buf, sizeof buf, " %10s %8s %8s", "(us)", "(GB/s)", "(GB/s)");
        out << buf << (i + 1 < groupCount ? std::string(7, ' ') : ""); // under #wrong: no unit
    }
    out << "\n";
    std::uint64_t wrongRows = 0;
    for (size_t i = 0; i < sweep.rows.size(); ++i) {
        const NcclTestsRow& r = sweep.rows[i];
        std::snprintf(buf, sizeof buf, "  %12llu %12llu %6s %6s %5d", static_cast<unsigned long long>(r.bytes),
                      static_cast<unsigned long long>(r.count), r.type.c_str(), r.redop.c_str(), r.root);
        out << buf << half(r.outOfPlace) << half(r.inPlace);
        const bool wrong = (r.outOfPlace && r.outOfPlace->wrong.value_or(0) > 0) || r.inPlace.wrong.value_or(0) > 0;
        wrongRows += wrong ? 1 : 0;
        if (sim) {
            const SweepRow& s = (*simulated)[i];
            std::snprintf(buf, sizeof buf, " %10.2f %8.2f %8.2f  ", s.timeUs, s.algbwGBps, s.busbwGBps);
            out << buf << algorithmName(s.algorithm) << "/" << protocolName(s.protocol);
            // simulateSweep times whole floats (roundBenchSize): say so where that is not the file's size
            if (s.bytes != r.bytes)
                out << "  " << say(Message("import_sweep.simulated_bytes").with("bytes", std::to_string(s.bytes)));
        }
        out << "\n";
    }
    Message average = Message("import_sweep.average").with("measured", number("%.2f", averageBusBandwidth(sweep)));
    if (sim)
        average = Message("import_sweep.average_sim")
                      .with("measured", number("%.2f", averageBusBandwidth(sweep)))
                      .with("simulated", number("%.2f", simulatedAverage(*simulated)));
    out << "# " << say(average) << "\n";
    if (wrongRows > 0)
        out << "# "
            << say(Message("import_sweep.wrong")
                       .with("rows", std::to_string(wrongRows))
                       .with("total", std::to_string(sweep.rows.size()))
                       .with("column", "#wrong"))
            << "\n";
    return out.str();
}

std::string measuredSweepJson(const NcclTestsSweep& sweep, const std::vector<SweepRow>* simulated,
                              const std::string& simulatedOn)
{
    const bool sim = simulatedFits(sweep, simulated);
    nlohmann::json doc = {{"source", "nccl-tests"},   {"file", sweep.origin},
                          {"program", sweep.program}, {"collective", opName(sweep.kind)},
                          {"ranks", sweep.ranks},     {"busbw_factor", busBandwidthFactor(sweep.kind, sweep.ranks)}};
    doc["nccl_version"] =
        sweep.ncclVersion > 0 ? nlohmann::json(ncclVersionText(sweep.ncclVersion)) : nlohmann::json(nullptr);
    doc["gpu"] = sweep.gpu.empty() ? nlohmann::json(nullptr) : nlohmann::json(sweep.gpu);
    doc["iterations"] = sweep.iterations;
    doc["warmup_iterations"] = sweep.warmupIterations;
    doc["simulated_on"] = sim ? nlohmann::json(simulatedOn) : nlohmann::json(nullptr);
    doc["rows"] = nlohmann::json::array();
    for (size_t i = 0; i < sweep.rows.size(); ++i) {
        const NcclTestsRow& r = sweep.rows[i];
        nlohmann::json row = {
            {"size", r.bytes}, {"count", r.count}, {"type", r.type}, {"redop", r.redop}, {"root", r.root}};
        row["out_of_place"] = halfJson(r.outOfPlace);
        row["in_place"] = halfJson(r.inPlace);
        if (sim) {
            const SweepRow& s = (*simulated)[i];
            row["simulated"] = {{"size", s.bytes},
                                {"time_us", s.timeUs},
                                {"algbw_gbps", s.algbwGBps},
                                {"busbw_gbps", s.busbwGBps},
                                {"algorithm", algorithmName(s.algorithm)},
                                {"protocol", protocolName(s.protocol)}};
        }
        doc["rows"].push_back(row);
    }
    doc["average_busbw_gbps"] = averageBusBandwidth(sweep);
    doc["simulated_average_busbw_gbps"] = sim ? nlohmann::json(simulatedAverage(*simulated)) : nlohmann::json(nullptr);
    return doc.dump(2) + "\n";
}

Result<std::string> renderImportedSweep(const NcclTestsSweep& sweep, const std::string& presetId, bool json,
                                        Language language)
{
    if (presetId.empty()) {
        if (json)
            return measuredSweepJson(sweep, nullptr);
        return formatMeasuredSweep(sweep, nullptr, Message("import_sweep.title").with("file", sweep.origin), language);
    }
    const std::optional<Topology> topo = preset(presetId);
    if (!topo)
        return badInput(unknownPresetSentence(presetId));
    if (topo->rankCount() < sweep.ranks)
        return badInput(Message("error.line.nccl_tests_preset_small")
                            .with("file", sweep.origin)
                            .with("ranks", sweep.ranks)
                            .with("preset", presetId)
                            .with("gpus", topo->rankCount()));
    return renderSweepBeside(sweep, *topo, json, language);
}

Result<std::string> renderSweepBeside(const NcclTestsSweep& sweep, const Topology& topology, bool json,
                                      Language language)
{
    if (topology.rankCount() < sweep.ranks)
        return badInput(Message("error.sweep.machine_small")
                            .with("file", sweep.origin)
                            .with("ranks", sweep.ranks)
                            .with("machine", topology.name)
                            .with("gpus", topology.rankCount()));
    const Topology* topo = &topology;
    if (sweep.kind == OpKind::SendRecv && sweep.ranks != 2)
        return badInput(Message("error.line.nccl_tests_send_recv")
                            .with("file", sweep.origin)
                            .with("program", sweep.program)
                            .with("ranks", sweep.ranks));
    const std::vector<Bytes> sizes = sweepSizes(sweep);
    if (Status st = checkSweepRequest(sweep.kind, sweep.ranks, sizes); !st)
        return st.error();
    const Topology machine = topo->firstGpus(sweep.ranks);
    const CostProfile profile = CostProfile::defaults();
    CostModel model(machine, profile);
    const std::vector<SweepRow> rows = simulateSweep(model, sweep.kind, sweep.ranks, sizes);
    if (json)
        return measuredSweepJson(sweep, &rows, machine.name + " (profile " + profile.name + ")");
    return formatMeasuredSweep(sweep, &rows,
                               Message("import_sweep.title_sim")
                                   .with("file", sweep.origin)
                                   .with("topology", machine.name)
                                   .with("profile", profile.name),
                               language);
}

} // namespace shardlab
