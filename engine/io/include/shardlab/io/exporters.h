// Text forms of a run: the CLI table, the --json summary (keys fixed by PRODUCT.md), the
// Chrome/Perfetto trace and CSV tables.
#pragma once

#include "shardlab/analysis/summary.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <string>

namespace shardlab {

std::string formatSummaryTable(const Scenario& scenario, const Summary& summary);
std::string summaryJson(const Summary& summary);
// Chrome trace JSON: one process per rank, a thread per stream, "X" events for every span,
// flow events ("s"/"f") joining each collective across its ranks. Times in microseconds, printed
// to the nanosecond. "otherData.shardlab" carries the scenario and the run's other records
// (collectives, iterations, memory, hang report, notes), so that ShardLab reads the trace back as
// the run it was (trace_import.h); Perfetto shows it as metadata.
inline constexpr int kTraceFormatVersion = 1;
std::string chromeTrace(const Scenario& scenario, const RunResult& run);
std::string perRankCsv(const Summary& summary);
std::string collectivesCsv(const Summary& summary);
std::string spansCsv(const Scenario& scenario, const RunResult& run);

} // namespace shardlab
