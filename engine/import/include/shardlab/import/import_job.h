// Importing what other tools recorded (docs/importing.md): the files of one job, each format read
// by its own reader, into the same Scenario + RunResult the simulator, live mode and `shardlab
// profile` produce, so that the app, `diagnose`, `report`, the what-if and `shardlab import` show
// it the same way. nccl-tests output is a sweep, not a job: it comes back as a measured sweep.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/import/import_format.h"
#include "shardlab/import/input_file.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct NcclTestsSweep; // nccl_tests.h

struct ImportOptions {
    std::optional<Topology> machine; // the machine it ran on; default: H200s on NVSwitch, as many as ranks
    ReadProgress progress;           // over all files' bytes; false cancels
};

struct ImportedJob {
    ImportFormat format = ImportFormat::Unknown;
    std::vector<std::string> files; // the paths read, in the order given
    // A job (every format but nccl-tests):
    Scenario scenario;  // the program as observed (profile_scenario.h)
    RunResult run;      // mode Live: measured
    std::string launch; // "2 ranks, PyTorch profiler traces"
    // nccl-tests: the measured sweep (scenario and run left empty).
    std::shared_ptr<const NcclTestsSweep> sweep;
};

// Every path given, folders expanded to the files in them (sorted by name), each sniffed; all must
// be of one format (a ShardLab result or trace: exactly one file). An error names the file that is
// of another kind and says which command takes it.
Result<ImportedJob> importFiles(const std::vector<std::filesystem::path>& paths, const ImportOptions& options = {});

// The files a folder or list of paths stands for: folders expanded one level, sorted by name;
// hidden files and README/.txt files in a folder skipped.
Result<std::vector<std::filesystem::path>> expandImportPaths(const std::vector<std::filesystem::path>& paths);

} // namespace shardlab
