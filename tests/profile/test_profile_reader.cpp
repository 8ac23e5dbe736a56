// The record reader: joining, what a killed process leaves, and bad files -> a message naming the
// file, the line and what is wrong (and never a crash, whatever the bytes).
#include "profile_records.h"

#include "shardlab/profile/profile_reader.h"

#include <gtest/gtest.h>

#include <random>
#include <unistd.h>

namespace shardlab {
namespace {

using test::RecordText;

std::string sample()
{
    RecordText f("node1", 42);
    f.comm(0, "00000000000000aa", 1, 4).coll(7, 0, 3, "AllReduce", 256, 1000, 1100, 5000, 9000);
    return f.text;
}

TEST(ProfileReader, JoinsChannelsAndStopsToTheirCollective)
{
    auto f = parseProfileText(sample(), "x.jsonl");
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ(f->host, "node1");
    EXPECT_EQ(f->pid, 42);
    ASSERT_EQ(f->comms.size(), 1u);
    EXPECT_EQ(f->comms[0].hash, 0xaau);
    EXPECT_EQ(f->comms[0].rank, 1);
    EXPECT_EQ(f->comms[0].ranks, 4);
    ASSERT_EQ(f->ops.size(), 1u);
    const ProfiledOp& op = f->ops[0];
    EXPECT_EQ(op.sequence, 3u);
    EXPECT_EQ(op.func, "AllReduce");
    EXPECT_EQ(op.count, 256u);
    EXPECT_EQ(op.algorithm, "RING");
    ASSERT_EQ(op.kernel.size(), 1u);
    EXPECT_EQ(op.kernel[0].gpuStartNs, 5000);
    ASSERT_TRUE(op.kernel[0].gpuEndNs);
    EXPECT_EQ(*op.kernel[0].gpuEndNs, 9000);
    EXPECT_EQ(op.kernel[0].hostSeenNs, 1100);
    ASSERT_TRUE(op.stopNs);
    EXPECT_EQ(*op.stopNs, 1010);
}

TEST(ProfileReader, ChannelsBeforeTheirCollectiveAndOrphansAreFine)
{
    // Another thread's buffer (NCCL's proxy) may reach the file first; a channel whose collective
    // never reached it (the process was killed) is left out.
    const std::string text = "{\"shardlab_nccl_profile\":1,\"host\":\"h\",\"pid\":1,\"t\":0,\"real\":0}\n"
                             "{\"k\":\"kch\",\"id\":9,\"op\":5,\"ch\":1,\"gpu\":100,\"t\":50}\n"
                             "{\"k\":\"kch\",\"id\":10,\"op\":77,\"ch\":0,\"gpu\":100,\"t\":50}\n"
                             "{\"k\":\"comm\",\"ctx\":0,\"hash\":\"ab\",\"rank\":0,\"nranks\":2,\"nodes\":1,\"name\":\"\",\"t\":0,\"real\":0}\n"
                             "{\"k\":\"coll\",\"id\":5,\"ctx\":0,\"seq\":0,\"func\":\"AllReduce\",\"count\":1,\"dtype\":\"ncclInt8\","
                             "\"root\":0,\"algo\":\"\",\"proto\":\"\",\"nch\":1,\"group\":0,\"t\":10}\n";
    auto f = parseProfileText(text, "p");
    ASSERT_TRUE(f) << f.error().message;
    ASSERT_EQ(f->ops.size(), 1u);
    ASSERT_EQ(f->ops[0].kernel.size(), 1u);
    EXPECT_EQ(f->ops[0].kernel[0].channel, 1);
}

TEST(ProfileReader, ALastLineCutShortIsLeftOut)
{
    std::string text = sample();
    text += "{\"k\":\"coll\",\"id\":99,\"ctx\":0,\"se";
    auto f = parseProfileText(text, "x");
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ(f->ops.size(), 1u);
}

void expectError(const std::string& text, const std::string& part)
{
    auto f = parseProfileText(text, "dir/r0.nccl-profile.jsonl");
    ASSERT_FALSE(f) << "accepted: " << text;
    EXPECT_NE(f.error().message.find("dir/r0.nccl-profile.jsonl"), std::string::npos) << f.error().message;
    EXPECT_NE(f.error().message.find(part), std::string::npos) << f.error().message;
}

TEST(ProfileReader, BadFilesSayWhereAndWhat)
{
    expectError("", "the file is empty");
    expectError("{\"other\":1}\n", "line 1: not a ShardLab NCCL profile");
    expectError("{\"shardlab_nccl_profile\":2,\"host\":\"h\",\"pid\":1,\"t\":0,\"real\":0}\n", "profile format 2");
    const std::string head = "{\"shardlab_nccl_profile\":1,\"host\":\"h\",\"pid\":1,\"t\":0,\"real\":0}\n";
    expectError(head + "not json\n{}\n", "line 2: not a record");
    expectError(head + "{\"k\":\"what\"}\n", "line 2: $.k: unknown record kind 'what'");
    expectError(head + "{\"k\":\"comm\",\"ctx\":0,\"hash\":\"xyz\",\"rank\":0,\"nranks\":2,\"nodes\":1,\"name\":\"\",\"t\":0,\"real\":0}\n",
                "line 2: $.hash: 'xyz' is not a communicator hash");
    expectError(head + "{\"k\":\"comm\",\"ctx\":0,\"hash\":\"ab\",\"rank\":5,\"nranks\":2,\"nodes\":1,\"name\":\"\",\"t\":0,\"real\":0}\n",
                "line 2: $.rank");
    expectError(head + "{\"k\":\"stop\",\"id\":1,\"t\":-4}\n", "line 2: $.t: found");
    expectError(head
                    + "{\"k\":\"coll\",\"id\":5,\"ctx\":3,\"seq\":0,\"func\":\"AllReduce\",\"count\":1,\"dtype\":\"ncclInt8\",\"root\":0,"
                      "\"algo\":\"\",\"proto\":\"\",\"nch\":1,\"group\":0,\"t\":10}\n",
                "communicator context 3, which the file never initialises");
}

TEST(ProfileReader, MangledFilesGiveAnErrorOrARunNeverACrash)
{
    const std::string good = sample();
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
        std::string text = good;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const size_t at = rng() % text.size();
            switch (rng() % 3) {
            case 0: text[at] = static_cast<char>(rng() % 256); break;
            case 1: text.erase(at, 1 + rng() % 8); break;
            default: text.insert(at, 1, "{}\":,0-9\n"[rng() % 9]); break;
            }
            if (text.empty())
                text = "x";
        }
        auto f = parseProfileText(text, "fuzz.jsonl");
        if (!f) {
            EXPECT_NE(f.error().message.find("fuzz.jsonl"), std::string::npos) << f.error().message;
        }
    }
}

TEST(ProfileReader, AFolderWithoutRecordsIsExplained)
{
    const auto dir = std::filesystem::temp_directory_path() / ("shardlab_profile_empty_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto files = readProfileDirectory(dir);
    ASSERT_FALSE(files);
    EXPECT_NE(files.error().message.find("no record file"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(ProfileReader, DatatypeSizes)
{
    EXPECT_EQ(ncclDatatypeBytes("ncclFloat32"), 4);
    EXPECT_EQ(ncclDatatypeBytes("ncclBfloat16"), 2);
    EXPECT_EQ(ncclDatatypeBytes("ncclUint64"), 8);
    EXPECT_FALSE(ncclDatatypeBytes("float"));
}

} // namespace
} // namespace shardlab
