// Following a profiled program while it runs (profile_live.h): record files read as they grow, cut
// anywhere, give what the whole files give; the settled part of a run built while records still
// arrive is the finished run's beginning.
#include "profile_records.h"

#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_live.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace shardlab {
namespace {

namespace fs = std::filesystem;
using test::RecordText;

constexpr std::uint64_t kLiveCount = 1 << 20;

std::string rank0()
{
    RecordText f("h", 100);
    f.comm(0, "00000000000000aa", 0, 2)
        .coll(1, 0, 0, "AllReduce", kLiveCount, 1000, 1100, 5e9 + 1050, 5e9 + 101050)
        .coll(3, 0, 1, "AllReduce", kLiveCount, 201000, 201100, 5e9 + 201050, 5e9 + 301050);
    return f.text;
}

std::string rank1(bool second = true)
{
    RecordText f("h", 101);
    f.comm(0, "00000000000000aa", 1, 2).coll(1, 0, 0, "AllReduce", kLiveCount, 1000, 1100, 7e9 + 1050, 7e9 + 101050);
    if (second)
        f.coll(3, 0, 1, "AllReduce", kLiveCount, 251000, 251100, 7e9 + 251050, 7e9 + 301050);
    return f.text;
}

void expectSameFile(const ProfileFile& a, const ProfileFile& b)
{
    ASSERT_EQ(a.ops.size(), b.ops.size());
    ASSERT_EQ(a.comms.size(), b.comms.size());
    for (size_t i = 0; i < a.ops.size(); ++i) {
        EXPECT_EQ(a.ops[i].id, b.ops[i].id);
        EXPECT_EQ(a.ops[i].stopNs, b.ops[i].stopNs);
        ASSERT_EQ(a.ops[i].kernel.size(), b.ops[i].kernel.size());
        for (size_t k = 0; k < a.ops[i].kernel.size(); ++k)
            EXPECT_EQ(a.ops[i].kernel[k].gpuEndNs, b.ops[i].kernel[k].gpuEndNs);
    }
}

TEST(ProfileRecordParser, BytesInAnyTwoPiecesGiveTheWholeFile)
{
    const std::string text = rank0();
    auto whole = parseProfileText(text, "r0");
    ASSERT_TRUE(whole) << whole.error().message;
    for (size_t cut = 0; cut <= text.size(); ++cut) {
        ProfileRecordParser p("r0");
        ASSERT_TRUE(p.feed(std::string_view(text).substr(0, cut)));
        if (p.sawHeader()) { // a look in between: whatever whole lines have arrived, never an error
            auto soFar = p.file(false);
            ASSERT_TRUE(soFar) << soFar.error().message;
            EXPECT_LE(soFar->ops.size(), whole->ops.size());
        }
        ASSERT_TRUE(p.feed(std::string_view(text).substr(cut)));
        ASSERT_TRUE(p.finish());
        auto f = p.file(true);
        ASSERT_TRUE(f) << f.error().message;
        expectSameFile(*f, *whole);
    }
}

TEST(ProfileRecordParser, AnEventBeforeItsCommunicatorsInitWaitsWhileTheFileGrows)
{
    RecordText f("h", 1);
    f.coll(5, 3, 0, "AllReduce", 16, 10, 20, 30, 40); // context 3's init is still in another thread's buffer
    ProfileRecordParser p("r");
    ASSERT_TRUE(p.feed(f.text));
    auto soFar = p.file(false);
    ASSERT_TRUE(soFar);
    EXPECT_TRUE(soFar->ops.empty());
    auto whole = p.file(true); // at the end it is an error, as before
    ASSERT_FALSE(whole);
    EXPECT_NE(whole.error().message.find("names communicator context 3, which the file never initialises"),
              std::string::npos);
}

TEST(ProfileDirectoryTail, ReadsFilesAsTheyGrowAndAppear)
{
    const fs::path dir = fs::temp_directory_path() / ("shardlab_tail_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string a = rank0(), b = rank1();
    const size_t cutA = a.size() / 2 + 3; // mid-line
    {
        std::ofstream(dir / "h-100.nccl-profile.jsonl") << a.substr(0, cutA);
    }
    ProfileDirectoryTail tail(dir);
    ASSERT_TRUE(tail.poll());
    auto first = tail.files();
    ASSERT_TRUE(first) << first.error().message;
    ASSERT_EQ(first->size(), 1u);
    EXPECT_EQ(tail.worldRanks(), 2);
    {
        std::ofstream(dir / "h-100.nccl-profile.jsonl", std::ios::app) << a.substr(cutA);
        std::ofstream(dir / "h-101.nccl-profile.jsonl") << b;
        std::ofstream(dir / "notes.txt") << "not a record file\n";
    }
    ASSERT_TRUE(tail.poll());
    auto files = tail.files();
    ASSERT_TRUE(files) << files.error().message;
    auto whole = readProfileDirectory(dir);
    ASSERT_TRUE(whole) << whole.error().message;
    ASSERT_EQ(files->size(), whole->size());
    for (size_t i = 0; i < files->size(); ++i)
        expectSameFile((*files)[i], (*whole)[i]);
    {
        std::ofstream(dir / "h-101.nccl-profile.jsonl", std::ios::app) << "{\"k\":\"nonsense\"}\n";
    }
    auto bad = tail.poll();
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("h-101.nccl-profile.jsonl, line 11: $.k: unknown record kind 'nonsense'"),
              std::string::npos)
        << bad.error().message;
    fs::remove_all(dir);
}

TEST(ProfileLive, TheSettledPartIsTheFinishedRunsBeginning)
{
    auto f0 = parseProfileText(rank0(), "r0.nccl-profile.jsonl");
    auto early = parseProfileText(rank1(false), "r1.nccl-profile.jsonl");
    auto late = parseProfileText(rank1(true), "r1.nccl-profile.jsonl");
    ASSERT_TRUE(f0 && early && late);
    ProfileBuildOptions arriving;
    arriving.recordsStillArriving = true;
    auto soFar = buildProfiledRun({*f0, *early}, arriving);
    ASSERT_TRUE(soFar) << soFar.error().message;
    // #0 finished on both ranks; #1 only on rank 0.
    EXPECT_EQ(settledCollectives(soFar->run), 1u);
    const RunResult prefix = settledPrefix(soFar->run, 1);
    ASSERT_EQ(prefix.collectives.size(), 1u);
    auto finished = buildProfiledRun({*f0, *late});
    ASSERT_TRUE(finished) << finished.error().message;
    EXPECT_EQ(settledCollectives(finished->run), 2u);
    ASSERT_LE(prefix.spans.size(), finished->run.spans.size());
    for (size_t i = 0; i < prefix.spans.size(); ++i) {
        const Span &x = prefix.spans[i], &y = finished->run.spans[i];
        EXPECT_EQ(x.rank, y.rank);
        EXPECT_EQ(x.kind, y.kind);
        EXPECT_EQ(x.op, y.op);
        EXPECT_EQ(x.collective, y.collective);
        EXPECT_LT(x.op, 2);
    }
    // canonical order: collective k at index k, spans by step
    for (size_t k = 0; k < finished->run.collectives.size(); ++k)
        EXPECT_EQ(finished->run.collectives[k].op, 2 * static_cast<int>(k) + 1);
    for (size_t i = 1; i < finished->run.spans.size(); ++i)
        EXPECT_LE(finished->run.spans[i - 1].op, finished->run.spans[i].op);
}

TEST(ProfileLive, AHostTimedCollectiveWithoutItsStopIsNotFinishedWhileRecordsArrive)
{
    // Interface v3 (no GPU timer): the collective's stop is its end.
    auto file = [](int rank, bool stopped) {
        std::string t = RecordText("h", 200 + rank).text;
        t += "{\"k\":\"coll\",\"id\":1,\"ctx\":0,\"hash\":\"00000000000000bb\",\"rank\":" + std::to_string(rank)
             + ",\"seq\":0,\"func\":\"AllReduce\",\"count\":16,\"dtype\":\"ncclFloat32\",\"root\":0,\"algo\":\"RING\","
               "\"proto\":\"SIMPLE\",\"nch\":1,\"group\":0,\"t\":1000}\n";
        if (stopped)
            t += "{\"k\":\"stop\",\"id\":1,\"t\":5000}\n";
        auto f = parseProfileText(t, "v3-" + std::to_string(rank) + ".nccl-profile.jsonl");
        EXPECT_TRUE(f) << f.error().message;
        return *f;
    };
    ProfileBuildOptions arriving;
    arriving.recordsStillArriving = true;
    auto waiting = buildProfiledRun({file(0, true), file(1, false)}, arriving);
    ASSERT_TRUE(waiting) << waiting.error().message;
    EXPECT_EQ(settledCollectives(waiting->run), 0u);
    auto done = buildProfiledRun({file(0, true), file(1, true)}, arriving);
    ASSERT_TRUE(done) << done.error().message;
    EXPECT_EQ(settledCollectives(done->run), 1u);
}

} // namespace
} // namespace shardlab
