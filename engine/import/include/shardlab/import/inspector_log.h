// One NCCL Inspector log (its profiler plugin's JSON lines, one object per collective per rank)
// in memory, read by the same line parser as importInspector (import_job.h), for tests and the
// fuzzer: each line's communicator and collective become the profiler's record file
// (profile_reader.h), ops sorted by start, times in ns after the log's first start.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/profile/profile_reader.h"

#include <string>
#include <string_view>

namespace shardlab {

// `origin` names the log in messages ("rank0.log:3: $.coll_perf.coll: missing"). A last line
// without its new line that does not read is left out (a process killed while writing it); every
// other bad line, and a log with no collective, is an error naming the file and the line.
Result<ProfileFile> parseInspectorLog(std::string_view text, const std::string& origin);

} // namespace shardlab
