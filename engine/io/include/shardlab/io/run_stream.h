// A run in progress as a stream of JSON lines (docs/result-format.md "Run streams"): what
// `shardlab sim|live FILE --stream` writes on standard output and what the app reads, locally
// and over SSH. One line per event: a header (format and ShardLab versions, the scenario as run,
// the machine), chunks (the spans, collectives and iteration marks each finished iteration added),
// progress, and at the end either the result (what a run fills in only when it ends: peak memory,
// paging, the hang report, notes) or an error. Versioned ("shardlab_stream": 1 or 2); a reader
// refuses another version with a message naming both versions and both ShardLab versions.
// Version 2 adds the open program of a profiled program (`shardlab profile --live`): a header
// whose program grows as the run does (its steps are not checked until the end), chunks with no
// known total, and a result that brings the final scenario and, where the chunks were provisional,
// the final timeline that replaces them. A writer writes 1 unless it uses these.
//
// The reader rebuilds exactly the RunResult the writer had (same spans, collectives and marks in
// the same order, doubles to the last bit), so a run read from a stream is the run that was made.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace shardlab {

inline constexpr int kStreamFormatVersion = 2;       // the newest this ShardLab reads and writes
inline constexpr int kStreamFormatVersionOldest = 1; // the oldest it reads
// A longer line is refused (a chunk of one iteration of the largest run the simulator accepts is
// far below it); a reader of a broken or hostile stream must not buffer without end.
inline constexpr size_t kMaxStreamLineBytes = 256u << 20;

struct StreamHeader {
    int format = kStreamFormatVersion;
    std::string shardlabVersion; // of the writer: "0.1.0"
    RunMode mode = RunMode::Simulated;
    Scenario scenario;               // as run (the topology the run was priced or measured on)
    std::optional<Topology> machine; // live: the machine measured on, when it was known
    std::string launch;              // "simulation", "single process", "Open MPI (mpirun), 4 processes"
    // Version 2: the program is not known in advance (a profiled program): the scenario names the
    // machine and ranks, its program grows with the run and comes whole with the result.
    bool openProgram = false;
};

// What the result line of an open program's stream brings beyond a run's own fields (version 2).
struct StreamEnding {
    const Scenario* scenario = nullptr; // the program as finally known
    // The chunks sent were provisional (re-timed at the end): the result line carries the whole
    // timeline, which replaces them. Otherwise what the chunks did not bring is sent as chunks.
    bool replaceTimeline = false;
};

// Writes the stream, one flushed line per call. Every call returns false once the output is gone
// (a closed pipe, a dropped SSH connection): the caller then cancels the run, which is how a
// remote run stops when the app stops reading (docs/remote.md "Cancel").
class RunStreamWriter {
public:
    explicit RunStreamWriter(std::ostream& out) : m_out(out) {}

    bool header(const StreamHeader& header);
    bool progress(int done, int total);
    // What `soFar` gained since the last chunk (SimulationOptions::iterationDone's contract:
    // later calls only append).
    bool chunk(const RunResult& soFar, int done, int total);
    // What `run` holds beyond the chunks sent so far, one chunk per iteration where the run is in
    // iteration order, then the result line.
    bool result(const RunResult& run, const StreamEnding& ending = {});
    bool error(const Error& error);
    bool ok() const;

private:
    bool line(const std::string& text);
    bool sendChunk(const RunResult& run, size_t spanEnd, size_t collectiveEnd, size_t iterationEnd, int done,
                   int total);

    std::ostream& m_out;
    size_t m_spans = 0, m_collectives = 0, m_iterations = 0;
    bool m_open = false;
};

// Reads a stream as its bytes arrive (in any pieces). The run so far only grows, as the
// simulator's does, so the GUI's streaming buffer takes it unchanged.
class RunStreamReader {
public:
    enum class Event { Header, Progress, Chunk, Result, Error };

    explicit RunStreamReader(std::string origin = "<stream>") : m_origin(std::move(origin)) {}

    // Parses every complete line in `bytes` (with what was left of the last call) and calls
    // `onEvent` after each. The first problem (not a stream, another format version, a damaged
    // line) stops reading and is returned again by every later call.
    Status feed(std::string_view bytes, const std::function<void(Event)>& onEvent = {});
    // The input ended: the finished run; or the error the writer reported (its kind kept); or,
    // when the stream stopped early, RunFailed "the stream ended after N of M iterations".
    Result<RunResult> finish();

    const std::optional<StreamHeader>& header() const { return m_header; }
    // The scenario the run is of: the result's (an open program's, version 2), else the header's.
    const Scenario* scenario() const;
    const RunResult& soFar() const { return m_run; } // spans, collectives and marks received
    int done() const { return m_done; }
    int total() const { return m_total; }
    bool finished() const { return m_finished; }
    const std::optional<Error>& reportedError() const { return m_reported; }
    // What arrived before the stream stopped early, as a run a view can show (its notes say so).
    RunResult partial() const;

private:
    Status parseLine(const std::string& line, Event* event);
    // One kind of line each (parseLine() says which); a JSON path error thrown is the caller's.
    void readError(const nlohmann::json& doc);
    Status readHeader(const nlohmann::json& doc, const std::string& text, const std::string& where);
    void readChunk(const nlohmann::json& doc);
    Status readResult(const nlohmann::json& doc, const std::string& where);

    std::string m_origin;
    std::string m_pending; // an incomplete last line
    size_t m_lineNo = 0;
    std::optional<Error> m_problem;
    std::optional<StreamHeader> m_header;
    std::optional<Scenario> m_final; // an open program's, from the result
    RunResult m_run;
    int m_done = 0, m_total = 0;
    bool m_finished = false;
    std::optional<Error> m_reported;
};

// A whole stream at once (files, tests, the fuzzer): the run it holds, through RunStreamReader.
Result<RunResult> readRunStream(std::string_view text, const std::string& origin = "<stream>",
                                StreamHeader* header = nullptr);

} // namespace shardlab
