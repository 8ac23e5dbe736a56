#include "cli.h"

#include "shardlab/analysis/collective_choice.h"
#include "shardlab/analysis/collective_comparison.h"
#include "shardlab/base/display_width.h"
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

std::string comparisonTable(const CollectiveComparison& c, const ChoiceConsequence& wrong, const Message& where,
                            Language language)
{
    auto say = [language](const Message& m) { return render(m, language); };
    const ComparisonSide* sides[] = {&c.allReduce, &c.reduceScatterAllGather, &c.reduceScatterOnly};
    std::string out = "# "
                      + say(Message("compare.table.title")
                                .with("size", formatBytes(c.bytes))
                                .with("bytes", std::to_string(c.bytes))
                                .with("gpus", c.ranks)
                                .with("where", where))
                      + "\n";
    // columns aligned by terminal columns (a Chinese character takes two)
    const std::size_t label = 26, widths[] = {22, 30, 22};
    auto line = [&](const std::string& first, const std::string(&cells)[3]) {
        out += leftAligned(first, label);
        for (size_t i = 0; i < 3; ++i)
            out += " " + rightAligned(cells[i], widths[i]);
        out += "\n";
    };
    line("", {say(Message("compare.col.all_reduce")), say(Message("compare.col.rs_ag")),
              say(Message("compare.col.rs_only"))});
    auto row = [&](const char* id, auto text) {
        line(say(Message(id)), {text(*sides[0]), text(*sides[1]), text(*sides[2])});
    };
    row("compare.row.held_after", [](const ComparisonSide& s) { return formatBytes(s.heldAfterPerRank); });
    row("compare.row.peak", [](const ComparisonSide& s) { return formatBytes(s.peakPerRank); });
    row("compare.row.sent", [](const ComparisonSide& s) { return formatBytes(s.sentPerRank); });
    row("compare.row.time_simulated", [](const ComparisonSide& s) { return formatMicros(s.timeUs); });
    if (c.allReduce.measuredUs)
        row("compare.row.time_measured",
            [](const ComparisonSide& s) { return s.measuredUs ? formatMicros(*s.measuredUs) : std::string("-"); });
    row("compare.row.example", [](const ComparisonSide& s) { return valuesText(s.exampleResult.at(0)); });
    out += "\n" + say(comparisonMessage(c)) + "\n\n"
           + say(Message("cli.choosing_wrongly").with("sentence", wrong.sentenceMessage)) + "\n";
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
    auto* cmd =
        app.add_subcommand("compare", "All-reduce against reduce-scatter + all-gather: what each rank holds, memory, "
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
                return reportError(badInput(Message("error.line.option_says")
                                                .with("option", "bytes")
                                                .with("reason", messageOf(bytes.error()))),
                                   io);
            if (*bytes == 0)
                return reportError(badInput(Message("cli.error.zero_bytes").with("option", "--bytes")), io);
            // Fewer bytes than ranks: reduce-scatter's slices would be 0 B and the comparison would
            // speak of sending 0 B. Refused, naming the smallest size that compares (docs/analysis.md).
            if (*bytes < static_cast<Bytes>(a->gpus))
                return reportError(badInput(Message("cli.error.bytes_below_ranks")
                                                .with("option", "--bytes")
                                                .with("bytes", std::to_string(*bytes))
                                                .with("ranks", a->gpus)),
                                   io);
            auto topo = preset(a->preset);
            if (!topo)
                return reportError(badInput(unknownPresetSentence(a->preset)), io);
            // as `bench --sim`: a preset's own GPUs, never a cluster made up without saying so
            if (a->gpus > topo->rankCount())
                return reportError(badInput(Message("cli.error.choose_larger_preset")
                                                .with("problem", presetTooSmall(a->preset, topo->rankCount(), a->gpus))
                                                .with("example", "2x8-h100-ib")),
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
            const ChoiceConsequence wrong = consequenceOfChoosing(OpKind::AllReduce, Need::ConcatenationOnEveryRank,
                                                                  a->gpus, *bytes / static_cast<Bytes>(a->gpus));
            if (!a->json) {
                io.out << comparisonTable(
                    c, wrong, Message("compare.table.where").with("topology", t.name).with("profile", profile->name),
                    io.language());
                return kExitOk;
            }
            nlohmann::json doc = {{"bytes", c.bytes},
                                  {"ranks", c.ranks},
                                  {"topology", t.name},
                                  {"profile", profile->name},
                                  {"sentence", c.sentence}};
            doc["all_reduce"] = sideJson(c.allReduce);
            doc["reduce_scatter_all_gather"] = sideJson(c.reduceScatterAllGather);
            doc["reduce_scatter_only"] = sideJson(c.reduceScatterOnly);
            doc["wrong_choice"] = {{"chosen", opName(wrong.chosen)}, {"needed", opName(wrong.right)},
                                   {"correct", wrong.correct},       {"inputs", wrong.inputs},
                                   {"expected", wrong.expected},     {"got", wrong.got},
                                   {"sentence", wrong.sentence}};
            io.out << doc.dump(2) << "\n";
            return kExitOk;
        };
    });
}

} // namespace shardlab::cli
