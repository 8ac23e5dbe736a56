#include "cli.h"
#include "progress.h"
#include "shardlab/base/file_io.h"
#include "shardlab/analysis/sweep.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/live.h"
#include "shardlab/report/lab_report.h"
#include "shardlab/report/report_html.h"
#include "shardlab/sim/simulator.h"

#include <algorithm>
#include <cctype>
#include <ostream>

namespace shardlab::cli {

namespace {

PdfReportWriter& pdfWriterSlot()
{
    static PdfReportWriter writer;
    return writer;
}

std::string lowerExtension(const std::string& path)
{
    const size_t dot = path.find_last_of('.');
    const size_t slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

} // namespace

void setPdfReportWriter(PdfReportWriter writer) { pdfWriterSlot() = std::move(writer); }

void addReport(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("report",
                                   "Write the lab report of a scenario (HTML or PDF), from a simulated or a live run");
    struct Args {
        std::string file;
        std::string out;
        bool live = false;
        std::string sizes;
        std::string lang;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option(
           "FILE", a->file,
           "Scenario file (.shardlab.json), or a recorded run: a result file, a folder or file `shardlab import` reads")
        ->required();
    cmd->add_option("-o,--output", a->out, "Report file: OUT.html or OUT.pdf")->required();
    cmd->add_flag("--live", a->live, "Measure on this machine's GPUs instead of simulating");
    cmd->add_option("--sizes", a->sizes,
                    "Message sizes of the timing table, START:END:FACTOR or a list (binary units as in nccl-tests); "
                    "default: S/64, S/8, S and 4S for the scenario's first collective of S bytes");
    cmd->add_option("--lang", a->lang, "Language of the report: en or zh (default: from LC_ALL / LC_MESSAGES / LANG)");
    cmd->callback([=, &action] {
        action = [=]() -> int {
            const std::string ext = lowerExtension(a->out);
            if (ext != "html" && ext != "htm" && ext != "pdf") {
                io.err << "shardlab: "
                       << io.say(Message("cli.error.report_output").with("option", "-o").with("file", a->out)) << "\n";
                return kExitBadInput;
            }
            if (ext == "pdf" && !pdfWriterSlot()) {
                io.err << "shardlab: "
                       << io.say(Message("cli.error.report_no_pdf")
                                     .with("toolkit", "Qt")
                                     .with("file", a->out.substr(0, a->out.size() - 3) + "html"))
                       << "\n";
                return kExitBadInput;
            }
            Language language = languageFromEnvironment();
            if (!a->lang.empty()) {
                const auto chosen = languageFromCode(a->lang);
                if (!chosen) {
                    io.err << "shardlab: --lang "
                           << io.say(Message("cli.usage.not_language")
                                         .with("value", a->lang)
                                         .with("en", "en")
                                         .with("zh", "zh"))
                           << "\n";
                    return kExitBadInput;
                }
                language = *chosen;
            }
            if (Status st = refuseClashingFiles({{"-o", a->out}}, {{"the scenario file", a->file}}); !st)
                return reportError(st.error(), io);
            // A recorded run (a result file, a profiler's traces, ...): reported as measured, nothing run.
            std::optional<ImportedJob> recorded;
            if (importedRun(a->file)) {
                if (a->live || !a->sizes.empty()) {
                    io.err << "shardlab: "
                           << io.say(Message("cli.error.report_recorded")
                                         .with("file", a->file)
                                         .with("live", "--live")
                                         .with("sizes", "--sizes"))
                           << "\n";
                    return kExitBadInput;
                }
                auto job = importRecordedRun(a->file);
                if (!job)
                    return reportError(job.error(), io);
                recorded = std::move(*job);
            }
            auto scenario = recorded ? Result<Scenario>(recorded->scenario) : loadScenarioIn(a->file, io.language());
            if (!scenario)
                return reportError(scenario.error(), io);
            LabReportOptions options;
            if (recorded)
                options.recorded = &recorded->run;
            options.scenarioFile = a->file;
            options.language = language;
            options.mode = a->live ? RunMode::Live : RunMode::Simulated;
            if (!a->sizes.empty()) {
                auto sizes = parseSizeRange(a->sizes);
                if (!sizes)
                    return reportError(sizes.error(), io);
                std::sort(sizes->begin(), sizes->end());
                sizes->erase(std::unique(sizes->begin(), sizes->end()), sizes->end());
                if (sizes->size() < 3) {
                    io.err << "shardlab: "
                           << io.say(Message("cli.error.report_sizes")
                                         .with("option", "--sizes")
                                         .with("sizes", a->sizes)
                                         .with("count", static_cast<int>(sizes->size())))
                           << "\n";
                    return kExitBadInput;
                }
                options.sizes = *sizes;
            }
            if (a->live) {
                if (!liveBuiltIn()) {
                    io.err << "shardlab: "
                           << io.say(Message("cli.error.report_no_live")
                                         .with("option", "--live")
                                         .with("why", liveBuildInfo()))
                           << "\n";
                    return kExitBadInput;
                }
                if (auto machine = discoverTopology(); machine && machine->rankCount() >= scenario->ranks())
                    options.machineTopology = machine->firstGpus(scenario->ranks());
            }
            // each run of the report (the scenario, then its rescaled copies) shows its progress
            if (a->live)
                options.runner = [](const Scenario& sc) {
                    ProgressLine progress = progressLine("running live", "iteration");
                    LiveOptions lo;
                    lo.progress = [&](int done, int total) {
                        progress.update(done, total);
                        return true;
                    };
                    return runLive(sc, lo);
                };
            else
                options.runner = [](const Scenario& sc) {
                    ProgressLine progress = progressLine("simulating", "iteration");
                    SimulationOptions so;
                    so.progress = [&](int done, int total) {
                        progress.update(done, total);
                        return true;
                    };
                    return simulate(sc, so);
                };
            auto report = buildLabReport(*scenario, options);
            if (!report)
                return reportError(suggestInstead(report.error(), Message("cli.error.instead_report")
                                                                      .with("command", "shardlab report")
                                                                      .with("option", "--live")),
                                   io);
            if (ext == "pdf") {
                if (Status st = pdfWriterSlot()(*report, a->out); !st)
                    return reportError(st.error(), io);
            } else if (!writeOutput(a->out, labReportHtml(*report), io)) {
                return kExitBadInput;
            }
            io.out << io.say(Message(recorded  ? "cli.report.wrote_recorded"
                                     : a->live ? "cli.report.wrote_live"
                                               : "cli.report.wrote_sim")
                                 .with("file", a->out)
                                 .with("sizes", static_cast<int>(report->timing.size()))
                                 .with("limit", bottleneckMessage(report->summary.bottleneck)))
                   << "\n";
            return report->run.hang ? kExitRunFailed : kExitOk;
        };
    });
}

} // namespace shardlab::cli
