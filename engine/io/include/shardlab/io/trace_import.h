// Reading back a Chrome/Perfetto trace that ShardLab wrote (`shardlab sim|live --trace`, also under
// mpirun, where rank 0 writes the merged run). The exporter (exporters.h) puts the scenario and the
// run's records other than its spans into the trace's "otherData.shardlab", and every span is an
// "X" event; together they read back into the same Scenario and RunResult (times to the
// nanosecond, as the trace prints them).
//
// A trace without that block (written before ShardLab carried it) is read against a scenario the
// caller supplies: spans come from the events, each collective is rebuilt from its spans and flow
// events (group, arrivals, start, end, who was last), its size from the scenario; what cannot be
// known (algorithm, protocol, peak memory) is left out and a note says so.
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <filesystem>
#include <string>

namespace shardlab {

struct ImportedTrace {
    Scenario scenario;
    RunResult run;
    bool scenarioFromTrace = true; // false: the trace had no scenario and `fallback` was used
};

// `origin` names the trace in messages. `fallback` (may be null) is the scenario a trace without
// its own is read against; the run must fit it (same ranks, every step exists).
Result<ImportedTrace> parseChromeTrace(const std::string& text, const std::string& origin = "<trace>",
                                       const Scenario* fallback = nullptr);
Result<ImportedTrace> loadChromeTrace(const std::filesystem::path& path, const Scenario* fallback = nullptr);

} // namespace shardlab
