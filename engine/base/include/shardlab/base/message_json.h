// A Message (text/message.h) as JSON, for files and for what processes send each other:
// {"id": "...", "args": {"name": "text" or a message}}, and back. Result files, the run stream,
// multi-process setup reports and `topo --json` carry it beside the English, so that a reader
// words it in its user's language.
#pragma once

#include "shardlab/text/message.h"

#include <nlohmann/json.hpp>

#include <string>

namespace shardlab {

nlohmann::json messageToJson(const Message& message);
// Tolerant: what is not a message gives an empty one (the English beside it is shown instead);
// nested more than 16 deep, the rest is left out.
Message messageFromJson(const nlohmann::json& v, int depth = 0);
// A Message read back beside the English it was sent with (a stream's "what" beside "message", a
// process's "error_message" beside "error"): the Message where its English is `english` word for
// word, else an empty one (the sender, of another version, words it otherwise: its English is
// what to show). `v` null: none was sent.
Message messageSaying(const nlohmann::json* v, const std::string& english);

} // namespace shardlab
