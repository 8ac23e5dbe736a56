#include "shardlab/import/import_job.h"

#include "import_readers.h"

#include "shardlab/import/nccl_tests.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_reader.h"

#include <algorithm>
#include <system_error>

namespace shardlab {

namespace {

bool skippedInFolder(const std::filesystem::path& p)
{
    const std::string name = p.filename().string();
    if (name.empty() || name[0] == '.')
        return true;
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.rfind("readme", 0) == 0 || p.extension() == ".txt" || p.extension() == ".md";
}

// Which command takes a file of this format, for the one line that says so.
std::string takenBy(ImportFormat f)
{
    switch (f) {
    case ImportFormat::ShardLabScenario: return "shardlab sim FILE (or diagnose, report)";
    case ImportFormat::NsightSqlite:
        return "no command yet: export the run with the PyTorch profiler or NCCL Inspector instead";
    case ImportFormat::Unknown:
        return "none: ShardLab reads Kineto traces, Flight Recorder dumps, NCCL Inspector logs, nccl-tests -J "
               "JSON, its own result files, traces and profiler records";
    default: return "shardlab import FILES...";
    }
}

} // namespace

Result<std::vector<std::filesystem::path>> expandImportPaths(const std::vector<std::filesystem::path>& paths)
{
    std::vector<std::filesystem::path> out;
    for (const auto& p : paths) {
        std::error_code ec;
        if (!std::filesystem::exists(p, ec))
            return badInput(p.string() + ": no such file or folder");
        if (!std::filesystem::is_directory(p, ec)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::filesystem::path> inside;
        for (const auto& entry : std::filesystem::directory_iterator(p, ec))
            if (entry.is_regular_file(ec) && !skippedInFolder(entry.path()))
                inside.push_back(entry.path());
        if (ec)
            return badInput(p.string() + ": cannot list the folder (" + ec.message() + ")");
        if (inside.empty())
            return badInput(p.string() + ": the folder holds no file to read");
        std::sort(inside.begin(), inside.end());
        out.insert(out.end(), inside.begin(), inside.end());
    }
    if (out.empty())
        return badInput("no file given");
    std::vector<std::filesystem::path> unique;
    for (const auto& p : out) {
        std::error_code ec;
        const auto canonical = std::filesystem::weakly_canonical(p, ec);
        bool seen = false;
        for (const auto& q : unique)
            seen = seen || std::filesystem::weakly_canonical(q, ec) == canonical;
        if (!seen)
            unique.push_back(p);
    }
    return unique;
}

Result<ImportedJob> importProfileRecords(const ImportPaths& paths, const ImportOptions& options)
{
    std::vector<ProfileFile> files;
    for (const auto& p : paths) {
        auto file = readProfileFile(p);
        if (!file)
            return file.error();
        files.push_back(std::move(*file));
    }
    return buildImportedJob(files, options, ProfileBuildOptions{}.name);
}

Result<ImportedJob> buildImportedJob(const std::vector<ProfileFile>& files, const ImportOptions& options,
                                     const std::string& name)
{
    ProfileBuildOptions build;
    build.machine = options.machine;
    build.name = name;
    auto built = buildProfiledRun(files, build);
    if (!built)
        return built.error();
    ImportedJob job;
    job.scenario = std::move(built->scenario);
    job.run = std::move(built->run);
    job.launch = built->launch;
    return job;
}

Result<ImportedJob> importFiles(const std::vector<std::filesystem::path>& given, const ImportOptions& options)
{
    auto expanded = expandImportPaths(given);
    if (!expanded)
        return expanded.error();
    const std::vector<std::filesystem::path>& paths = *expanded;
    std::vector<ImportFormat> formats;
    for (const auto& p : paths)
        formats.push_back(sniffImportFormat(p.filename().string(), readInputHead(p)));
    const ImportFormat format = formats.front();
    for (size_t i = 0; i < paths.size(); ++i) {
        if (formats[i] == ImportFormat::Unknown || formats[i] == ImportFormat::ShardLabScenario
            || formats[i] == ImportFormat::NsightSqlite)
            return badInput(paths[i].string() + ": " + std::string(importFormatName(formats[i]))
                            + ", not a recorded run; command: " + takenBy(formats[i]));
        if (formats[i] != format)
            return badInput(paths[i].string() + " is a " + std::string(importFormatName(formats[i])) + ", but "
                            + paths.front().string() + " is a " + std::string(importFormatName(format))
                            + ": import the files of one job, of one kind, together");
    }
    const bool single = format == ImportFormat::ShardLabResult || format == ImportFormat::ShardLabTrace;
    if (single && paths.size() > 1)
        return badInput(paths[1].string() + ": a " + std::string(importFormatName(format))
                        + " holds the whole run; give one such file at a time");
    Result<ImportedJob> job = Error{};
    switch (format) {
    case ImportFormat::ShardLabResult: {
        auto r = loadResult(paths.front());
        if (!r)
            return r.error();
        ImportedJob j;
        j.scenario = std::move(r->scenario);
        j.run = std::move(r->run);
        j.launch = r->launch;
        job = std::move(j);
        break;
    }
    case ImportFormat::ShardLabTrace: {
        auto t = loadChromeTrace(paths.front());
        if (!t)
            return t.error();
        ImportedJob j;
        j.scenario = std::move(t->scenario);
        j.run = std::move(t->run);
        job = std::move(j);
        break;
    }
    case ImportFormat::ProfileRecords: job = importProfileRecords(paths, options); break;
    case ImportFormat::Kineto: job = importKineto(paths, options); break;
    case ImportFormat::NcclInspector: job = importInspector(paths, options); break;
    case ImportFormat::NcclTests: {
        // One file is one whole sweep (its own sizes, ranks and collective): several would be
        // several tables, not one job, and taking the first alone would drop the others unseen.
        if (paths.size() > 1)
            return badInput(Message("error.line.nccl_tests_one_file")
                                .with("file", paths[1].string())
                                .with("first", paths.front().string()));
        auto text = readInputText(paths.front(), 1ull << 30, options.progress);
        if (!text)
            return text.error();
        auto sweep = parseNcclTestsJson(*text, paths.front().string());
        if (!sweep)
            return sweep.error();
        ImportedJob j;
        j.sweep = std::make_shared<const NcclTestsSweep>(std::move(*sweep));
        job = std::move(j);
        break;
    }
    case ImportFormat::FlightRecorder: job = importFlightRecorder(paths, options); break;
    default:
        return badInput(paths.front().string() + ": " + std::string(importFormatName(format))
                        + ": ShardLab cannot read this kind of file yet");
    }
    if (!job)
        return job;
    job->format = format;
    for (const auto& p : paths)
        job->files.push_back(p.string());
    return job;
}

} // namespace shardlab
