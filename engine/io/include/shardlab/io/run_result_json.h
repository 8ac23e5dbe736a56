// RunResult <-> nlohmann::json, shared by the result file, the gather of a multi-process run and
// its tests. Private to the engine; the public forms are in run_result_io.h.
#pragma once

#include "shardlab/base/json_reader.h"
#include "shardlab/model/run_result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace shardlab::detail {

nlohmann::json runResultToJson(const RunResult& run);
// Everything of a run but its spans, collectives and iteration times (mode, ranks, devices, the
// clock and the notes with their messages, peak memory, paging, the hang report): the one writer
// and reader of a run's metadata, for result files, the run stream's last line and traces.
nlohmann::json runMetaToJson(const RunResult& run);
// Sets those fields of `run` (the rest is left as it is); throws JsonPathError below `path`.
void runMetaFromJson(const nlohmann::json& v, const std::string& path, RunResult& run);
// "sim" or "live" at `path`, or JsonPathError.
RunMode modeAt(const nlohmann::json& v, const std::string& path);
// Its "collectives" and "iterations" entries one at a time, for writers that stream them.
nlohmann::json collectiveToJson(const CollectiveRecord& record);
nlohmann::json iterationToJson(const IterationMark& mark);
nlohmann::json spanToJson(const Span& span); // an array in the order of spanFieldsJson()
nlohmann::json spanFieldsJson();
nlohmann::json hangToJson(const std::optional<HangReport>& hang); // null when there is none
// Each entry back; throws JsonPathError naming the JSON path below `path` that is wrong.
Span spanFromJson(const nlohmann::json& v, const std::string& path);
CollectiveRecord collectiveFromJson(const nlohmann::json& v, const std::string& path);
IterationMark iterationFromJson(const nlohmann::json& v, const std::string& path);
std::optional<HangReport> hangFromJson(const nlohmann::json& v, const std::string& path);
// Throws JsonPathError (shardlab/base/json_reader.h) naming the JSON path below `path` that is wrong.
RunResult runResultFromJson(const nlohmann::json& v, const std::string& path);

} // namespace shardlab::detail
