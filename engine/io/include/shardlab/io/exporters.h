// Text forms of a run: the CLI table, the --json summary (keys fixed by PRODUCT.md), the
// Chrome/Perfetto trace and CSV tables.
#pragma once

#include "shardlab/analysis/summary.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <cstddef>
#include <iosfwd>
#include <string>

namespace shardlab {

// The table `shardlab sim` prints, its words and the summary's sentences in `language`.
std::string formatSummaryTable(const Scenario& scenario, const Summary& summary, Language language = Language::English);
std::string summaryJson(const Summary& summary);
// Chrome trace JSON: one process per rank, a thread per stream, "X" events for every span,
// flow events ("s"/"f") joining each collective across its ranks. Times in microseconds, printed
// to the nanosecond. "otherData.shardlab" carries the scenario and the run's other records
// (collectives, iterations, memory, hang report, notes), so that ShardLab reads the trace back as
// the run it was (trace_import.h); Perfetto shows it as metadata.
inline constexpr int kTraceFormatVersion = 1;

// Which iterations a trace holds: the first `iterations` of the run (0: every one). A trace that
// holds fewer than the run's is still a whole run of that many iterations: its records
// ("otherData.shardlab.run") keep only those iterations' collectives and iteration times,
// "otherData.shardlab.trace_iterations" says {"held": N, "of": TOTAL} and a note says so.
struct TraceOptions {
    int iterations = 0;
};
// What the command line writes unless told otherwise (--trace-iterations): the first iterations
// whose events (spans and flow arrows, about 200 bytes each as JSON) fit in this many, so that a
// trace of a long run stays near 200 MB, which Perfetto and chrome://tracing still open.
inline constexpr std::size_t kDefaultTraceEvents = 1'000'000;
// How many first iterations of `run` have at most `maxEvents` events together (at least one;
// every iteration when they all fit).
int traceIterationsWithin(const RunResult& run, std::size_t maxEvents = kDefaultTraceEvents);

// Streams the trace to `out` event by event: nothing but one event is built in memory, so a long
// run's trace costs no more memory than its run (a 100,000-iteration run's used to take 1.5 GB).
// Stops early when `out` fails (a full disk); the caller checks the stream (writeFileAtomicallyWith).
Status writeChromeTrace(std::ostream& out, const Scenario& scenario, const RunResult& run,
                        const TraceOptions& options = {});
// The same trace as a string (small runs, tests).
std::string chromeTrace(const Scenario& scenario, const RunResult& run, const TraceOptions& options = {});
// One field of a CSV file, as every CSV writer (these tables, the app's export of its tables)
// writes it: quoted when it holds a comma, a quote or a line break; and a text that a spreadsheet
// would take for a formula (it starts with =, +, -, @, a tab or a carriage return: a name such as
// "=HYPERLINK(...)") is neutralised as OWASP recommends, a single quote put in front and the field
// quoted ("'=HYPERLINK(...)"). A plain number (-1.5, +3e-2) stays a number.
std::string csvField(const std::string& text);
std::string perRankCsv(const Summary& summary);
std::string collectivesCsv(const Summary& summary);
std::string spansCsv(const Scenario& scenario, const RunResult& run);
// The spans table streamed to `out` row by row (what spansCsv returns).
Status writeSpansCsv(std::ostream& out, const Scenario& scenario, const RunResult& run);

} // namespace shardlab
