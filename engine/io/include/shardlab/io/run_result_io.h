// A RunResult as bytes and back, without loss: JSON text (result files, docs/mpi.md "Result
// files") and CBOR, the same tree in binary (what the processes of a multi-process run send to
// rank 0). Collective arrivals a process did not see are NaN in memory and null in the file.
#pragma once

#include "shardlab/base/bytes.h"
#include "shardlab/base/result.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <string>

namespace shardlab {

std::string serializeRunResult(const RunResult& run);
Result<RunResult> parseRunResult(const std::string& text, const std::string& origin = "<run>");
Bytes8 encodeRunResult(const RunResult& run);
Result<RunResult> decodeRunResult(const Bytes8& bytes, const std::string& origin = "<run>");

// Whether every index in `run` refers to something that exists (ranks below run.ranks, ops of
// the scenario's program, collective indices, group members, one arrival per member), so that
// the exporters and the GUI can read it. The message names the first problem.
Status checkRunAgainstScenario(const RunResult& run, const Scenario& scenario);

} // namespace shardlab
