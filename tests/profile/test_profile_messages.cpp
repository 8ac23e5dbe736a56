// What a profile says when its records do not make a run, in both languages (issue 30): every
// refusal of profile_match.cpp, profile_build.cpp and profile_scenario.cpp is a template of the
// catalogue (readers.inc, error.line.profile_* and the error.piece.* of its parts), so the user
// reads it in Chinese with the rank, its process, the communicator and what each rank recorded
// as the records hold them; the English reads back byte for byte.
#include "profile_records.h"

#include "shardlab/model/presets.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_match.h"
#include "shardlab/profile/profile_reader.h"
#include "shardlab/text/foreign_text.h"
#include "shardlab/text/message.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <unistd.h>

namespace shardlab {
namespace {

using test::RecordText;

std::string replacedOnce(std::string text, const std::string& from, const std::string& to)
{
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

// Rank `rank` of the 2-rank communicator 00000000000000aa in process h/100+rank: an all-reduce #0
// of 1024 floats, then `second` #1 of `count` floats, `later` ns after the other rank's (a call
// that came after the others' arrival at theirs is the rank's next call).
ProfileFile rankFile(int rank, const std::string& second = "AllReduce", std::uint64_t count = 1024, double later = 0)
{
    RecordText f("h", 100 + rank);
    f.comm(0, "00000000000000aa", rank, 2)
        .coll(1, 0, 0, "AllReduce", 1024, 1000, 1100, 1050, 2050)
        .coll(3, 0, 1, second, count, 5000 + later, 5100 + later, 5050 + later, 6050 + later);
    auto file = parseProfileText(f.text, "r" + std::to_string(rank) + ".nccl-profile.jsonl");
    EXPECT_TRUE(file) << file.error().message;
    return *file;
}

// Issue 26: the refusal is born a Message, whose English is the error's.
void expectBorn(const Error& e)
{
    SCOPED_TRACE(e.message);
    EXPECT_FALSE(e.what.empty());
    EXPECT_EQ(english(e.what), e.message);
}

Error errorOf(const std::vector<ProfileFile>& files, const ProfileBuildOptions& options = {})
{
    auto built = buildProfiledRun(files, options);
    EXPECT_FALSE(built);
    if (!built)
        expectBorn(built.error());
    return built ? Error() : built.error();
}

// Chinese with no English word but the records' own names (files, hosts, NCCL's functions and
// types), no placeholder or catalogue id left; English unchanged by the round trip.
void expectWorded(const Error& error, const std::string& chinese)
{
    SCOPED_TRACE(error.message);
    EXPECT_EQ(worded(error, Language::English), error.message);
    const std::string zh = worded(error, Language::Chinese);
    EXPECT_EQ(zh, chinese);
    static const std::regex leftover(R"(\[error\.[a-z_.]+\]|\{[a-z_0-9]+\})");
    EXPECT_FALSE(std::regex_search(zh, leftover)) << zh;
    const std::vector<std::string> left =
        untranslatedWords(zh, {"r0.nccl-profile.jsonl", "r1.nccl-profile.jsonl", "AllReduce", "AllGather", "Send",
                               "ncclFloat32", "shardlab profile", "mpirun", "--out", "h", "00000000000000aa"});
    EXPECT_TRUE(left.empty()) << zh << " has English: " << left.front();
}

TEST(ProfileMessages, ADisagreementNamesEachRankItsProcessAndWhatItRecorded)
{
    // sizes: rank 1 recorded 2048 floats where rank 0 recorded 1024
    const Error sizes = errorOf({rankFile(0), rankFile(1, "AllReduce", 2048)});
    EXPECT_EQ(
        sizes.message,
        "the ranks disagree about AllReduce #1 of communicator 00000000000000aa (ranks 0,1): rank 0 (h pid 100) "
        "recorded AllReduce #1, 1024 x ncclFloat32; rank 1 (h pid 101) recorded AllReduce #1, 2048 x ncclFloat32");
    expectWorded(
        sizes,
        "各 Rank 对通信器 00000000000000aa（Rank 0,1）的 AllReduce #1 记录不一致：Rank 0（h 上的进程 100）记录的是 "
        "AllReduce #1（1024 个 ncclFloat32），Rank 1（h 上的进程 101）记录的是 AllReduce #1（2048 个 ncclFloat32）");
    // kinds: rank 1 called an all-gather where rank 0 called its second all-reduce
    const Error kinds = errorOf({rankFile(0), rankFile(1, "AllGather", 1024, 4000)});
    EXPECT_EQ(
        kinds.message,
        "the ranks disagree about AllReduce #1 of communicator 00000000000000aa (ranks 0,1): rank 0 (h pid 100) "
        "recorded AllReduce #1, 1024 x ncclFloat32; rank 1 (h pid 101) has no record of it, and its next call there is "
        "AllGather #1, 1024 x ncclFloat32: the ranks called different collectives");
    expectWorded(
        kinds,
        "各 Rank 对通信器 00000000000000aa（Rank 0,1）的 AllReduce #1 说法不一：Rank 0（h 上的进程 100）记录了 "
        "AllReduce #1（1024 个 ncclFloat32）；Rank 1（h 上的进程 101）却没有这条记录，它在这个通信器上的下一次调用是 "
        "AllGather #1（1024 个 ncclFloat32）：各 Rank 调用的 Collective 不一样");
}

TEST(ProfileMessages, MissingTwiceAndLoneRanksAreWorded)
{
    const Error missing = errorOf({rankFile(0)});
    EXPECT_EQ(missing.message.rfind("rank 1 of the 2-rank communicator 00000000000000aa left no record", 0), 0u)
        << missing.message;
    expectWorded(
        missing,
        "通信器 00000000000000aa 共有 2 个 Rank，其中 Rank 1 没有留下记录：它的进程被分析了吗？（在 mpirun 下，请把 "
        "`shardlab profile` 放在 mpirun 外面，或者放在每个 Rank 的程序前面，并共用同一个 --out 文件夹）");
    const Error twice = errorOf({rankFile(0), rankFile(1), rankFile(1)});
    expectWorded(twice, "通信器 00000000000000aa 的 Rank 1 有两份记录：r1.nccl-profile.jsonl 和 "
                        "r1.nccl-profile.jsonl（同一个文件夹里混进了"
                        "两次运行的记录文件？请换一个新的 --out 文件夹）");
    RecordText lone("h", 1);
    lone.comm(0, "00000000000000bb", 0, 1);
    auto loneFile = parseProfileText(lone.text, "r0.nccl-profile.jsonl");
    ASSERT_TRUE(loneFile);
    expectWorded(errorOf({*loneFile, *loneFile}), "r0.nccl-profile.jsonl 等记录文件：记录到的通信器都只有一个 "
                                                  "Rank；ShardLab 画的是 Rank 之间的 Collective（NCCL 在单 Rank "
                                                  "的通信器上也不报告任何事件）：请分析用到 2 张或更多 GPU 的作业");
    auto none = matchProfile({}, false);
    ASSERT_FALSE(none);
    expectWorded(none.error(), "没有可用来构建运行的记录文件");
    expectBorn(none.error());
}

// Issue 26: a job of nothing ShardLab draws, and a collective a rank recorded twice, are born Messages too.
TEST(ProfileMessages, NothingDrawnAndARecordTwiceAreBornMessages)
{
    std::vector<ProfileFile> bare;
    for (int rank = 0; rank < 2; ++rank) {
        RecordText f("h", 100 + rank);
        f.comm(0, "00000000000000aa", rank, 2);
        auto file = parseProfileText(f.text, "r" + std::to_string(rank) + ".nccl-profile.jsonl");
        ASSERT_TRUE(file) << file.error().message;
        bare.push_back(*file);
    }
    EXPECT_NE(errorOf(bare).message.find("no collective or send/receive of communicator 00000000000000aa"),
              std::string::npos);
    RecordText twice("h", 100);
    twice.comm(0, "00000000000000aa", 0, 2)
        .coll(1, 0, 0, "AllReduce", 1024, 1000, 1100, 1050, 2050)
        .coll(3, 0, 0, "AllReduce", 1024, 5000, 5100, 5050, 6050);
    auto file = parseProfileText(twice.text, "r0.nccl-profile.jsonl");
    ASSERT_TRUE(file) << file.error().message;
    EXPECT_NE(errorOf({*file, rankFile(1)}).message.find(" twice"), std::string::npos);
}

// Issue 26: the record reader's refusals are born Messages too ("FILE, line N" an error.origin_line).
TEST(ProfileMessages, TheRecordReadersRefusalsAreBornMessages)
{
    const std::string head = RecordText("h", 1).text;
    const std::string comm = RecordText("h", 1).comm(0, "00000000000000aa", 0, 2).text.substr(head.size());
    const auto coll = [](std::uint64_t id, int ctx, std::uint64_t count, double t, double gpuStart, double gpuEnd,
                         const std::string& dtype = "ncclFloat32") {
        RecordText r("h", 1);
        const size_t header = r.text.size();
        r.coll(id, ctx, 0, "AllReduce", count, t, t + 100, gpuStart, gpuEnd, dtype);
        return r.text.substr(header);
    };
    const std::vector<std::string> texts = {
        "this is not json\n",                                                            // not a record
        "{\"host\":\"h\"}\n",                                                            // not a profile
        "{\"shardlab_nccl_profile\":99,\"host\":\"h\"}\n",                               // another format
        "{\"shardlab_nccl_profile\":1,\"shardlab_nccl_profile\":1}\n",                   // a key given twice
        "{\"shardlab_nccl_profile\":1,\"host\":\"h\",\"pid\":1,\"t\":-5,\"real\":0}\n",  // a negative time
        "{\"shardlab_nccl_profile\":1,\"host\":\"h\",\"pid\":1,\"t\":5,\"real\":-1}\n",  // not a whole number >= 0
        "{\"shardlab_nccl_profile\":1,\"pid\":1,\"t\":5,\"real\":0}\n",                  // missing
        head + replacedOnce(comm, "00000000000000aa", "xyz"),                            // not a hash
        head + comm + comm,                                                              // a context twice
        head + comm + coll(1, 0, 0, 1000, 5000, 9000),                                   // 0 elements
        head + comm + coll(1, 0, 8, 1000, 5000, 9000) + coll(1, 0, 8, 2000, 9500, 9900), // an event twice
        head + "{\"k\":\"what\"}\n",                                                     // an unknown kind
        head + comm + coll(1, 0, 8, 1000, 5000, 9000, "ncclFoo"),                        // an unknown datatype
        head + comm + coll(1, 0, 1ull << 60, 1000, 5000, 9000),                          // more than 1 PB
        head + comm + coll(1, 0, 8, 1000, 5000, 9000) + "{\"k\":\"stop\",\"id\":1,\"t\":5}\n", // stops before it starts
        head + comm + coll(1, 0, 8, 1000, 5000, 4000), // a channel ends before it starts
        head + coll(1, 5, 8, 1000, 5000, 9000),        // a context never initialised
        "",                                            // empty
    };
    for (const std::string& text : texts) {
        SCOPED_TRACE(text);
        auto f = parseProfileText(text, "r0.nccl-profile.jsonl");
        ASSERT_FALSE(f);
        expectBorn(f.error());
    }
    auto notFolder = readProfileDirectory("/nonexistent/shardlab-profile");
    ASSERT_FALSE(notFolder);
    expectBorn(notFolder.error());
    const std::filesystem::path empty =
        std::filesystem::temp_directory_path() / ("shardlab-no-records-" + std::to_string(::getpid()));
    std::filesystem::create_directories(empty);
    auto noRecords = readProfileDirectory(empty);
    std::filesystem::remove_all(empty);
    ASSERT_FALSE(noRecords);
    expectBorn(noRecords.error());
}

TEST(ProfileMessages, APeerOutsideItsCommunicatorAndAWrongMachineAreWorded)
{
    RecordText f("h", 100);
    f.comm(0, "00000000000000aa", 0, 2);
    f.text += "{\"k\":\"p2p\",\"id\":1,\"ctx\":0,\"func\":\"Send\",\"count\":8,\"dtype\":\"ncclFloat32\",\"peer\":5,"
              "\"nch\":1,"
              "\"group\":0,\"t\":1000}\n";
    auto sender = parseProfileText(f.text, "r0.nccl-profile.jsonl");
    ASSERT_TRUE(sender) << sender.error().message;
    const Error peer = errorOf({*sender, rankFile(1)});
    EXPECT_EQ(
        peer.message,
        "r0.nccl-profile.jsonl: event 1 (Send) names peer 5 in communicator 00000000000000aa (ranks 0,1), where this "
        "process is rank 0");
    expectWorded(peer, "r0.nccl-profile.jsonl：事件 1（Send）的对端是通信器 00000000000000aa（Rank 0,1）里的 Rank "
                       "5，而本进程在那里是 Rank 0");
    ProfileBuildOptions fourGpus;
    fourGpus.machine = preset("h200-nv18-4");
    ASSERT_TRUE(fourGpus.machine);
    expectWorded(errorOf({rankFile(0), rankFile(1)}, fourGpus), "所给的机器有 4 张 GPU，而被分析的作业有 2 个 Rank");
}

// What a profiled run says of its clocks and its records (profile.inc), in both languages.
TEST(ProfileMessages, TheClockSentenceAndTheNotesAreWordedInChinese)
{
    ProfileBuildOptions ended;
    ended.programEnd = Message("error.line.program_signal").with("signal", 15).with("name", "Terminated");
    auto built = buildProfiledRun({rankFile(0), rankFile(1)}, ended);
    ASSERT_TRUE(built) << built.error().message;
    const RunResult& run = built->run;
    // Each bracket is 100 ns wide: the bound is half of it.
    EXPECT_EQ(english(run.clockNote),
              "profiled with ShardLab's NCCL profiler; GPU timers aligned to each process's host clock by 4 "
              "kernel-start brackets, residual error <= 0.05 us; all processes on one host's monotonic clock");
    EXPECT_EQ(render(run.clockNote, Language::Chinese), "由 ShardLab 的 NCCL 性能分析插件记录；每个进程的 GPU 计时器用 "
                                                        "4 个内核启动区间对齐到它的主机时钟，残余误差 <= 0.05 us；"
                                                        "所有进程都在同一台主机的单调时钟上");
    ASSERT_EQ(run.notes.size(), 1u);
    EXPECT_EQ(english(run.notes[0]),
              "the program was ended by signal 15 (Terminated): the run holds what the profiler recorded until then");
    EXPECT_EQ(render(run.notes[0], Language::Chinese),
              "程序被信号 15（Terminated）终止：这次运行只包含性能分析插件到那时为止的记录");
}

} // namespace
} // namespace shardlab
