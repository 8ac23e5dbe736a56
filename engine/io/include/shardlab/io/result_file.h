// ShardLab result files (.shardlab-result.json): a finished run with what is needed to show it
// again anywhere (the GUI, `shardlab report`, a script): the scenario, the run, how it was made
// and, for live runs, how the clocks were aligned and on which machine. Versioned JSON
// ("shardlab_result": 1); the format is in docs/result-format.md.
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <filesystem>
#include <optional>
#include <string>

namespace shardlab {

inline constexpr int kResultFormatVersion = 1;

struct ResultFile {
    Scenario scenario;
    RunResult run;
    std::string createdBy;           // "ShardLab 0.1.0"
    std::string launch;              // "single process", "Open MPI (mpirun), 4 processes on 2 hosts"
    std::optional<Topology> machine; // the machine measured on (live), when it was fully known
    // run.mode and run.clockNote are the file's "mode" and "clock".
};

std::string serializeResult(const ResultFile& result);
// Checks the format version, the scenario, the run, and that the run fits the scenario (every
// index refers to something that exists), naming the JSON path of the first problem.
Result<ResultFile> parseResult(const std::string& text, const std::string& origin = "<result>");
Status saveResult(const ResultFile& result, const std::filesystem::path& path); // atomic
Result<ResultFile> loadResult(const std::filesystem::path& path);

} // namespace shardlab
