#include "cli.h"
#include "progress.h"

#include "shardlab/base/file_io.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/base/version.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <system_error>

namespace shardlab::cli {

void addRunOptions(CLI::App* cmd, RunArgs& a)
{
    cmd->add_option("FILE", a.file, "Scenario file (.shardlab.json); - reads it from standard input")->required();
    auto* json = cmd->add_flag("--json", a.json, "Print one JSON object instead of the table");
    auto* stream =
        cmd->add_flag(
               "--stream", a.stream,
               "Write the run as a stream of JSON lines on standard output while it happens (header, one chunk per "
               "iteration, result or error; docs/result-format.md); the run stops when standard output closes")
            ->excludes(json);
    cmd->add_option("--trace", a.trace, "Also write a Chrome/Perfetto trace to this file");
    cmd->add_option("--trace-iterations", a.traceIterations,
                    "Iterations the trace holds, from the first: a count, or 'all' (default: as many as fit in about "
                        + std::to_string(kDefaultTraceEvents / 1000000) + " million events, about 200 MB)")
        ->check(traceIterationsCount());
    cmd->add_option("--csv", a.csvPrefix, "Also write PREFIX-ranks.csv, PREFIX-collectives.csv and PREFIX-spans.csv");
    cmd->add_option("--result", a.result, "Also save the run as a ShardLab result file (.shardlab-result.json)");
    cmd->add_option("--iterations", a.iterations, "Override the scenario's iteration count")
        ->check(wholeNumber(1, 100000));
    cmd->add_option("--profile", a.profile, "Cost profile to simulate with (default: the scenario's, else built-in)");
    addRemoteOptions(cmd, a, stream);
}

Result<Scenario> loadScenarioIn(const std::string& file, Language language)
{
    auto scenario = loadScenario(file);
    if (!scenario)
        return scenario;
    return namedIn(std::move(*scenario), language);
}

Result<Scenario> loadRunScenario(const RunArgs& a, Language language)
{
    // --json and --stream stay English, their names too: scripts and course assignments read them
    if (a.json || a.stream)
        language = Language::English;
    // an output that is the scenario itself, the cost profile or another output would replace it
    std::vector<NamedFile> inputs = profileInput(a.profile);
    inputs.push_back({"the scenario file being run", a.file});
    if (Status st = refuseClashingFiles(runOutputs(a), inputs); !st)
        return st.error();
    auto scenario = [&]() -> Result<Scenario> {
        if (a.file != "-")
            return loadScenarioIn(a.file, language);
        auto text = readScenarioInput();
        if (!text)
            return text.error();
        auto parsed = parseScenario(*text, "<standard input>");
        return parsed ? Result<Scenario>(namedIn(std::move(*parsed), language)) : parsed;
    }();
    if (scenario && a.iterations > 0)
        scenario->iterations = a.iterations;
    return scenario;
}

bool writeResultFile(const std::string& path, const Scenario& scenario, const RunResult& run, const std::string& launch,
                     const std::optional<Topology>& machine, Io io)
{
    if (path.empty())
        return true;
    ResultFile file;
    file.scenario = scenario;
    file.run = run;
    file.createdBy = std::string("ShardLab ") + kVersion;
    file.launch = launch;
    file.machine = machine;
    return writeOutput(path, serializeResult(file), io);
}

// Prints a finished run the way `sim` and `live` both do; returns the exit status.
bool writeTraceFile(const std::string& path, const std::string& iterations, const Scenario& scenario,
                    const RunResult& run, Io io)
{
    TraceOptions options;
    const int total = static_cast<int>(run.iterations.size());
    if (iterations.empty())
        options.iterations = traceIterationsWithin(run);
    else if (iterations != "all")
        options.iterations =
            static_cast<int>(std::strtol(iterations.c_str(), nullptr, 10)); // traceIterationsCount() checked it
    if (!writeOutputWith(
            path, [&](std::ostream& out) { return writeChromeTrace(out, scenario, run, options); }, io))
        return false;
    if (iterations.empty() && options.iterations < total) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        Message partial = Message(ec ? "cli.trace.partial" : "cli.trace.partial_size")
                              .with("shown", options.iterations)
                              .with("total", total)
                              .with("all", "--trace-iterations all")
                              .with("first", "--trace-iterations N");
        if (!ec)
            partial.arg("size", formatBytes(size));
        io.err << "shardlab: " << io.say(partial) << "\n";
    }
    return true;
}

int printRun(const Scenario& scenario, const RunResult& run, const RunArgs& args, Io io)
{
    const bool json = args.json;
    const std::string& trace = args.trace;
    const std::string& csv = args.csvPrefix;
    const Summary summary = summarize(scenario, run);
    if (json)
        io.out << summaryJson(summary);
    else
        io.out << formatSummaryTable(scenario, summary, io.language());
    if (!trace.empty() && !writeTraceFile(trace, args.traceIterations, scenario, run, io))
        return kExitBadInput;
    if (!csv.empty()) {
        if (!writeOutput(csv + kCsvTables[0], perRankCsv(summary), io)
            || !writeOutput(csv + kCsvTables[1], collectivesCsv(summary), io)
            || !writeOutputWith(
                csv + kCsvTables[2], [&](std::ostream& out) { return writeSpansCsv(out, scenario, run); }, io))
            return kExitBadInput;
    }
    // What a live run changed or could not do, and how its clocks were aligned. On stderr with
    // --json, so that stdout stays one JSON object.
    std::ostream& notes = json ? io.err : io.out;
    for (const Message& note : run.notes)
        notes << (json ? "shardlab: note: " + english(note) : io.say(Message("cli.note").with("note", note))) << "\n";
    if (run.mode == RunMode::Live && !json && !run.clockNote.empty())
        io.out << io.say(Message("cli.clock").with("note", run.clockNote)) << "\n";
    if (run.hang) {
        io.err << "shardlab: " << io.say(Message("cli.hung").with("explanation", run.hang->explanationMessage()))
               << "\n";
        for (size_t r = 0; r < run.hang->pending.size(); ++r)
            io.err << "  "
                   << io.say(Message("cli.hang_rank")
                                 .with("rank", static_cast<int>(r))
                                 .with("last", HangReport::lastCompletedMessage(run.hang->lastCompleted[r]))
                                 .with("pending", run.hang->pendingMessage(r)))
                   << "\n";
        return kExitRunFailed;
    }
    return kExitOk;
}

void addSim(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("sim", "Simulate a scenario on its topology with the analytic cost model");
    auto a = std::make_shared<RunArgs>();
    addRunOptions(cmd, *a);
    cmd->callback([=, &action] {
        action = [=]() -> int {
            if (!a->on.empty()) // the cost profile is the remote machine's
                return runRemote(*a, io, "sim",
                                 a->profile.empty() ? std::vector<std::string>{}
                                                    : std::vector<std::string>{"--profile", a->profile});
            SimulationOptions options;
            if (!a->profile.empty()) {
                auto profile = loadProfile(a->profile);
                if (!profile)
                    return reportError(profile.error(), io);
                options.profile = *profile;
            }
            if (a->stream) // reads the scenario itself: an unreadable one becomes the stream's error line
                return simStream(*a, io, options);
            auto scenario = loadRunScenario(*a, io.language());
            if (!scenario)
                return reportError(scenario.error(), io);
            auto run = [&] {
                ProgressLine progress = progressLine("simulating", "iteration");
                options.progress = [&](int done, int total) {
                    progress.update(done, total);
                    return true;
                };
                return simulate(*scenario, options);
            }();
            if (!run)
                return reportError(run.error(), io);
            if (!writeResultFile(a->result, *scenario, *run, "simulation", std::nullopt, io))
                return kExitBadInput;
            return printRun(*scenario, *run, *a, io);
        };
    });
}

} // namespace shardlab::cli
