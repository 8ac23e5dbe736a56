// A profiled job as ShardLab's run (docs/profiling.md, "From records to a run"): the record files
// of every rank, put on one clock (profile_clock.h), their collectives matched across ranks by
// communicator and sequence number, and turned into the same RunResult the simulator and live
// mode produce, by the multi-process runs' own merge (trace_merge.h):
//   * a rank's arrival at a collective is its kernel's first channel start, its end the last
//     channel's end (GPU timer on the host clock); without GPU timers (interface v3) the host
//     times of NCCL's event;
//   * compute (the program's own work) = the time between the end of its previous collective and
//     its next arrival, on every rank from the first arrival of anyone;
//   * wait = its arrival until the last member's arrival, naming that rank; comm = from there to
//     its own end.
// Order (canonical, so that a run built while records still arrive is a prefix of the finished
// one, profile_live.h): collectives[k] is collective k (op 2k+1); spans by step, rank, begin.
// The finished run (not recordsStillArriving) is then cut into the program's steps where it has
// them (profile_steps.h): collective k after the set-up is op 2(k mod P)+1 of iteration k / P,
// still at index k - set-up, spans in the same order; the set-up's collectives are not drawn.
// The scenario beside it is the program as observed (profile_scenario.h), so that the run can be
// saved, opened, diagnosed and simulated again.
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/profile/profile_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct ProfileBuildOptions {
    std::optional<Topology> machine; // the machine it ran on; default: H200s on NVSwitch, as many as ranks
    std::string name = "profiled program";
    // The program still runs (`shardlab profile --live`): a collective timed by the host alone
    // (no GPU timer) counts as finished only once its stop has arrived; no steps are found (the
    // run stays in canonical order, one iteration).
    bool recordsStillArriving = false;
    // Other tools' files (engine/import), not the profiler's records: a missing or doubled rank is
    // worded as files given.
    bool imported = false;
    // How the program ended, when it did not end well ("the program exited with status 3",
    // error.line.program_*): a note of the run, since its records may end early.
    Message programEnd = {};
};

struct ProfiledRun {
    Scenario scenario;  // the observed program (profile_scenario.h)
    RunResult run;      // mode Live: measured
    std::string launch; // "2 processes on 1 host", "1 process driving 4 GPUs"
};

// Errors name the file and what is missing or inconsistent: a rank with no record, two files
// claiming one rank, ranks that disagree about a collective (kind or size).
Result<ProfiledRun> buildProfiledRun(const std::vector<ProfileFile>& files, const ProfileBuildOptions& options = {});

// NCCL's function name as ShardLab's operation ("AllReduce" -> AllReduce); nullopt for the ones
// ShardLab does not model (AllToAll, ...).
std::optional<OpKind> opFromNcclFunc(const std::string& func);

} // namespace shardlab
