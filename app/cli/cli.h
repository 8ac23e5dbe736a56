// The `shardlab` command line: one function per subcommand, registered on a CLI11 app.
// runCli() is the whole program (main() only forwards), so tests can run it in-process.
#pragma once

#include "shardlab/collectives.h"
#include "shardlab/launch.h"
#include "shardlab/result.h"
#include "shardlab/run_result.h"
#include "shardlab/scenario.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <iosfwd>
#include <string>
#include <vector>

namespace shardlab::cli {

// Exit statuses fixed by PRODUCT.md.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitRunFailed = 3;

struct Io {
    std::ostream& out;
    std::ostream& err;
};

// Each subcommand adds itself to `app` and sets `action` to run when it is chosen.
using Action = std::function<int()>;
void addTopo(CLI::App& app, Io io, Action& action);
void addSim(CLI::App& app, Io io, Action& action);
void addLive(CLI::App& app, Io io, Action& action);
void addBench(CLI::App& app, Io io, Action& action);

// The options `sim` and `live` share.
struct RunArgs {
    std::string file;
    bool json = false;
    std::string trace;
    std::string csvPrefix;
    std::string result;
    int iterations = 0;
    std::string profile; // sim only
};
void addRunOptions(CLI::App* cmd, RunArgs& a);
// Saves a ShardLab result file when `path` is not empty; on failure prints why and returns false.
bool writeResultFile(const std::string& path, const Scenario& scenario, const RunResult& run, const std::string& launch,
                     const std::optional<Topology>& machine, Io io);

// Under a launcher (mpirun/srun with more than one process): `live` and `topo` as one process of
// the job (cli_mpi.cpp). Every process returns the job's exit status; only rank 0 prints results.
// A scenario this process could not read is reported through rank 0 with the other ranks' problems.
int liveUnderLauncher(const Result<Scenario>& scenario, const LaunchInfo& launch, const RunArgs& args, double watchdogMs,
                      Io io);
int topoUnderLauncher(const LaunchInfo& launch, Io io);
// The launcher that started this process with more than one process, or nullopt (a plain run).
// An inconsistent launcher environment is reported and its exit status put in `status`.
std::optional<LaunchInfo> multiProcessLaunch(Io io, int& status);

// Live bench (issue: live engine); in a build without live mode it explains and returns 2.
int benchLive(OpKind kind, int gpus, const std::vector<Bytes>& sizes, bool json, Io io);
// Prints a finished run as `sim` and `live` both do; returns the exit status.
int printRun(const Scenario& scenario, const RunResult& run, bool json, const std::string& trace, const std::string& csv,
             Io io);

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Writes `text` to `path` atomically; on failure prints why and returns false.
bool writeOutput(const std::string& path, const std::string& text, Io io);
// Maps an engine error to an exit status and prints it.
int reportError(const Error& error, Io io);

} // namespace shardlab::cli
