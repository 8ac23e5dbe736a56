// Which format a file other tools (or ShardLab) wrote is in, judged from its name and its first
// bytes (decompressed where the file is gzip), so that `shardlab import`, `diagnose`, `report` and
// File > Open send it to the right reader, and a file of another kind gets one line saying what it
// is and which command takes it.
#pragma once

#include <string>
#include <string_view>

namespace shardlab {

enum class ImportFormat {
    ShardLabScenario,  // .shardlab.json: simulate it (`shardlab sim`), not an observed run
    ShardLabResult,    // .shardlab-result.json
    ShardLabTrace,     // Chrome trace ShardLab wrote (otherData.shardlab)
    ProfileRecords,    // ShardLab's own NCCL profiler records (*.nccl-profile.jsonl)
    Kineto,            // PyTorch profiler Chrome trace, one per rank
    FlightRecorder,    // PyTorch Flight Recorder dump (pickle or JSON), one per rank
    NcclInspector,     // NCCL Inspector plugin log (JSON lines), one per process
    NcclTests,         // nccl-tests -J output (JSON, format version 3)
    NsightSqlite,      // Nsight Systems SQLite export
    NcclProfilerTrace, // NCCL's example profiler plugin's trace, one per communicator and rank
    Unknown,
};

// The format's name as users know it ("PyTorch profiler (Kineto) trace"), in English; messages
// name it by its catalogue entry, importFormatMessageId.
std::string_view importFormatName(ImportFormat format);
// "import.format.kineto": the catalogue entry of the name.
std::string importFormatMessageId(ImportFormat format);

// `name`: the file's name; `head`: its first bytes (up to 64 KiB), already decompressed.
ImportFormat sniffImportFormat(const std::string& name, std::string_view head);

} // namespace shardlab
