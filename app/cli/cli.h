// The `shardlab` command line: one function per subcommand, registered on a CLI11 app.
// runCli() is the whole program (main() only forwards), so tests can run it in-process.
#pragma once

#include "shardlab/import/import_job.h"

#include "shardlab/base/result.h"
#include "shardlab/cluster/launch.h"
#include "shardlab/live/live.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/report/lab_report.h"
#include "shardlab/text/language.h"
#include "shardlab/text/message.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <iosfwd>
#include <string>
#include <vector>

namespace shardlab::cli {

// Checks of numeric options whose messages say what was wrong and what is expected:
// "--iterations: 'abc' is not a whole number (expected 1 to 100000)",
// "--gpus: 0 is out of range (expected 1 to 65536)".
CLI::Validator wholeNumber(long long lo, long long hi);
// Live mode's messages suggest `shardlab sim`; a live-only command suggests its own simulated form
// instead ("`shardlab bench --sim --preset ID`"): a Message (cli.error.instead_*), and an error born
// a Message stays one, its alternative worded in the user's language too.
Error suggestInstead(Error error, const Message& alternative);
// The same with an alternative that is the same in every language.
inline Error suggestInstead(Error error, const std::string& alternative)
{
    return suggestInstead(std::move(error), verbatim(alternative));
}
CLI::Validator realNumber(double lo, double hi);
// --trace-iterations of `sim`, `live` and `profile`: a count from 1 to 100000, or "all".
CLI::Validator traceIterationsCount();
// "preset ID has N GPUs; --gpus M asks for more"
Message presetTooSmall(const std::string& preset, int has, int asked);
// "all_reduce, reduce, ..., reduce_scatter_all_gather or send_recv": what --collective of bench takes
Message sweepCollectiveChoices();

// Exit statuses fixed by PRODUCT.md (shardlab/base/result.h).
using shardlab::kExitBadInput;
using shardlab::kExitOk;
using shardlab::kExitRunFailed;

// The one rule for sizes, at the foot of every --help (docs/cli.md "Sizes").
inline constexpr const char* kSizeRule =
    "Sizes: on the command line (--sizes, --bytes) they are binary, as in nccl-tests: 1K = 1024 bytes, "
    "1M = 2^20, 1G = 1GB = 1GiB = 2^30. In scenario files they follow SI and IEC: 1 GB = 10^9 bytes, "
    "1 GiB = 2^30. Tables print SI sizes, so 2^30 bytes prints as 1.07 GB.";

struct Io {
    std::ostream& out;
    std::ostream& err;
    // The language of everything the engine says (--lang, else LC_ALL / LC_MESSAGES / LANG);
    // set by runCli() once the command line is parsed, so read it only in an action.
    const Language* lang = nullptr;
    Language language() const { return lang ? *lang : Language::English; }
    std::string say(const Message& message) const { return render(message, language()); }
    std::string say(const char* id) const { return render(Message(id), language()); }
};

// Each subcommand adds itself to `app` and sets `action` to run when it is chosen.
using Action = std::function<int()>;
void addTopo(CLI::App& app, Io io, Action& action);
void addSim(CLI::App& app, Io io, Action& action);
void addLive(CLI::App& app, Io io, Action& action);
void addBench(CLI::App& app, Io io, Action& action);
void addReport(CLI::App& app, Io io, Action& action);
void addLessons(CLI::App& app, Io io, Action& action);
// Analysis (issue 6): cli_scale.cpp, cli_diagnose.cpp, cli_compare.cpp, cli_calibrate.cpp
void addScale(CLI::App& app, Io io, Action& action);
void addDiagnose(CLI::App& app, Io io, Action& action);
void addCompare(CLI::App& app, Io io, Action& action);
void addCalibrate(CLI::App& app, Io io, Action& action);
// `calibrate --compute` (cli_calibrate_compute.cpp)
struct ComputeCalibrateArgs {
    int device = 0;
    std::string shapes; // "MxNxK,..."; empty: calibrationGemmGrid()
    std::string out;    // empty: shardlab-compute-<gpu>.json here
    bool noSave = false;
    bool json = false;
};
int calibrateCompute(const ComputeCalibrateArgs& args, Io io);
// Profiling a user's own NCCL program (issue 15): cli_profile.cpp
void addProfile(CLI::App& app, Io io, Action& action);
// `shardlab import` (cli_import.cpp)
void addImport(CLI::App& app, Io io, Action& action);
// `shardlab plan` (cli_plan.cpp): a transformer under composed parallelism
void addPlan(CLI::App& app, Io io, Action& action);
// Whether PATH holds a recorded run (a result file, a trace, a folder or a file `import` reads)
// rather than a scenario; and the files read as `import` reads them, with progress on standard error.
bool importedRun(const std::string& path);
Result<ImportedJob> importWithProgress(const std::vector<std::string>& files, const std::optional<Topology>& machine);
// One recorded run, as `diagnose`, `report` and `profile --resimulate` take it: an nccl-tests sweep
// (no job's run) is refused, saying which command shows it.
Result<ImportedJob> importRecordedRun(const std::string& path);

// PDF output of `report` goes through Qt (app/report_qt); main() installs the writer where that
// library is built in, so that this library and its tests stay free of Qt.
using PdfReportWriter = std::function<Status(const LabReport& report, const std::string& path)>;
void setPdfReportWriter(PdfReportWriter writer);

// The options `sim` and `live` share.
struct RunArgs {
    std::string file;
    bool json = false;
    std::string trace;
    std::string traceIterations; // "" (the default limit), "all" or a count
    std::string csvPrefix;
    std::string result;
    int iterations = 0;
    std::string profile;
    bool stream = false; // --stream: the run as JSON lines on standard output (cli_stream.cpp)
    // --on [USER@]HOST[:PORT]: the run made by the ShardLab of another machine over ssh (cli_remote.cpp)
    std::string on, jump, launcher, sshConfig;
    std::string remoteShardlab = "shardlab";
};
void addRunOptions(CLI::App* cmd, RunArgs& a);
// The files --csv PREFIX writes: PREFIX + each of these.
inline constexpr const char* kCsvTables[] = {"-ranks.csv", "-collectives.csv", "-spans.csv"};
// --on and the options that go with it (--jump, --remote-shardlab, --launcher, --ssh-config);
// --on excludes `stream`.
void addRemoteOptions(CLI::App* cmd, RunArgs& a, CLI::Option* stream);
// `sim|live --on`: `mode` ("sim" or "live") run there as `shardlab MODE --stream - FORWARDED...`,
// the run printed as printRun() prints a local one; a hostile field is refused before ssh starts.
int runRemote(const RunArgs& a, Io io, const std::string& mode, const std::vector<std::string>& forwarded);
// The scenario FILE names, with its names in `language` (namedIn; English for --json and --stream)
// and --iterations applied.
Result<Scenario> loadRunScenario(const RunArgs& a, Language language);
// A scenario file with its names in `language` (namedIn: a shipped example's Chinese names).
Result<Scenario> loadScenarioIn(const std::string& file, Language language);
// --stream (cli_stream.cpp): the run as a run stream on `io.out`; FILE `-` reads standard input.
int simStream(const RunArgs& a, Io io, const SimulationOptions& options);
int liveStream(const RunArgs& a, Io io, const LiveOptions& options);
// The scenario text FILE `-` stands for (default std::cin; tests give their own).
Result<std::string> readScenarioInput();
void setScenarioInput(std::istream& in);
// main() says that `out` is the process's standard output (file descriptor 1), so that a live
// stream can keep writing there while NCCL's own prints are sent to standard error.
void setOutputIsProcessStdout(bool yes);
// Where a live stream goes: in a real process (setOutputIsProcessStdout) a private duplicate of
// file descriptor 1, which meanwhile goes to standard error (where NCCL prints); else `io.out`.
class LiveStreamOutput {
public:
    explicit LiveStreamOutput(Io io);
    ~LiveStreamOutput();
    LiveStreamOutput(const LiveStreamOutput&) = delete;
    LiveStreamOutput& operator=(const LiveStreamOutput&) = delete;
    std::ostream& stream();

private:
    struct Parts;
    std::unique_ptr<Parts> m_parts;
    Io m_io;
};
// Saves a ShardLab result file when `path` is not empty; on failure prints why and returns false.
bool writeResultFile(const std::string& path, const Scenario& scenario, const RunResult& run, const std::string& launch,
                     const std::optional<Topology>& machine, Io io);

// Under a launcher (mpirun/srun with more than one process): `live` and `topo` as one process of
// the job (cli_mpi.cpp). Every process returns the job's exit status; only rank 0 prints results.
// A scenario this process could not read is reported through rank 0 with the other ranks' problems.
int liveUnderLauncher(const Result<Scenario>& scenario, const LaunchInfo& launch, const RunArgs& args,
                      const LiveOptions& options, Io io);
// `live --stream` under a launcher: rank 0 reads the scenario (FILE `-`: its standard input) and
// sends it to every process, and alone writes the stream of the merged run; the others write
// nothing on standard output (so that `srun ... --stream -` over SSH is one clean stream).
int liveStreamUnderLauncher(const RunArgs& args, const LaunchInfo& launch, const LiveOptions& options, Io io);
// `live --share-gpu N` (cli_share_gpu.cpp): checks, then runs this command once per rank on this
// machine's one GPU (cluster/shared_gpu_launch.h) and returns the job's exit status.
int liveSharingOneGpu(const RunArgs& args, int ranks, Io io);
// The arguments runCli() was given, which --share-gpu runs again once per rank.
void setCommandArguments(std::vector<std::string> args);
// `args` without `option` and its value ("--share-gpu 2", "--share-gpu=2").
std::vector<std::string> withoutOption(const std::vector<std::string>& args, const std::string& option);
// While alive (and `on`), whatever the process writes to file descriptor 1 goes to standard error
// instead: NCCL prints "NCCL version ..." on standard output when NCCL_DEBUG is set, which would
// break `--json`'s promise of one JSON object on standard output. Live commands hold one around
// the GPU work when --json is asked for (every process of an mpirun job: mpirun merges their output).
class StdoutToStderr {
public:
    explicit StdoutToStderr(bool on);
    ~StdoutToStderr();
    StdoutToStderr(const StdoutToStderr&) = delete;
    StdoutToStderr& operator=(const StdoutToStderr&) = delete;

private:
    int m_saved = -1;
};

// Exit status 3 with a message when a live run's warm-up check found wrong elements.
int checkWrongElements(const RunResult& run, int status, Io io);
int topoUnderLauncher(const LaunchInfo& launch, bool json, Io io);
// `topo --json`'s object: versions, whether live mode works, the topology or why there is none.
std::string topoJson(const Result<Topology>& topo);
// The launcher that started this process with more than one process, or nullopt (a plain run).
// An inconsistent launcher environment is reported and its exit status put in `status`.
std::optional<LaunchInfo> multiProcessLaunch(Io io, int& status);

// A live sweep in nccl-tests' columns; 2 when live mode is missing or the machine lacks the GPUs,
// 3 when the run fails.
int benchLive(OpKind kind, int gpus, const std::vector<Bytes>& sizes, bool json, int warmup, int iterations, Io io);
// Prints a finished run as `sim` and `live` both do (table or --json, and the --trace, --csv
// files it asks for); returns the exit status.
int printRun(const Scenario& scenario, const RunResult& run, const RunArgs& args, Io io);
// Writes the --trace file, streamed: the first iterations asked for by --trace-iterations, by
// default as many as fit in kDefaultTraceEvents (exporters.h), saying so on standard error.
bool writeTraceFile(const std::string& path, const std::string& iterations, const Scenario& scenario,
                    const RunResult& run, Io io);

// The "Detected by CUDA" section `topo` prints under this machine's matrix, in `language`.
std::string formatDetectedDevices(const std::vector<LiveDevice>& devices, Language language = Language::English);

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `--help` in the user's language (cli_help.cpp): every description of the app, its commands and
// their options, and the footer...
struct HelpText {
    CLI::App* app = nullptr;
    CLI::Option* option = nullptr; // null for a command's own description and the footer
    std::string english;           // as the source says it
};
std::vector<HelpText> helpTexts(CLI::App& app);
// ...its Chinese from help.inc, the entry whose English is `english` (empty where there is none)...
std::string helpInChinese(const std::string& english);
// ...and the app's texts, its commands' and CLI11's own words (Usage, OPTIONS...) put in `language`.
void wordHelp(CLI::App& app, Language language);
// A parse error of CLI11 or of our validators in `language` ("--gpus is required" ->
// "缺少必需的选项 --gpus"); a message of no known template stays as CLI11 wrote it.
Message usageErrorMessage(const std::string& what);
std::string wordedUsageError(const CLI::ParseError& error, Language language);
// The app as runCli() builds it, every command added (for the help tests).
void buildApp(CLI::App& app, Io io, Action& action, std::string& langCode, bool& version);

// A file a command reads or writes: the option that names it ("--trace") or, for an input, what it
// is ("the scenario file being run", as refuseOutputOverInput words it), and its path.
struct NamedFile {
    std::string name;
    std::string path;
};
// The one check of every command that writes files, made before anything is written: no output
// may be one of the inputs or another output (the same path after links and `..`, or the same
// file through a hard link: file_io.h sameFile). `-` (standard input or output) clashes with
// nothing. Empty paths are skipped.
Status refuseClashingFiles(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs);
// The files a run writes (`sim`, `live`, `profile`): --trace, --result and the three of --csv PREFIX.
std::vector<NamedFile> runOutputs(const RunArgs& a);
// The cost profile --profile NAME reads, as an input (none for the built-in one).
std::vector<NamedFile> profileInput(const std::string& name);

// Writes `text` to `path` atomically (`-`: on `io.out`); on failure prints why and returns false.
bool writeOutput(const std::string& path, const std::string& text, Io io);
// The same, streamed (writeFileAtomicallyWith).
bool writeOutputWith(const std::string& path, const std::function<Status(std::ostream&)>& write, Io io);
// Maps an engine error to an exit status and prints it.
int reportError(const Error& error, Io io);

} // namespace shardlab::cli
