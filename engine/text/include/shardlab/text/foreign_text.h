// Text that reaches ShardLab in English from elsewhere, worded in the user's language where the
// catalogue knows it. ShardLab's own errors are born Messages (shardlab/base/result.h) and never
// pass through here; what does:
//   - another library's or the system's words: the JSON parser's reason ("syntax error while
//     parsing object key - unexpected '}'"), strerror and dlerror ("No space left on device");
//   - what files and streams keep as English text: a machine's name and source ("NVIDIA H200
//     datasheet (...)", "combined from every process's report (NVML); assumed: ..."), and how a
//     run was launched ("Open MPI (mpirun), 8 processes on 2 hosts").
// Each is matched, whole, against the English of one family of catalogue entries (error.parser.*,
// error.why.*, topo.source.*, launch.* and placement.launch.*), every {placeholder} a value kept as
// it is; what fits none stays verbatim (the user still reads it, in English).
#pragma once

#include "shardlab/text/message.h"

#include <string>

namespace shardlab {

// A part of a machine's name or source as the presets, the scaling and a multi-process run's
// combined machine write it ("NVIDIA H200 datasheet (141 GB, ...)", "2 nodes, 8 processes"): the
// topo.source.* entries of topo.inc.
Message machineSourceMessage(const std::string& englishPart);
// How a run was launched, as result files and streams keep it ("simulation", "single process",
// "Open MPI (mpirun), 8 processes on 2 hosts"): the launch.* and placement.launch.* entries.
Message launchMessageOf(const std::string& englishLaunch);
// What nlohmann-json's parser said ("syntax error while parsing object key - unexpected '}';
// expected string literal"), part by part: the error.parser.* entries.
Message parserMessage(const std::string& text);
// The system's reason (strerror, dlerror: "No space left on device") as a value named {why}: the
// error.why.* entries.
Message systemWords(const std::string& text);

} // namespace shardlab
