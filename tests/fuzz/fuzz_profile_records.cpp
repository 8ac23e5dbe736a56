// libFuzzer target for the NCCL profiler's record reader and the run built from it
// (engine/profile): a record file is whatever a killed process left, so any bytes must give a
// run or a message naming the file, never a crash, a hang or a leak. Build with
// -DSHARDLAB_FUZZ=ON and clang; run
//   build/fuzz/tests/fuzz/fuzz_profile_records tests/fuzz/corpus-profile -max_total_time=60
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_reader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto file = shardlab::parseProfileText(text, "fuzz.jsonl");
    if (!file) {
        if (file.error().message.find("fuzz.jsonl") == std::string::npos)
            __builtin_trap();
        return 0;
    }
    // The file as every rank's, and twice over (a second process of the same job).
    shardlab::ProfileFile other = *file;
    other.path = "other.jsonl";
    other.host = "elsewhere";
    (void)shardlab::buildProfiledRun({*file});
    (void)shardlab::buildProfiledRun({*file, other});
    return 0;
}
