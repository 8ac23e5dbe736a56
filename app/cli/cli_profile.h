// `shardlab profile`'s parts shared by the profile that runs the program to its end
// (cli_profile.cpp) and the one that streams it while it runs (--live, cli_profile_live.cpp):
// the options, finding the plugin, and running the program with its environment.
#pragma once

#include "cli.h"

#include "shardlab/profile/profile_build.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace shardlab::cli {

struct ProfileArgs {
    std::vector<std::string> command;
    std::string out = "shardlab-profile";
    std::string collect;
    std::string resimulate;
    std::string machine;
    std::string scenario; // --scenario: the observed program as a scenario file, to edit and simulate
    double waitSeconds = 120;
    bool live = false; // --live: a run stream on standard output while the program runs
    RunArgs run;       // --json, --trace, --result, --csv as `sim` has them
};

// The plugin: $SHARDLAB_NCCL_PROFILER, else beside the executable or installed (as the live
// library is found), else where this build put it.
Result<std::string> pluginPath();

// Why `program` cannot be started (empty when it can): a path that does not exist or cannot be
// run, or a name on no folder of PATH. Said before anything starts, instead of the exit status
// 127 of a program that was never there.
Message programProblem(const std::string& program);

// One run of the program, with `extra` ("NAME=value") added to the environment. While it lives,
// SIGINT and SIGTERM sent to this process alone (kill, mpirun, timeout, the app's Stop) go on to
// the program, so that this process stays to collect what it recorded; Ctrl-C at the terminal
// reached the program already.
class ProfiledProgram {
public:
    ~ProfiledProgram();
    // `stdoutToStderr` (--live): the program's standard output goes to standard error (standard
    // output carries the stream), and the program gets SIGTERM should this process die first.
    static Result<std::unique_ptr<ProfiledProgram>> start(const std::vector<std::string>& command,
                                                          const std::vector<std::string>& extra, bool stdoutToStderr);
    // Its exit status (128 + N when signal N ended it) once it has ended; with `block`, waits.
    std::optional<int> ended(bool block);
    int signal() const { return m_signal; } // the signal that ended it, or 0
    void terminate();                       // SIGTERM (the reader of a live stream went away)

private:
    ProfiledProgram() = default;
    pid_t m_pid = -1;
    std::optional<int> m_status;
    int m_signal = 0;
    struct Handlers;
    std::unique_ptr<Handlers> m_handlers;
};

// How the program ended, as a note of the run ("" when it exited with status 0).
Message programEndMessage(const ProfiledProgram& program, int status);

std::string joined(const std::vector<std::string>& words);

// Record files and done marks of an earlier run in `dir` (one profile process for the whole job:
// they would join this run).
void removeEarlierRecords(const std::filesystem::path& dir);

Result<std::optional<Topology>> machineOption(const std::string& id);

// The --out folder locked for one run's whole life: an flock on DIR/.shardlab-profile.lock, which
// holds the process id of an exclusive holder. A second `shardlab profile` into the folder is
// refused ("--out DIR is in use by another `shardlab profile` (process 4242) ..."). `shared`: the
// processes of one launcher's job (mpirun -np 4 shardlab profile ...), which all write there.
class OutFolderLock {
public:
    static Result<std::unique_ptr<OutFolderLock>> take(const std::filesystem::path& dir, bool shared);
    ~OutFolderLock();
    OutFolderLock(const OutFolderLock&) = delete;
    OutFolderLock& operator=(const OutFolderLock&) = delete;

private:
    OutFolderLock() = default;
    int m_fd = -1;
    bool m_shared = false;
};

// What a profile run needs, found and checked before anything in --out is removed or replaced:
// the plugin, --machine, the program (it exists and may be run), the folder (created) and every
// output (its folder writable), and the folder's lock.
struct ProfileStart {
    std::string plugin;
    std::optional<Topology> machine;
    std::filesystem::path dir;
    std::unique_ptr<OutFolderLock> lock;
};
Result<ProfileStart> prepareProfile(const ProfileArgs& a, bool sharedFolder);

// Prints `built` (the table, or --json), writes its result file, trace and --scenario, and says
// where (defaults in `dir`); the status of printRun.
int showProfiledRun(const ProfiledRun& built, const std::filesystem::path& dir, ProfileArgs a, Io io);

// `shardlab profile --live`: cli_profile_live.cpp.
int profileLive(const ProfileArgs& a, Io io);

} // namespace shardlab::cli
