// A finished run with everything that is shown beside it: the summary, the playback index and, for
// a measured run, the simulation of the same scenario with the comparison phase by phase. The
// desktop app, the command line and the profiler make it here, so all of them show the same.
#pragma once

#include "shardlab/analysis/sim_vs_measured.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/sim/activity.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace shardlab {

struct PreparedRun {
    std::shared_ptr<const RunResult> run;
    Summary summary;                               // summarize(scenario, *run)
    std::shared_ptr<const ActivityIndex> activity; // for playback
    std::shared_ptr<const RunResult> reference;    // measured runs: the simulation of the same scenario
    std::optional<RunComparison> comparison;       // measured runs: compareRuns(scenario, *run, *reference)
    std::string referenceError;                    // why a measured run has no reference, if it has none
};

// `model` is the cost model of the scenario's topology and profile. A run whose mode is Live gets
// its reference simulation; its failure is kept in referenceError, not returned. Returns
// ErrorKind::Cancelled when `cancel` is set before the work is done.
Result<PreparedRun> prepareRun(const Scenario& scenario, std::shared_ptr<const RunResult> run, CostModel& model,
                               const std::atomic<bool>* cancel = nullptr);

} // namespace shardlab
