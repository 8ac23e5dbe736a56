// Reading JSON that a user's file holds, in two styles that share their messages, "$.json.path:
// found a string (expected a number)":
//  * JsonReader records every problem as "ORIGIN: $.json.path: what was wrong (expected ...)" and
//    reading goes on, so that one load reports everything wrong with a hand-written file
//    (scenarios, lessons, profiles);
//  * the *At functions throw JsonPathError at the first problem, for documents that a program
//    wrote and that are either right or damaged (runs, result files, traces).
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/base/units.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace shardlab::detail {

using nlohmann::json;

class JsonReader {
public:
    explicit JsonReader(std::string origin) : m_origin(std::move(origin)) {}

    // Records "ORIGIN: PATH: what" (error.at), born a Message.
    void fail(const std::string& path, Message what);
    bool failed() const { return !m_errors.empty(); }
    std::string message() const; // all errors, one per line, in English
    Error error() const;         // all errors as one BadInput, one line each
    const std::string& origin() const { return m_origin; }

    static std::string key(const std::string& path, const std::string& k) { return path + "." + k; }
    static std::string index(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

    // Rejects keys not in `allowed` (typos would otherwise be ignored silently).
    bool expectObject(const json& v, const std::string& path);
    void onlyKeys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed);
    const json* find(const json& obj, const char* k) const;

    // Each getter returns nullopt (and records why) when the member is missing-but-required or
    // has the wrong type; a missing optional member returns nullopt silently.
    std::optional<std::string> string(const json& obj, const std::string& path, const char* k, bool required);
    std::optional<long long> integer(const json& obj, const std::string& path, const char* k, bool required,
                                     long long lo, long long hi);
    std::optional<double> number(const json& obj, const std::string& path, const char* k, bool required, double lo,
                                 double hi);
    std::optional<bool> boolean(const json& obj, const std::string& path, const char* k);
    std::optional<Bytes> size(const json& obj, const std::string& path, const char* k, bool required);
    std::optional<Bytes> sizeValue(const json& v, const std::string& path);
    std::optional<double> bandwidth(const json& obj, const std::string& path, const char* k, bool required);
    std::optional<double> flops(const json& obj, const std::string& path, const char* k);
    std::optional<std::vector<int>> ranks(const json& obj, const std::string& path, const char* k);

private:
    std::string m_origin;
    std::vector<Message> m_errors; // one per line
};

// How deep a ShardLab file may nest: its own files go about 8 levels down. A parser builds a node
// for every level, so a file nested millions deep would take gigabytes before it could be refused.
inline constexpr int kMaxJsonDepth = 64;

// What makes `text` no JSON document of a ShardLab file, found before parsing it, in one pass and
// no memory: "the file is empty", "not a ShardLab file: it does not start like JSON (its first byte
// is 0x89)", "nested more than 64 levels deep". Empty when none of these holds.
std::string jsonShapeProblem(const std::string& text, int maxDepth = kMaxJsonDepth);
// The same as a Message (error.file.empty, error.file.blank, error.file.not_json, error.file.too_deep);
// empty when none holds.
Message jsonShapeMessage(const std::string& text, int maxDepth = kMaxJsonDepth);

// The JSON document in `text`, or "ORIGIN: $: not valid JSON (what the parser said)" (or the shape
// problem above, or a key given twice as parseJsonStrict says it).
Result<json> parseJsonText(const std::string& text, const std::string& origin);

// json::parse(text), except that a key given twice in one object (which json::parse answers with
// its last value, silently) throws JsonPathError("$.topology.gpus[2].memory: given twice"). Throws
// json::parse_error for text that is no JSON. Every reader of a user's JSON parses with it.
json parseJsonStrict(const std::string& text);

// A JSON type in words, for messages: "a string", "an array", ... (error.found.*).
std::string describe(const json& v);
Message foundWord(const json& v);
// "found a string (expected E)" (error.json.found), E a Message such as Message("error.expected.object").
Message foundInstead(const json& v, Message expected);

// What "(expected a, b or c)" names, worded (error.expected.choice): words a user types, the same
// in every language.
Message expectedChoice(const std::vector<std::string>& words);

// "PATH: what": English (what()), and the sentence as a Message (born one: failAt(path, Message)).
struct JsonPathError : std::runtime_error {
    JsonPathError(const std::string& path, Message sentence);
    std::string path;
    Message sentence;
};
// The error of `origin` ("FILE: PATH: what", error.at) that `e` says.
Error errorAt(const std::string& origin, const JsonPathError& e);
// The same where the origin is itself worded ("FILE: line 3", error.stream.origin_line).
Error errorAt(Message origin, const JsonPathError& e);
// Typed access that throws JsonPathError("PATH: found a string (expected a number)").
const json& member(const json& obj, const std::string& path, const char* key);
double numberAt(const json& v, const std::string& path);
long long integerAt(const json& v, const std::string& path, long long lo, long long hi);
std::string stringAt(const json& v, const std::string& path);
const json& arrayAt(const json& v, const std::string& path);
// Throws JsonPathError("PATH: WHAT"), WHAT a Message.
[[noreturn]] void failAt(const std::string& path, Message what);

} // namespace shardlab::detail
