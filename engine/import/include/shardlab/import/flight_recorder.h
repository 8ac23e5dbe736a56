// PyTorch Flight Recorder dumps (docs/importing.md): the ring buffer of collectives each rank's
// NCCL process group keeps (TORCH_FR_BUFFER_SIZE), dumped per rank as a pickle
// (`_dump_nccl_trace`, the dump on a watchdog timeout, TORCH_FR_DUMP_TEMP_FILE) or as JSON
// (`_dump_nccl_trace_json`). Format version "2.x" (2.10 as of PyTorch 2.11); a dump of another
// version is read where its fields are there, with a note, and refused where they are not.
// The pickle is read by a data-only reader that never runs anything (pickle_reader.h).
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/import/import_job.h"
#include "shardlab/text/message.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

struct FlightRecorderEntry {
    std::int64_t recordId = -1;
    std::int64_t collectiveSeqId = 0; // per process group, from 1 (0 on point-to-point entries)
    std::int64_t p2pSeqId = 0;
    std::int64_t opId = 0;
    std::int64_t pgId = -1;                                         // the entry's pg_id
    std::string pgName, pgDesc;                                     // process_group: ("0", "default_pg")
    std::string profilingName;                                      // "nccl:all_reduce"
    std::vector<std::vector<std::int64_t>> inputSizes, outputSizes; // one shape per tensor
    std::vector<std::string> inputDtypes, outputDtypes;             // "Float"
    std::string state;                                              // "scheduled", "started" or "completed"
    bool isP2p = false;
    bool retired = false;
    std::int64_t timeCreatedNs = 0; // CPU wall clock (ns since 1970) when the collective was enqueued
    // When the watchdog noticed the start (only with TORCH_NCCL_ENABLE_TIMING) and the completion;
    // nullopt where the dump has None or 0.
    std::optional<std::int64_t> timeDiscoveredStartedNs, timeDiscoveredCompletedNs;
    std::optional<std::int64_t> timeoutMs;
    // "all_reduce" (profiling_name without its "nccl:" prefix)
    std::string opName() const;
    // Elements of every input tensor together.
    std::int64_t inputElements() const;
    bool completed() const { return state == "completed"; }
};

// One process group of pg_config: its members' global ranks.
struct FlightRecorderGroup {
    std::string name, desc;
    std::vector<int> ranks;
    bool operator==(const FlightRecorderGroup&) const = default;
};

struct FlightRecorderDump {
    std::string origin; // the file it came from
    bool pickle = false;
    std::string version;        // "2.10"
    std::string commLibVersion; // NCCL's: "2.28.9"
    // The rank that wrote it: a "rank" field where the dump has one, else the number that ends the
    // file's name (PyTorch names dumps <prefix><rank>: fr_rank0, fr_ontimeout_rank1.pkl).
    std::optional<int> rank;
    std::map<std::string, FlightRecorderGroup> groups; // pg_config, by name
    std::vector<FlightRecorderEntry> entries;          // in the dump's order (record_id)
    std::vector<Message> notes;                        // what was read with doubt or left out
};

// The rank that ends a dump's file name ("fr_hang_rank1.json" -> 1), after .gz, .pkl, .json and
// .pickle are taken off; nullopt where the name ends in no number.
std::optional<int> rankFromDumpName(const std::string& path);

// A dump in memory, pickle (first byte 0x80) or JSON; `origin` names it in messages and gives the
// rank where the dump has none. Errors name the file and what is wrong.
Result<FlightRecorderDump> parseFlightRecorder(std::string_view bytes, const std::string& origin);
Result<FlightRecorderDump> readFlightRecorder(const std::filesystem::path& path);

// The element size of a PyTorch dtype as Flight Recorder names it ("Float" 4, "BFloat16" 2);
// nullopt for one ShardLab does not know.
std::optional<int> torchDtypeBytes(const std::string& dtype);

// The dumps of one job (one per rank, any order) as ShardLab's run: the hang view (run.hang: each
// rank's last completed collective of the process group at fault, what each rank is blocked in or
// never called, the first rank that differs, the explanation), set whenever a rank never called a
// collective the others called, ranks called one differently (op, sizes or dtypes), one never
// completed, or a rank of the job left no dump; and a timeline of every collective all members
// called the same way and completed, up to the first problem of its process group (built by the
// profiler's builder, profile_build.h), with the clock note saying what the times are. Refused,
// naming the files: a dump whose rank cannot be told, two dumps of one rank, dumps of different jobs
// (their process groups differ), a rank outside the job.
Result<ImportedJob> flightRecorderJob(const std::vector<FlightRecorderDump>& dumps, const ImportOptions& options = {});

} // namespace shardlab
