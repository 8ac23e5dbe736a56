// Reading input files plain or gzip (engine/import/input_file.h) and telling formats apart
// (import_format.h), on the real sample files in tests/import/data.
#include "shardlab/import/import_format.h"
#include "shardlab/import/input_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace shardlab {
namespace {

const std::filesystem::path kData = std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/import/data";

std::string fileBytes(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(InputFile, GzipIsReadWholeAndPlainAsIs)
{
    auto text = readInputText(kData / "kineto/ddp2/kineto_rank0.json.gz");
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_GT(text->size(), 600000u); // about 690 KB uncompressed (README.md)
    EXPECT_EQ(text->at(text->find_first_not_of(" \n")), '{');
    EXPECT_EQ(text->find_last_not_of(" \n"), text->rfind('}'));
    auto plain = readInputText(kData / "nccl_tests/all_reduce_perf_2ranks.json");
    ASSERT_TRUE(plain);
    EXPECT_EQ(*plain, fileBytes(kData / "nccl_tests/all_reduce_perf_2ranks.json"));
}

TEST(InputFile, ATruncatedGzipIsAnErrorNamingTheFile)
{
    const std::string whole = fileBytes(kData / "kineto/ddp2/kineto_rank0.json.gz");
    const auto dir = std::filesystem::temp_directory_path() / ("shardlab_input_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto cut = dir / "cut.json.gz";
    std::ofstream(cut, std::ios::binary) << whole.substr(0, whole.size() / 2);
    auto text = readInputText(cut);
    ASSERT_FALSE(text);
    EXPECT_NE(text.error().message.find("cut.json.gz"), std::string::npos) << text.error().message;
    EXPECT_NE(text.error().message.find("truncated"), std::string::npos) << text.error().message;
    auto inMemory = gunzipText(whole.substr(0, whole.size() - 9), "mem.gz");
    EXPECT_FALSE(inMemory);
    EXPECT_TRUE(gunzipText(whole, "mem.gz"));
    std::filesystem::remove_all(dir);
}

TEST(InputFile, ReadingCanBeCancelled)
{
    int calls = 0;
    const Status st = readInputChunks(
        kData / "kineto/ddp2/kineto_rank0.json.gz", [](std::string_view) -> Status { return {}; },
        [&](std::uint64_t, std::uint64_t) { return ++calls < 1; });
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().kind, ErrorKind::Cancelled);
}

TEST(ImportFormat, EachSampleIsTakenForWhatItIs)
{
    const auto sniff = [](const std::filesystem::path& p) {
        return sniffImportFormat(p.filename().string(), readInputHead(p));
    };
    EXPECT_EQ(sniff(kData / "kineto/ddp4/kineto_rank2.json.gz"), ImportFormat::Kineto);
    EXPECT_EQ(sniff(kData / "flight_recorder/ddp2/fr_rank0.json"), ImportFormat::FlightRecorder);
    EXPECT_EQ(sniff(kData / "flight_recorder/ddp2/fr_rank0.pkl"), ImportFormat::FlightRecorder);
    EXPECT_EQ(sniff(kData / "flight_recorder/hang2/fr_ontimeout_rank1.pkl"), ImportFormat::FlightRecorder);
    EXPECT_EQ(sniff(kData / "inspector/ddp2/rank1_vm-pid1308.log"), ImportFormat::NcclInspector);
    EXPECT_EQ(sniff(kData / "nccl_tests/all_reduce_perf_4ranks.json"), ImportFormat::NcclTests);
    EXPECT_EQ(sniff(std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/profile/data/ddp2/vm-529.nccl-profile.jsonl"),
              ImportFormat::ProfileRecords);
    EXPECT_EQ(sniffImportFormat("x.sqlite", std::string_view("SQLite format 3\0rest", 20)), ImportFormat::NsightSqlite);
    EXPECT_EQ(sniffImportFormat("notes.txt", "hello"), ImportFormat::Unknown);
    EXPECT_EQ(sniffImportFormat("run.json", "{\"displayTimeUnit\":\"ms\",\"traceEvents\":["),
              ImportFormat::ShardLabTrace);
}

} // namespace
} // namespace shardlab
