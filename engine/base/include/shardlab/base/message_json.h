// A Message (text/message.h) as JSON, for files and for what processes send each other:
// {"id": "...", "args": {"name": "text" or a message}}, and back. Result files, the run stream,
// multi-process setup reports and `topo --json` carry it beside the English, so that a reader
// words it in its user's language.
#pragma once

#include "shardlab/text/message.h"

#include <nlohmann/json.hpp>

namespace shardlab {

nlohmann::json messageToJson(const Message& message);
// Tolerant: what is not a message gives an empty one (the English beside it is shown instead);
// nested more than 16 deep, the rest is left out.
Message messageFromJson(const nlohmann::json& v, int depth = 0);

} // namespace shardlab
