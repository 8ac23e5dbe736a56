// RunResult <-> nlohmann::json, shared by the result file, the gather of a multi-process run and
// its tests. Private to the engine; the public forms are in run_result_io.h.
#pragma once

#include "shardlab/run_result.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace shardlab::detail {

nlohmann::json runResultToJson(const RunResult& run);
// Throws JsonPathError naming the JSON path below `path` that is wrong.
RunResult runResultFromJson(const nlohmann::json& v, const std::string& path);

struct JsonPathError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// Typed access that throws JsonPathError("PATH: found a string (expected a number)").
const nlohmann::json& member(const nlohmann::json& obj, const std::string& path, const char* key);
double numberAt(const nlohmann::json& v, const std::string& path);
long long integerAt(const nlohmann::json& v, const std::string& path, long long lo, long long hi);
std::string stringAt(const nlohmann::json& v, const std::string& path);
const nlohmann::json& arrayAt(const nlohmann::json& v, const std::string& path);

} // namespace shardlab::detail
