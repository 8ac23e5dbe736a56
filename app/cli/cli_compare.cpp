#include "cli.h"

#include "shardlab/analysis/collective_choice.h"
#include "shardlab/analysis/collective_comparison.h"
#include "shardlab/live/live_measure.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/profiles.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <numeric>
#include <ostream>

namespace shardlab::cli {

namespace {

std::string valuesText(const std::vector<double>& v)
{
    std::string s;
    for (size_t i = 0; i < v.size() && i < 4; ++i) {
        char b[32];
        std::snprintf(b, sizeof b, "%s%g", i ? " " : "", v[i]);
        s += b;
    }
    return "[" + s + (v.size() > 4 ? " ...]" : "]");
}

std::string comparisonTable(const CollectiveComparison& c, const ChoiceConsequence& wrong, const std::string& where,
                            Language language)
{
    const ComparisonSide* sides[] = {&c.allReduce, &c.reduceScatterAllGather, &c.reduceScatterOnly};
    char buf[256];
    std::string out = "# All-reduce against reduce-scatter + all-gather: " + formatBytes(c.bytes) + " ("
                      + std::to_string(c.bytes) + " bytes) on " + std::to_string(c.ranks) + " GPUs of " + where + "\n";
    std::snprintf(buf, sizeof buf, "%-26s %22s %30s %22s\n", "", "all-reduce", "reduce-scatter + all-gather",
                  "reduce-scatter only");
    out += buf;
    auto row = [&](const char* label, auto text) {
        std::snprintf(buf, sizeof buf, "%-26s %22s %30s %22s\n", label, text(*sides[0]).c_str(), text(*sides[1]).c_str(),
                      text(*sides[2]).c_str());
        out += buf;
    };
    row("held afterwards per rank", [](const ComparisonSide& s) { return formatBytes(s.heldAfterPerRank); });
    row("peak memory per rank", [](const ComparisonSide& s) { return formatBytes(s.peakPerRank); });
    row("sent per rank", [](const ComparisonSide& s) { return formatBytes(s.sentPerRank); });
    row("time (simulated)", [](const ComparisonSide& s) { return formatMicros(s.timeUs); });
    if (c.allReduce.measuredUs)
        row("time (measured)", [](const ComparisonSide& s) { return s.measuredUs ? formatMicros(*s.measuredUs) : std::string("-"); });
    row("rank 0 holds (example)", [](const ComparisonSide& s) { return valuesText(s.exampleResult.at(0)); });
    out += "\n" + render(comparisonMessage(c), language) + "\n\n"
           + render(Message("cli.choosing_wrongly").with("sentence", wrong.sentenceMessage), language) + "\n";
    return out;
}

nlohmann::json sideJson(const ComparisonSide& s)
{
    return {{"kind", opName(s.kind)},
            {"held_after_bytes", s.heldAfterPerRank},
            {"peak_bytes", s.peakPerRank},
            {"sent_bytes", s.sentPerRank},
            {"time_us", s.timeUs},
            {"measured_us", s.measuredUs ? nlohmann::json(*s.measuredUs) : nlohmann::json(nullptr)},
            {"example_inputs", s.exampleInputs},
            {"example_result", s.exampleResult}};
}

} // namespace

void addCompare(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("compare", "All-reduce against reduce-scatter + all-gather: what each rank holds, memory, "
                                              "bytes moved and time");
    struct Args {
        int gpus = 0;
        std::string bytes = "1G";
        std::string preset;
        std::string profile;
        bool measure = false;
        bool json = false;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("--gpus", a->gpus, "Number of GPUs (ranks)")->required()->check(wholeNumber(2, 1LL << 16));
    cmd->add_option("--bytes", a->bytes,
                    "Buffer size, binary as in bench and nccl-tests: 1G = 1GB = 1GiB = 2^30 bytes (default 1G)");
    cmd->add_option("--preset", a->preset, "Topology to simulate on (its first N GPUs)")->required();
    cmd->add_option("--profile", a->profile, "Cost profile (default: built-in)");
    cmd->add_flag("--measure", a->measure, "Also measure the three on this machine's GPUs (live mode)");
    cmd->add_flag("--json", a->json, "Print JSON");
    cmd->callback([=, &action] {
        action = [=]() -> int {
            auto bytes = parseBenchSize(a->bytes);
            if (!bytes)
                return reportError(badInput("--bytes: " + bytes.error().message), io);
            if (*bytes == 0)
                return reportError(badInput("--bytes: a size of 0 bytes moves nothing"), io);
            auto topo = preset(a->preset);
            if (!topo)
                return reportError(badInput(unknownPresetMessage(a->preset)), io);
            // as `bench --sim`: a preset's own GPUs, never a cluster made up without saying so
            if (a->gpus > topo->rankCount())
                return reportError(badInput("preset " + a->preset + " has " + std::to_string(topo->rankCount())
                                            + " GPUs; --gpus " + std::to_string(a->gpus)
                                            + " asks for more (choose a larger preset, e.g. 2x8-h100-ib)"),
                                   io);
            const Topology t = topo->firstGpus(a->gpus);
            auto profile = loadProfile(a->profile);
            if (!profile)
                return reportError(profile.error(), io);
            CostModel model(t, *profile);
            std::vector<int> group(static_cast<size_t>(a->gpus));
            std::iota(group.begin(), group.end(), 0);
            CollectiveComparison c = compareAllReduceWithRsAg(model, group, *bytes);
            if (a->measure)
                if (Status st = fillMeasuredTimes(c, liveSweepMeasure()); !st)
                    return reportError(st.error(), io);
            // the course's wrong choice: all-reduce where each rank's piece had to be concatenated
            const ChoiceConsequence wrong = consequenceOfChoosing(OpKind::AllReduce, Need::ConcatenationOnEveryRank, a->gpus,
                                                                  *bytes / static_cast<Bytes>(a->gpus));
            if (!a->json) {
                io.out << comparisonTable(c, wrong, t.name + " (profile " + profile->name + ")", io.language());
                return kExitOk;
            }
            nlohmann::json doc = {{"bytes", c.bytes}, {"ranks", c.ranks}, {"topology", t.name}, {"profile", profile->name},
                                  {"sentence", c.sentence}};
            doc["all_reduce"] = sideJson(c.allReduce);
            doc["reduce_scatter_all_gather"] = sideJson(c.reduceScatterAllGather);
            doc["reduce_scatter_only"] = sideJson(c.reduceScatterOnly);
            doc["wrong_choice"] = {{"chosen", opName(wrong.chosen)}, {"needed", opName(wrong.right)},
                                   {"correct", wrong.correct},      {"inputs", wrong.inputs},
                                   {"expected", wrong.expected},    {"got", wrong.got},
                                   {"sentence", wrong.sentence}};
            io.out << doc.dump(2) << "\n";
            return kExitOk;
        };
    });
}

} // namespace shardlab::cli
