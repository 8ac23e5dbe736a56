// The readers behind importFiles (import_job.h): one per format, each in its own file, each given
// every file of the job (already sniffed as its format) and returning the job.
#pragma once

#include "shardlab/import/import_job.h"
#include "shardlab/import/input_file.h"
#include "shardlab/profile/profile_reader.h"

#include <filesystem>
#include <functional>
#include <vector>

namespace shardlab {

using ImportPaths = std::vector<std::filesystem::path>;

// The job the profiler's builder makes of `files` (profile_build.h): run, observed scenario named
// `name`, launch; on the machine options.machine names. What each format adds (description, clock
// sentence, notes) its reader sets. `otherTools`: the files are another tool's (a rank missing or
// recorded twice is worded as files given), not ShardLab's profiler's records.
Result<ImportedJob> buildImportedJob(const std::vector<ProfileFile>& files, const ImportOptions& options,
                                     const std::string& name, bool otherTools = true);

// Reading a job's files one after another with one progress for all of them, by bytes on disk.
class ImportProgress {
public:
    ImportProgress(const ImportPaths& paths, ReadProgress progress);
    // `path`'s (decompressed) text to `feed`, piece by piece (readInputChunks); cancel through the
    // progress gives ErrorKind::Cancelled.
    Status read(const std::filesystem::path& path, const std::function<Status(std::string_view)>& feed);

private:
    ReadProgress m_progress;
    std::uint64_t m_total = 0, m_before = 0;
};

// The median of `values` (the mean of the middle two for an even count; 0 for none): how the
// readers that check a shared clock summarise the spread of a collective's ends.
double median(std::vector<double> values);

// How a tool's files are named in the job it makes: its scenario's name ("NCCL job (Inspector
// logs)"), how the tool recorded it ("NCCL Inspector logged it": the description "The job as
// NCCL Inspector logged it (2 processes on 1 host).") and the files (", NCCL Inspector logs" after
// the launch).
struct ToolWords {
    std::string name, recordedIt, files;
};
// buildImportedJob of another tool's files, described in `words`.
Result<ImportedJob> buildToolJob(const std::vector<ProfileFile>& files, const ImportOptions& options,
                                 const ToolWords& words);

Result<ImportedJob> importKineto(const ImportPaths& paths, const ImportOptions& options);    // kineto_import.cpp
Result<ImportedJob> importInspector(const ImportPaths& paths, const ImportOptions& options); // inspector_import.cpp
Result<ImportedJob> importProfileRecords(const ImportPaths& paths, const ImportOptions& options); // import_job.cpp
Result<ImportedJob> importNsight(const ImportPaths& paths, const ImportOptions& options);         // nsight_import.cpp
Result<ImportedJob> importNcclProfiler(const ImportPaths& paths,
                                       const ImportOptions& options); // nccl_profiler_import.cpp
Result<ImportedJob> importFlightRecorder(const ImportPaths& paths,
                                         const ImportOptions& options); // flight_recorder_import.cpp

} // namespace shardlab
