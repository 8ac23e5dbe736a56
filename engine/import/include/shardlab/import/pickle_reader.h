// A small, safe reader of Python pickles (protocols 2 to 5) for data only: dicts, lists, tuples,
// strings, integers, floats, None, True and False, the memo and MARK, as PyTorch's Flight Recorder
// dumps them. It never runs anything: an opcode that would look up or call a Python object
// (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, EXT*, PERSID) is refused, and so is
// one it does not know. Hostile input cannot blow it up: every length is checked against the
// bytes left before anything is allocated, nesting is limited, and so is the size of what the
// memo may copy (a pickle that refers to one value many times costs each copy in full).
// Result: the value as JSON (tuples as arrays; dict keys must be strings or integers, integers
// written in decimal).
#pragma once

#include "shardlab/base/result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace shardlab {

struct PickleLimits {
    size_t maxDepth = 64;             // containers inside containers
    size_t maxCost = size_t{1} << 26; // values made (1 each) plus string bytes, copies from the memo included
    size_t maxMemo = size_t{1} << 20; // memo entries
};

// `origin`: the file's name, for messages ("fr_rank0.pkl: byte 17: ...").
Result<nlohmann::json> parsePickle(std::string_view bytes, const std::string& origin, const PickleLimits& limits = {});

} // namespace shardlab
