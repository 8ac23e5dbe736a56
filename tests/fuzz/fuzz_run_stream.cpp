// libFuzzer target for the run-stream reader (run_stream.h), which reads what arrives over SSH
// from another machine: any bytes, in any pieces, must give the same answer as the whole text,
// never a crash, a hang or a leak; and a stream it accepts, written again, reads back to the same
// run. Build with -DSHARDLAB_FUZZ=ON and clang; run
//   build/fuzz/tests/fuzz/fuzz_run_stream tests/fuzz/corpus-stream -max_total_time=60
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    shardlab::StreamHeader header;
    auto whole = shardlab::readRunStream(text, "fuzz", &header);

    // the same bytes in pieces (the first byte chooses their size) give the same answer
    shardlab::RunStreamReader pieces("fuzz");
    const size_t step = size > 0 ? 1 + data[0] % 61 : 1;
    for (size_t i = 0; i < size; i += step)
        if (!pieces.feed(text.substr(i, step)))
            break;
    (void)pieces.partial();
    auto again = pieces.finish();
    if (whole.ok() != again.ok())
        __builtin_trap();
    if (!whole.ok()) {
        if (whole.error().message != again.error().message)
            __builtin_trap();
        return 0;
    }
    if (shardlab::serializeRunResult(*whole) != shardlab::serializeRunResult(*again))
        __builtin_trap();

    // written again, it reads back to the same run
    std::ostringstream out;
    shardlab::RunStreamWriter writer(out);
    // (an open program's stream, version 2, ends with its program and, no chunk having been
    // written here, the whole timeline)
    shardlab::StreamEnding ending;
    if (header.openProgram) {
        ending.scenario = pieces.scenario();
        ending.replaceTimeline = true;
    }
    if (!writer.header(header) || !writer.result(*whole, ending))
        __builtin_trap();
    auto back = shardlab::readRunStream(out.str(), "fuzz-again");
    if (!back.ok() || shardlab::serializeRunResult(*back) != shardlab::serializeRunResult(*whole))
        __builtin_trap();
    return 0;
}
