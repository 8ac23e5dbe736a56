#include "shardlab/import/import_format.h"

#include "shardlab/io/file_kind.h"

namespace shardlab {

namespace {

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool has(std::string_view head, std::string_view what) { return head.find(what) != std::string_view::npos; }

} // namespace

std::string_view importFormatName(ImportFormat format)
{
    switch (format) {
    case ImportFormat::ShardLabScenario: return "ShardLab scenario";
    case ImportFormat::ShardLabResult: return "ShardLab result file";
    case ImportFormat::ShardLabTrace: return "ShardLab Chrome trace";
    case ImportFormat::ProfileRecords: return "ShardLab NCCL profiler records";
    case ImportFormat::Kineto: return "PyTorch profiler (Kineto) trace";
    case ImportFormat::FlightRecorder: return "PyTorch Flight Recorder dump";
    case ImportFormat::NcclInspector: return "NCCL Inspector log";
    case ImportFormat::NcclTests: return "nccl-tests JSON output";
    case ImportFormat::NsightSqlite: return "Nsight Systems SQLite export";
    case ImportFormat::NcclProfilerTrace: return "NCCL example profiler plugin trace";
    case ImportFormat::Unknown: break;
    }
    return "file of unknown kind";
}

std::string importFormatMessageId(ImportFormat format)
{
    switch (format) {
    case ImportFormat::ShardLabScenario: return "import.format.scenario";
    case ImportFormat::ShardLabResult: return "import.format.result";
    case ImportFormat::ShardLabTrace: return "import.format.trace";
    case ImportFormat::ProfileRecords: return "import.format.records";
    case ImportFormat::Kineto: return "import.format.kineto";
    case ImportFormat::FlightRecorder: return "import.format.flight_recorder";
    case ImportFormat::NcclInspector: return "import.format.inspector";
    case ImportFormat::NcclTests: return "import.format.nccl_tests";
    case ImportFormat::NsightSqlite: return "import.format.nsight";
    case ImportFormat::NcclProfilerTrace: return "import.format.ncclprof";
    case ImportFormat::Unknown: break;
    }
    return "import.format.unknown";
}

ImportFormat sniffImportFormat(const std::string& name, std::string_view head)
{
    if (head.substr(0, 16) == std::string_view("SQLite format 3\0", 16))
        return ImportFormat::NsightSqlite;
    // Pickle (protocol 2-5) of a Flight Recorder dump: a dict whose keys include these.
    if (head.size() > 2 && static_cast<unsigned char>(head[0]) == 0x80 && has(head, "entries")
        && has(head, "pg_config"))
        return ImportFormat::FlightRecorder;
    if (endsWith(name, ".nccl-profile.jsonl") || has(head.substr(0, 200), "\"shardlab_nccl_profile\""))
        return ImportFormat::ProfileRecords;
    // NCCL's example profiler plugin: Chrome async events ("ph": "b") of its own categories, one
    // per line as its print_event.cc writes them (before fileKindOf, which would call it a trace).
    if (head.substr(0, 1) == "[" && has(head, "\"ph\": \"b\"")
        && (has(head, "\"cat\": \"GROUP_API\"") || has(head, "\"cat\": \"GROUP\"") || has(head, "\"cat\": \"COLL")
            || has(head, "\"cat\": \"P2P") || has(head, "\"cat\": \"PROXY\"")))
        return ImportFormat::NcclProfilerTrace;
    // ... and its file of a communicator on which it recorded nothing: "[", "{}]" and no event.
    if (head.find_first_not_of(" \t\r\n[{}]") == std::string_view::npos && has(head, "{}]") && head.substr(0, 1) == "[")
        return ImportFormat::NcclProfilerTrace;
    const std::string text(head);
    switch (fileKindOf(name, text)) {
    case FileKind::Scenario: return ImportFormat::ShardLabScenario;
    case FileKind::Result: return ImportFormat::ShardLabResult;
    case FileKind::Trace:
        // ShardLab's own traces carry their scenario in otherData.shardlab and begin with
        // displayTimeUnit; Kineto's carry the profiler's own keys.
        if (has(head, "\"schemaVersion\"") || has(head, "\"distributedInfo\"") || has(head, "\"deviceProperties\"")
            || has(head, "\"baseTimeNanoseconds\"") || has(head, "ProfilerStep#") || has(head, "\"cat\": \"kernel\"")
            || has(head, "\"cat\":\"kernel\""))
            return ImportFormat::Kineto;
        return ImportFormat::ShardLabTrace;
    case FileKind::Unknown: break;
    }
    if (has(head, "\"entries\"")
        && (has(head, "\"pg_config\"") || has(head, "\"comm_lib_version\"") || has(head, "\"pg_status\"")))
        return ImportFormat::FlightRecorder;
    if (has(head, "\"coll_perf\"") || (has(head, "\"inspector_output_format_version\"")))
        return ImportFormat::NcclInspector;
    if (has(head, "\"version\"") && has(head, "\"args\"") && has(head, "_perf")
        && (has(head, "\"nccl_version\"") || has(head, "\"start_time\"")))
        return ImportFormat::NcclTests;
    return ImportFormat::Unknown;
}

} // namespace shardlab
