// Reading an input file whole or piece by piece, plain or gzip (a `.gz` name or gzip's magic
// bytes), with progress by compressed bytes read. A truncated or corrupt gzip stream is an error
// naming the file and how far it got, never a shorter text taken as the whole.
#pragma once

#include "shardlab/base/result.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace shardlab {

// Bytes of the file read so far and its size on disk; returns false to cancel.
using ReadProgress = std::function<bool(std::uint64_t done, std::uint64_t total)>;

// Calls `chunk` with successive pieces of the (decompressed) text; stops early with the error
// `chunk` returns. Cancelling through `progress` gives ErrorKind::Cancelled.
Status readInputChunks(const std::filesystem::path& path, const std::function<Status(std::string_view)>& chunk,
                       const ReadProgress& progress = {});
// Text that arrives in pieces, as lines: appends `piece` to `pending` and hands every line it
// completes (without its '\n') to `take`; the incomplete rest waits in `pending` for the next
// piece. A rest longer than `maxLine` gives `tooLong()`'s error (a file that is not lines of text).
Status feedLines(std::string_view piece, std::string& pending, size_t maxLine,
                 const std::function<Status(const std::string&)>& take, const std::function<Status()>& tooLong);
// The whole (decompressed) text; refused beyond `maxBytes` of text, naming the file.
Result<std::string> readInputText(const std::filesystem::path& path, std::uint64_t maxBytes = 1ull << 31,
                                  const ReadProgress& progress = {});
// The first `bytes` of the (decompressed) text; "" for a file that cannot be read.
std::string readInputHead(const std::filesystem::path& path, size_t bytes = 64 * 1024);
// gzip text in memory, decompressed (tests, fuzzers); an error for a stream cut short.
Result<std::string> gunzipText(std::string_view bytes, const std::string& origin, std::uint64_t maxBytes = 1ull << 31);
bool looksGzip(std::string_view head);

} // namespace shardlab

#include <istream>
#include <memory>

namespace shardlab {

// The (decompressed) text as a stream, for parsers that pull (a streaming JSON parser): memory
// stays at one buffer whatever the file's size. After reading, `problem()` says what went wrong
// below the stream (a truncated or corrupt gzip, a read error, cancelled), an empty Message when
// nothing did: check it before believing a parse error of a cut text.
class InputStream {
public:
    static Result<std::unique_ptr<InputStream>> open(const std::filesystem::path& path,
                                                     const ReadProgress& progress = {});
    virtual ~InputStream() = default;
    virtual std::istream& stream() = 0;
    virtual Message problem() const = 0;
    virtual bool cancelled() const = 0;
};

} // namespace shardlab
