// A user's files in and out: one prologue that every loader reads a file with (scenario, result,
// trace, lesson, cost profile, measured sweep) and one atomic writer that every writer goes through.
#pragma once

#include "shardlab/base/result.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>

namespace shardlab {

// The largest scenario, lesson or profile read; the largest result, trace or measured sweep (a
// trace of a long run is large; nlohmann's tree of 4 GB of JSON would not fit in memory anyway).
inline constexpr std::uintmax_t kMaxUserFileBytes = 64u << 20;
inline constexpr std::uintmax_t kMaxRunFileBytes = 4ull << 30;

// The whole text of `path`. `expected` names what it should be (error.file_kind.*: "a .shardlab.json file") and
// completes the messages: "PATH: no such file", "PATH: is a folder (expected ...)",
// "PATH: $: the file is larger than 64 MB (expected ...)", "PATH: cannot be read (check its permissions)".
// A FIFO, a device (/dev/stdin) or a file that grows while it is read is read through readCapped,
// as a regular file is: reading stops at `maxBytes`, whatever the size the file claims.
Result<std::string> readUserFile(const std::filesystem::path& path, const Message& expected,
                                 std::uintmax_t maxBytes = kMaxUserFileBytes);
// The one capped reader every input goes through (files, standard input, FIFOs, devices): the text
// of `in` up to its end, or BadInput "NAME: $: the file is larger than 64 MB (expected ...)" as
// soon as more than `maxBytes` arrive (`sim - </dev/zero` stops there instead of filling memory).
Result<std::string> readCapped(std::istream& in, const std::string& name, const Message& expected,
                               std::uintmax_t maxBytes = kMaxUserFileBytes);

// Whether two paths name the same file: the same file on disk when both exist (links and other
// spellings included), else the same absolute path. Writers use it to refuse an output that is one
// of the inputs (`shardlab sim X.json --trace X.json` would replace the scenario).
bool sameFile(const std::filesystem::path& a, const std::filesystem::path& b);
// BadInput "OPTION PATH: that is INPUT_ROLE PATH; writing there would replace it (choose another
// file)" when `output` names the same file as `input`; fine otherwise (or when either is empty).
Status refuseOutputOverInput(const std::string& option, const std::filesystem::path& output,
                             const std::filesystem::path& input, const std::string& inputRole);
// BadInput "OPTION PATH: that is also OTHER_OPTION OTHER_PATH; one would replace the other (choose
// another file)" when two outputs name the same file; fine otherwise. A character device
// (/dev/null) named twice is no clash: nothing is replaced there.
Status refuseOutputTwice(const std::string& option, const std::filesystem::path& output, const std::string& otherOption,
                         const std::filesystem::path& other);

// Writes `text` to a temporary file in the same folder, flushes it to disk and renames it over
// `path`, so the previous file stays whole until the new one is complete.
Status writeFileAtomically(const std::filesystem::path& path, const std::string& text);

// The same, for output too large to build in memory first (a trace of a long run): `write` puts
// the file's text on the stream piece by piece and returns its own error, if any; it may stop
// early when the stream has failed (`!out`). Every write, the final flush, the fsync and the
// rename are checked; on any failure the temporary file is removed, the previous file is left as
// it was, and the message says what failed: "PATH: writing failed after 1.2 GB (No space left on
// device: the disk is full)".
Status writeFileAtomicallyWith(const std::filesystem::path& path,
                               const std::function<Status(std::ostream& out)>& write);

} // namespace shardlab
