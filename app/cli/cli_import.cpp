// `shardlab import FILES... [--json] [--result OUT] [--trace OUT] [--csv PREFIX] [--machine ID]`:
// what other tools recorded (PyTorch profiler traces of every rank, NCCL Inspector logs, Flight
// Recorder dumps, ShardLab's own result files, traces and profiler records; engine/import) shown
// as `sim` and `live` show a run: the same table and --json, a result file to open in the app,
// diagnose, report or simulate again (`profile --resimulate`). nccl-tests output is a sweep: its
// measured rows beside the simulation of --preset. Progress on standard error while reading.
#include "cli.h"
#include "cli_profile.h"
#include "progress.h"

#include "shardlab/import/import_job.h"
#include "shardlab/import/nccl_tests.h"

#include <filesystem>
#include <ostream>

namespace shardlab::cli {

bool importedRun(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return true;
    const ImportFormat f = sniffImportFormat(std::filesystem::path(path).filename().string(), readInputHead(path));
    return f != ImportFormat::ShardLabScenario && f != ImportFormat::Unknown;
}

Result<ImportedJob> importWithProgress(const std::vector<std::string>& files, const std::optional<Topology>& machine)
{
    std::vector<std::filesystem::path> paths(files.begin(), files.end());
    ProgressLine progress = progressLine("reading", "MB");
    ImportOptions options;
    options.machine = machine;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
        progress.update(static_cast<long long>(done >> 20),
                        static_cast<long long>(std::max<std::uint64_t>(total >> 20, 1)));
        return true;
    };
    auto job = importFiles(paths, options);
    progress.finish();
    return job;
}

Result<ImportedJob> importRecordedRun(const std::string& path)
{
    auto job = importWithProgress({path}, std::nullopt);
    if (job && job->sweep)
        return badInput(
            Message("cli.error.import_sweep").with("file", path).with("command", "shardlab import FILE --preset ID"));
    return job;
}

void addImport(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand(
        "import", "Show a run other tools recorded: PyTorch profiler traces (one per rank), NCCL Inspector logs, "
                  "Flight Recorder dumps, nccl-tests -J output, ShardLab result files");
    struct Args {
        std::vector<std::string> files;
        RunArgs run;
        std::string machine;
        std::string preset;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("FILES", a->files, "The job's files, or the folder that holds them (one format, every rank)")
        ->required();
    cmd->add_flag("--json", a->run.json, "Print one JSON object instead of the table");
    cmd->add_option("--result", a->run.result, "Result file to write (open it in the app, diagnose or report it)");
    cmd->add_option("--trace", a->run.trace, "Chrome trace to write (Perfetto, chrome://tracing)");
    cmd->add_option("--csv", a->run.csvPrefix,
                    "Also write PREFIX-ranks.csv, PREFIX-collectives.csv and PREFIX-spans.csv");
    cmd->add_option("--machine", a->machine,
                    "Topology preset the job ran on (default: H200s on NVSwitch, one per rank)");
    cmd->add_option("--preset", a->preset, "nccl-tests output: topology preset to simulate beside the measured rows");
    cmd->callback([=, &action] {
        action = [=]() -> int {
            std::vector<NamedFile> inputs;
            for (const std::string& f : a->files)
                inputs.push_back({"an input file", f});
            if (Status st = refuseClashingFiles(runOutputs(a->run), inputs); !st)
                return reportError(st.error(), io);
            auto machine = machineOption(a->machine);
            if (!machine)
                return reportError(machine.error(), io);
            auto job = importWithProgress(a->files, *machine);
            if (!job)
                return reportError(job.error(), io);
            if (job->sweep) { // nccl-tests: the measured rows, beside --preset's simulation
                auto text = renderImportedSweep(*job->sweep, a->preset, a->run.json, io.language());
                if (!text)
                    return reportError(text.error(), io);
                io.out << *text;
                return kExitOk;
            }
            if (!a->preset.empty())
                return reportError(badInput(Message("cli.error.import_preset_sweep")
                                                .with("preset", "--preset")
                                                .with("machine", "--machine")),
                                   io);
            std::ostream& said = a->run.json ? io.err : io.out;
            said << io.say(Message("import.read")
                               .with("format", Message(importFormatMessageId(job->format)))
                               .with("files", static_cast<int>(job->files.size()))
                               .with("ranks", job->run.ranks))
                 << "\n";
            const int printed = printRun(job->scenario, job->run, a->run, io);
            if (!writeResultFile(a->run.result, job->scenario, job->run, job->launch, std::nullopt, io))
                return kExitBadInput;
            if (!a->run.result.empty())
                said << io.say(Message("profile.result").with("path", a->run.result)) << "\n";
            return printed;
        };
    });
}

} // namespace shardlab::cli
