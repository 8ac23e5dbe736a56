// One trace file of NCCL's example profiler plugin (NVIDIA/nccl, plugins/profiler/example; before
// 2.29 ext-profiler/example): Chrome trace events, one per line, that the plugin writes when a
// communicator is destroyed, one file per communicator and rank (`${NCCL_PROFILE_DUMP_FILE}_HASH_RANK.json`;
// before 2.27 one per thread, `...-HOST-TID.txt`). docs/importing.md, "NCCL's example profiler plugin".
//
// Read here: each collective (`"cat": "COLL"`: SeqNum, CommHash, Rank, Count, Datatype) and
// point-to-point call (`"cat": "P2P"`: CommHash, Rank, Peer, Count, Datatype), the group it was
// issued in, and its kernel channels (`"cat": "GPU"` between its begin and end: StartGpuClk,
// StopGpuClk, the GPU's %globaltimer in ns). Everything else (API, proxy, network events) is
// skipped. The plugin's JSON is not strict: bare names (`"datatype": ncclFloat32`), bare pointers
// (`0x7f00...`, `(nil)`) are read as strings.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/profile/profile_reader.h"

#include <map>
#include <string>
#include <utility>
#include <string_view>

namespace shardlab {

struct NcclProfilerTraceCounts {
    int untimed = 0;   // collectives and send/receive calls without a timed kernel channel
    int cutFiles = 0;  // files without the plugin's closing "{}]" (not written to their end)
    int orphanGpu = 0; // kernel channels outside any collective's begin and end
};

// One file's events: ops in the file's order, each naming its communicator and rank (hash, rank:
// `context` numbers the (communicator, rank) pairs of the file); kernel channels on the GPU timer;
// hostNs/stopNs the plugin's `ts` (µs since that process's plugin started: not comparable across
// processes). An error names the file, the line and what is wrong; a file without any collective
// or send/receive names what to set.
Result<ProfileFile> parseNcclProfilerTrace(std::string_view text, const std::string& origin,
                                           NcclProfilerTraceCounts* counts = nullptr);

// Incremental form of parseNcclProfilerTrace, for a file read in pieces.
class NcclProfilerTraceReader {
public:
    NcclProfilerTraceReader(std::string origin, NcclProfilerTraceCounts& counts);
    Status feed(std::string_view piece);
    Result<ProfileFile> finish();

private:
    Status take(const std::string& line);

    ProfileFile m_file;
    NcclProfilerTraceCounts& m_counts;
    std::string m_pending;
    int m_lineNo = 0;
    std::uint64_t m_groups = 0; // groups begun so far
    std::uint64_t m_group = 0;  // the open group (0: none)
    std::ptrdiff_t m_open = -1; // the op whose begin was read and whose end was not (-1: none)
    std::map<std::pair<std::uint64_t, int>, std::int64_t> m_contexts; // (communicator, rank) -> context
    bool m_ended = false;                                             // the closing "{}]" was read
};

// The line with every bare value (a name or pointer the plugin printed without quotes) quoted, so
// that a JSON parser reads it: `"datatype": ncclFloat32` -> `"datatype": "ncclFloat32"`.
std::string quoteBareValues(std::string_view line);

} // namespace shardlab
