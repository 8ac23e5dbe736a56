// The readers behind importFiles (import_job.h): one per format, each in its own file, each given
// every file of the job (already sniffed as its format) and returning the job.
#pragma once

#include "shardlab/import/import_job.h"

#include <filesystem>
#include <vector>

namespace shardlab {

using ImportPaths = std::vector<std::filesystem::path>;

Result<ImportedJob> importKineto(const ImportPaths& paths, const ImportOptions& options);        // kineto_import.cpp
Result<ImportedJob> importInspector(const ImportPaths& paths, const ImportOptions& options);     // inspector_import.cpp
Result<ImportedJob> importProfileRecords(const ImportPaths& paths, const ImportOptions& options); // import_job.cpp
Result<ImportedJob> importFlightRecorder(const ImportPaths& paths, const ImportOptions& options); // flight_recorder_import.cpp

} // namespace shardlab
