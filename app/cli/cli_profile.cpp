// `shardlab profile`: a user's own NCCL program, profiled with no change to its code
// (docs/profiling.md). It runs the command with NCCL_PROFILER_PLUGIN naming ShardLab's plugin and
// SHARDLAB_PROFILE_RECORDS_DIR the folder for its records, passes the command's exit status through, then
// reads every rank's records and shows the run as `sim` and `live` do (engine/profile).
//   shardlab profile [--out DIR] -- COMMAND ARGS...      one process (it may start mpirun itself)
//   mpirun -np 4 shardlab profile [--out DIR] -- PROG     one profile process per rank; rank 0 waits
//                                                          for the others' "done" marks and collects
//   shardlab profile --collect DIR                         build the run from records already there
//   shardlab profile --resimulate RESULT [--machine ID]    the profiled program, simulated (what-if)
#include "cli.h"
#include "cli_profile.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/base/file_io.h"
#include "shardlab/base/resources.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/model/presets.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_format.h"
#include "shardlab/profile/profile_scenario.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace shardlab::cli {

namespace {

namespace fs = std::filesystem;

fs::path doneMark(const fs::path& dir, int rank) { return dir / ("rank-" + std::to_string(rank) + ".done"); }

// Reads the records in `dir`, prints the run and writes the result file and the trace.
int collect(const fs::path& dir, ProfileArgs a, Io io, const Message& programEnd = {})
{
    auto machine = machineOption(a.machine);
    if (!machine)
        return reportError(machine.error(), io);
    auto files = readProfileDirectory(dir);
    if (!files)
        return reportError(files.error(), io);
    ProfileBuildOptions options;
    options.machine = *machine;
    options.name = a.command.empty() ? "profiled program" : "profile of " + joined(a.command);
    options.programEnd = programEnd;
    auto built = buildProfiledRun(*files, options);
    if (!built)
        return reportError(built.error(), io);
    return showProfiledRun(*built, dir, a, io);
}

} // namespace

int showProfiledRun(const ProfiledRun& built, const fs::path& dir, ProfileArgs a, Io io)
{
    if (a.run.trace.empty())
        a.run.trace = (dir / "profile.trace.json").string();
    if (a.run.result.empty())
        a.run.result = (dir / "profile.shardlab-result.json").string();
    const int printed = printRun(built.scenario, built.run, a.run, io);
    if (!writeResultFile(a.run.result, built.scenario, built.run, built.launch, std::nullopt, io))
        return kExitBadInput;
    if (!a.scenario.empty() && !writeOutput(a.scenario, serializeScenario(built.scenario), io))
        return kExitBadInput;
    std::ostream& said = a.run.json ? io.err : io.out;
    said << io.say(Message("profile.result").with("path", a.run.result)) << "\n"
         << io.say(Message("profile.trace").with("path", a.run.trace)) << "\n";
    return printed;
}

namespace {

int resimulate(const ProfileArgs& a, Io io)
{
    // A result file, or any recorded run `shardlab import` reads (PyTorch profiler traces...).
    auto file = importRecordedRun(a.resimulate);
    if (!file)
        return reportError(file.error(), io);
    auto machine = machineOption(a.machine);
    if (!machine)
        return reportError(machine.error(), io);
    Scenario what = file->scenario;
    if (*machine) {
        if ((*machine)->rankCount() != file->run.ranks)
            return reportError(badInput(Message("error.line.machine_size")
                                            .with("option", "--machine")
                                            .with("preset", a.machine)
                                            .with("gpus", (*machine)->rankCount())
                                            .with("ranks", file->run.ranks)),
                               io);
        what.topology = **machine;
    }
    auto predicted = simulate(what);
    if (!predicted)
        return reportError(predicted.error(), io);
    const int printed = printRun(what, *predicted, a.run, io);
    const double measured = summarize(file->scenario, file->run).stepTimeMs;
    const double simulated = summarize(what, *predicted).stepTimeMs;
    char m[32], p[32], c[32];
    std::snprintf(m, sizeof m, "%.3f", measured);
    std::snprintf(p, sizeof p, "%.3f", simulated);
    std::snprintf(c, sizeof c, "%+.1f%%", measured > 0 ? (simulated / measured - 1) * 100 : 0.0);
    (a.run.json ? io.err : io.out) << io.say(
        Message("profile.resimulated")
            .with("measured", std::string(m))
            .with("machine", a.machine.empty() ? std::string("the measured machine") : a.machine)
            .with("predicted", std::string(p))
            .with("change", std::string(c)))
                                   << "\n";
    return printed;
}

int profileCommand(const ProfileArgs& a, Io io)
{
    int launchStatus = kExitOk;
    const std::optional<LaunchInfo> launch = multiProcessLaunch(io, launchStatus);
    if (launchStatus != kExitOk)
        return launchStatus;
    // Everything that can be checked, before an earlier run's records are removed; the folder stays
    // locked until this run has shown its profile (a launcher's processes share it).
    auto start = prepareProfile(a, launch.has_value());
    if (!start)
        return reportError(start.error(), io);
    const fs::path& dir = start->dir;
    std::error_code ec;
    if (launch)
        fs::remove(doneMark(dir, launch->rank), ec); // this rank's own mark from an earlier run
    else
        removeEarlierRecords(
            dir); // one profile process for the whole job: an earlier run's records would join this one
    auto program = ProfiledProgram::start(a.command,
                                          {"NCCL_PROFILER_PLUGIN=" + start->plugin,
                                           std::string(profile_format::kRecordsDirVariable) + "=" + dir.string()},
                                          false);
    if (!program) // said once: nothing was profiled
        return reportError(program.error(), io);
    if (!launch || launch->rank == 0)
        io.err << "shardlab: "
               << io.say(Message("profile.running").with("command", joined(a.command)).with("dir", dir.string()))
               << "\n";
    const std::optional<int> status = (*program)->ended(true);
    const int signal = (*program)->signal();
    if (signal)
        io.err << "shardlab: " << io.say(Message("profile.signal").with("signal", signal)) << "\n";
    else if (*status != 0)
        io.err << "shardlab: " << io.say(Message("profile.exit").with("status", *status)) << "\n";
    if (launch) {
        {
            std::ofstream mark(doneMark(dir, launch->rank));
            mark << *status << "\n";
        }
        if (launch->rank != 0) {
            io.err << "shardlab: "
                   << io.say(Message("profile.rank_done").with("rank", launch->rank).with("dir", dir.string())) << "\n";
            return *status;
        }
        // Rank 0 collects once every rank has finished (the folder is shared, as on one node).
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(a.waitSeconds);
        std::string missing;
        while (true) {
            missing.clear();
            for (int r = 1; r < launch->size; ++r)
                if (!fs::exists(doneMark(dir, r), ec))
                    missing += (missing.empty() ? "" : ", ") + std::to_string(r);
            if (missing.empty() || std::chrono::steady_clock::now() >= until)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        if (!missing.empty())
            io.err << "shardlab: "
                   << io.say(Message("profile.waiting")
                                 .with("seconds", static_cast<int>(a.waitSeconds))
                                 .with("ranks", missing)
                                 .with("command", "`shardlab profile --collect " + dir.string() + "`"))
                   << "\n";
    }
    const int shown = collect(dir, a, io, programEndMessage(**program, *status));
    return *status != 0 ? *status : shown;
}

// The files `profile` writes (--trace, --result, --csv, --scenario; by default the trace and the
// result in the folder) against what it reads: the result --resimulate reads, or the record files of
// the folder (--collect DIR, or --out DIR where the program writes them). Checked before anything
// is written or deleted.
Status refuseProfileClashes(const ProfileArgs& a)
{
    std::vector<NamedFile> outputs = runOutputs(a.run);
    outputs.push_back({"--scenario", a.scenario});
    if (!a.resimulate.empty())
        return refuseClashingFiles(outputs, {{"the result file being resimulated", a.resimulate}});
    const fs::path dir = a.collect.empty() ? fs::path(a.out) : fs::path(a.collect);
    if (a.run.trace.empty())
        outputs[0].path = (dir / "profile.trace.json").string();
    if (a.run.result.empty())
        outputs[1].path = (dir / "profile.shardlab-result.json").string();
    const std::string suffix = profile_format::kFileSuffix;
    auto isRecord = [&](const std::string& name) { return name.size() >= suffix.size() && name.ends_with(suffix); };
    std::vector<NamedFile> records;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (isRecord(entry.path().filename().string()))
            records.push_back({"the profile record file", entry.path().string()});
    // a record the program is about to write there
    for (const NamedFile& out : outputs) {
        const fs::path folder = fs::path(out.path).has_parent_path() ? fs::path(out.path).parent_path() : fs::path(".");
        if (isRecord(fs::path(out.path).filename().string()) && sameFile(folder, dir))
            records.push_back({"the profile record file", out.path});
    }
    return refuseClashingFiles(outputs, records);
}

} // namespace

void addProfile(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand(
        "profile", "Run your own NCCL program under ShardLab's NCCL profiler and show it as a run: per-rank "
                   "compute, communication and waits, the straggler, algbw/busbw (docs/profiling.md)");
    auto a = std::make_shared<ProfileArgs>();
    cmd->add_option("COMMAND", a->command,
                    "The program and its arguments, after --: `shardlab profile -- mpirun -np 4 ./prog`");
    cmd->add_flag("--live", a->live,
                  "Write the run as a run stream on standard output while the program runs (the app's Run > Profile a "
                  "program); the program's own standard output goes to standard error");
    cmd->add_option("--out", a->out,
                    "Folder for the records, the result file and the trace (default: ./shardlab-profile)");
    auto* collectOpt =
        cmd->add_option("--collect", a->collect, "Build the run from the records already in DIR; run nothing");
    auto* resimOpt =
        cmd->add_option("--resimulate", a->resimulate,
                        "Simulate the program a profile's result file holds (with --machine: on another machine)");
    collectOpt->excludes(resimOpt);
    cmd->add_option("--machine", a->machine,
                    "Preset of the machine it ran on (default: H200s on NVSwitch), or to simulate on");
    cmd->add_option("--scenario", a->scenario,
                    "Also write the observed program as a scenario file (.shardlab.json) to edit and simulate");
    cmd->add_option("--wait", a->waitSeconds,
                    "Under mpirun/srun: how long rank 0 waits for the other ranks to finish (s)")
        ->check(realNumber(0, 86400));
    cmd->add_flag("--json", a->run.json, "Print one JSON object instead of the table");
    cmd->add_option("--trace", a->run.trace, "Chrome trace to write (default: DIR/profile.trace.json)");
    cmd->add_option("--trace-iterations", a->run.traceIterations,
                    "Iterations the trace holds, from the first: a count, or 'all' (default: as many as fit in about 1 "
                    "million events, about 200 MB)")
        ->check(traceIterationsCount());
    cmd->add_option("--result", a->run.result, "Result file to write (default: DIR/profile.shardlab-result.json)");
    cmd->add_option("--csv", a->run.csvPrefix,
                    "Also write PREFIX-ranks.csv, PREFIX-collectives.csv and PREFIX-spans.csv");
    cmd->callback([a, io, &action] {
        action = [a, io]() -> int {
            if (Status st = refuseProfileClashes(*a); !st)
                return reportError(st.error(), io);
            if (!a->resimulate.empty())
                return resimulate(*a, io);
            if (!a->collect.empty())
                return collect(a->collect, *a, io);
            if (a->command.empty())
                return reportError(badInput(Message("error.line.profile_what")
                                                .with("command", "profile")
                                                .with("separator", "--")
                                                .with("example", "shardlab profile -- ./prog")
                                                .with("collect", "--collect DIR")
                                                .with("resimulate", "--resimulate RESULT")),
                                   io);
            if (a->live)
                return profileLive(*a, io);
            return profileCommand(*a, io);
        };
    });
}

} // namespace shardlab::cli
