#include "shardlab/import/import_job.h"

#include "import_readers.h"

#include "shardlab/import/import_format.h"
#include "shardlab/import/input_file.h"
#include "shardlab/import/nccl_tests.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_reader.h"
#include "shardlab/text/foreign_text.h"

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
    // (.txt: notes beside the files, except the trace files of NCCL's example profiler plugin
    // before 2.27, which it names PREFIX-HOST-TID.txt)
    if (p.extension() == ".txt")
        return sniffImportFormat(name, readInputHead(p, 4096)) != ImportFormat::NcclProfilerTrace;
    return lower.rfind("readme", 0) == 0 || p.extension() == ".md";
}

// Which command takes a file of this format, for the one line that says so.
Message takenBy(ImportFormat f)
{
    switch (f) {
    case ImportFormat::ShardLabScenario:
        return Message("error.import.command_or")
            .with("command", "shardlab sim FILE")
            .with("others", "diagnose, report");
    case ImportFormat::Unknown: return Message("error.import.command_none");
    default: return verbatim("shardlab import FILES...");
    }
}

// The format's name, worded ("PyTorch profiler (Kineto) trace").
Message formatName(ImportFormat f) { return Message(importFormatMessageId(f)); }

} // namespace

Result<std::vector<std::filesystem::path>> expandImportPaths(const std::vector<std::filesystem::path>& paths)
{
    std::vector<std::filesystem::path> out;
    for (const auto& p : paths) {
        std::error_code ec;
        if (!std::filesystem::exists(p, ec))
            return badInput(Message("error.import.no_such_path").with("file", p.string()));
        if (!std::filesystem::is_directory(p, ec)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::filesystem::path> inside;
        for (const auto& entry : std::filesystem::directory_iterator(p, ec))
            if (entry.is_regular_file(ec) && !skippedInFolder(entry.path()))
                inside.push_back(entry.path());
        if (ec)
            return badInput(
                Message("error.import.cannot_list").with("folder", p.string()).with("why", systemWords(ec.message())));
        if (inside.empty())
            return badInput(Message("error.import.empty_folder").with("folder", p.string()));
        std::sort(inside.begin(), inside.end());
        out.insert(out.end(), inside.begin(), inside.end());
    }
    if (out.empty())
        return badInput(Message("error.import.no_file"));
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
    return buildImportedJob(files, options, ProfileBuildOptions{}.name, false);
}

Result<ImportedJob> buildImportedJob(const std::vector<ProfileFile>& files, const ImportOptions& options,
                                     const std::string& name, bool otherTools)
{
    ProfileBuildOptions build;
    build.machine = options.machine;
    build.name = name;
    build.imported = otherTools;
    auto built = buildProfiledRun(files, build);
    if (!built)
        return built.error();
    ImportedJob job;
    job.scenario = std::move(built->scenario);
    job.run = std::move(built->run);
    job.launch = built->launch;
    return job;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

ImportProgress::ImportProgress(const ImportPaths& paths, ReadProgress progress) : m_progress(std::move(progress))
{
    for (const auto& p : paths) {
        std::error_code ec;
        const std::uint64_t size = std::filesystem::file_size(p, ec);
        m_total += ec ? 0 : size;
    }
}

Status ImportProgress::read(const std::filesystem::path& path, const std::function<Status(std::string_view)>& feed)
{
    Status st = readInputChunks(path, feed, [this](std::uint64_t done, std::uint64_t) {
        return !m_progress || m_progress(m_before + done, m_total);
    });
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    m_before += ec ? 0 : size;
    return st;
}

Result<ImportedJob> buildToolJob(const std::vector<ProfileFile>& files, const ImportOptions& options,
                                 const ToolWords& words)
{
    auto built = buildImportedJob(files, options, words.name);
    if (!built)
        return built;
    built->scenario.description = "The job as " + words.recordedIt + " (" + built->launch + ").";
    built->launch += ", " + words.files;
    return built;
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
        if (formats[i] == ImportFormat::Unknown || formats[i] == ImportFormat::ShardLabScenario)
            return badInput(Message("error.import.not_a_run")
                                .with("file", paths[i].string())
                                .with("format", formatName(formats[i]))
                                .with("command", takenBy(formats[i])));
        if (formats[i] != format)
            return badInput(Message("error.import.mixed")
                                .with("file", paths[i].string())
                                .with("format", formatName(formats[i]))
                                .with("first", paths.front().string())
                                .with("first_format", formatName(format)));
    }
    const bool single = format == ImportFormat::ShardLabResult || format == ImportFormat::ShardLabTrace;
    if (single && paths.size() > 1)
        return badInput(
            Message("error.import.single").with("file", paths[1].string()).with("format", formatName(format)));
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
    case ImportFormat::NsightSqlite: job = importNsight(paths, options); break;
    case ImportFormat::NcclProfilerTrace: job = importNcclProfiler(paths, options); break;
    default:
        return badInput(Message("error.import.unsupported")
                            .with("file", paths.front().string())
                            .with("format", formatName(format)));
    }
    if (!job)
        return job;
    job->format = format;
    for (const auto& p : paths)
        job->files.push_back(p.string());
    return job;
}

} // namespace shardlab
