// Trace files of NCCL's example profiler plugin (engine/import/src/nccl_profiler_trace.cpp,
// nccl_profiler_import.cpp), on the real files of tests/import/data/ncclprof (README.md there: rank
// 1 sleeps 300 ms before steps 3 and 5; AllReduce 7 and 13 are those steps' first buckets).
// Expected waits from the files alone (tests/import/ncclprof_waits.py, written apart from the
// reader): ddp2 rank 0 301.016 ms at AllReduce 7 and 300.996 ms at 13; ddp4 and pipeline2 below.
#include "shardlab/analysis/summary.h"
#include "shardlab/import/import_job.h"
#include "shardlab/import/input_file.h"
#include "shardlab/import/nccl_profiler_trace.h"
#include "shardlab/text/foreign_text.h"
#include "shardlab/text/message.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include <unistd.h>

namespace shardlab {
namespace {

const std::filesystem::path kData = std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/import/data/ncclprof";
const std::filesystem::path kRank0 = kData / "ddp2/prof_3694202695959468801_0.json";
const std::filesystem::path kRank1 = kData / "ddp2/prof_3694202695959468801_1.json";

std::string slurp(const std::filesystem::path& p)
{
    auto text = readInputText(p);
    return text ? *text : std::string();
}

// Every wait above 50 ms: (rank, waited for, ms), in the order of the run.
std::vector<std::tuple<int, int, double>> longWaits(const RunResult& run)
{
    std::vector<std::tuple<int, int, double>> out;
    for (const Span& s : run.spans)
        if (s.kind == SpanKind::Wait && s.durationUs() > 50e3)
            out.emplace_back(s.rank, s.waitedFor, s.durationUs() / 1e3);
    return out;
}

TEST(NcclProfilerImport, TwoRanksNameTheStragglerAndItsWaits)
{
    auto job = importFiles({kData / "ddp2"});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->format, ImportFormat::NcclProfilerTrace);
    EXPECT_EQ(job->run.ranks, 2);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    const auto waits = longWaits(job->run);
    ASSERT_EQ(waits.size(), 2u);
    for (const auto& [rank, waitedFor, ms] : waits) {
        EXPECT_EQ(rank, 0);
        EXPECT_EQ(waitedFor, 1);
    }
    EXPECT_NEAR(std::get<2>(waits[0]), 301.016, 0.5);
    EXPECT_NEAR(std::get<2>(waits[1]), 300.996, 0.5);
    // the clock sentence states how far apart the ranks' kernel ends of a collective are
    const std::string clock = english(job->run.clockNote);
    EXPECT_NE(clock.find("%globaltimer"), std::string::npos) << clock;
    EXPECT_NE(clock.find("us of each other (median)"), std::string::npos) << clock;
    EXPECT_NE(render(job->run.clockNote, Language::Chinese).find("NCCL"), std::string::npos);
    EXPECT_NE(job->launch.find("NCCL profiler plugin traces"), std::string::npos) << job->launch;
}

TEST(NcclProfilerImport, FourRanksGzippedGiveEveryWaitOfTheReference)
{
    // tests/import/ncclprof_waits.py over the four files, the waits of steps 3 and 5 (AllReduce 7
    // and 13). Its AllReduce 0 waits (rank 0 61.693 ms, rank 3 70.791 ms) are DDP's set-up before
    // the first step, which the run leaves out with a note.
    const std::vector<double> expected = {306.572, 304.301, 302.064, 299.588, 297.365, 301.848};
    auto job = importFiles({kData / "ddp4"});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->run.ranks, 4);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    const auto waits = longWaits(job->run);
    ASSERT_EQ(waits.size(), expected.size());
    std::vector<double> want = expected, got;
    for (const auto& [rank, waitedFor, ms] : waits) {
        EXPECT_NE(rank, 1) << "the straggler waits for nobody";
        EXPECT_EQ(waitedFor, 1);
        got.push_back(ms);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    for (size_t i = 0; i < want.size(); ++i)
        EXPECT_NEAR(got[i], want[i], std::max(0.5, want[i] * 0.05)) << i;
    bool setUp = false;
    for (const Message& note : job->run.notes)
        setUp = setUp || english(note).find("set-up collectives before the first step") != std::string::npos;
    EXPECT_TRUE(setUp);
}

TEST(NcclProfilerImport, PipelineSendsAndReceivesAreRead)
{
    auto job = importFiles({kData / "pipeline2"});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->run.ranks, 2);
    int exchanges = 0;
    for (const CollectiveRecord& c : job->run.collectives)
        exchanges += c.kind == OpKind::SendRecv;
    EXPECT_GT(exchanges, 0);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    // tests/import/ncclprof_waits.py: rank 0's receives of the gradients from rank 1 in steps 1-3
    // (the plugin records no stop for point-to-point kernels: a receive ends when its send began)
    const std::vector<double> expected = {248.788, 305.467, 307.532};
    const auto waits = longWaits(job->run);
    ASSERT_EQ(waits.size(), expected.size());
    for (size_t i = 0; i < waits.size(); ++i) {
        EXPECT_EQ(std::get<0>(waits[i]), 0);
        EXPECT_EQ(std::get<1>(waits[i]), 1);
        EXPECT_NEAR(std::get<2>(waits[i]), expected[i], std::max(0.5, expected[i] * 0.05)) << i;
    }
    EXPECT_NE(english(job->run.clockNote).find("could not be measured"), std::string::npos);
}

TEST(NcclProfilerTrace, AFileInMemoryIsReadLineByLine)
{
    const std::string text = slurp(kRank0);
    NcclProfilerTraceCounts counts;
    auto file = parseNcclProfilerTrace(text, "r0.json", &counts);
    ASSERT_TRUE(file) << file.error().message;
    EXPECT_EQ(file->pid, 670);
    ASSERT_EQ(file->ops.size(), 29u);
    const ProfiledOp& first = file->ops.front();
    EXPECT_EQ(first.func, "AllGather");
    EXPECT_EQ(first.sequence, 0u);
    EXPECT_EQ(first.count, 8u);
    EXPECT_EQ(first.datatype, "ncclInt8");
    EXPECT_EQ(first.algorithm, "RING");
    EXPECT_EQ(*first.hash, 3694202695959468801ull);
    EXPECT_EQ(*first.rank, 0);
    EXPECT_EQ(first.group, 1u);
    ASSERT_EQ(first.kernel.size(), 1u);
    EXPECT_EQ(first.kernel[0].gpuStartNs, 1796534724343702944ull); // whole: a double would round it
    EXPECT_EQ(*first.kernel[0].gpuEndNs, 1796534724353300448ull);
    EXPECT_EQ(file->ops[1].func, "Broadcast");
    EXPECT_EQ(file->ops[1].root, 0);
    EXPECT_EQ(file->ops[1].group, 2u);
    EXPECT_EQ(counts.untimed, 0);
    EXPECT_EQ(counts.cutFiles, 0);

    // a file cut short (no closing line, the last event half written) is read up to the cut
    const size_t lastOpen = text.rfind("\"cat\": \"COLL\", \"ph\": \"b\"");
    NcclProfilerTraceCounts cutCounts;
    auto cut = parseNcclProfilerTrace(text.substr(0, lastOpen), "r0.json", &cutCounts);
    ASSERT_TRUE(cut) << cut.error().message;
    EXPECT_EQ(cut->ops.size(), 28u);
    EXPECT_EQ(cutCounts.cutFiles, 1);
    // a bad line before the end is named by file and line
    auto bad = parseNcclProfilerTrace("[\n{\"name\": 3}\n" + text.substr(2), "r0.json");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message.rfind("r0.json:2: ", 0), 0u) << bad.error().message;
    // a collective without its communicator
    std::string noHash = text;
    const std::string hash = "\"CommHash\": 3694202695959468801";
    noHash.replace(noHash.find(hash), hash.size(), "\"CommHash\": -1");
    auto unnamed = parseNcclProfilerTrace(noHash, "r0.json");
    ASSERT_FALSE(unnamed);
    EXPECT_NE(unnamed.error().message.find("$.args.CommHash: CommHash: missing, negative"), std::string::npos)
        << unnamed.error().message;
    EXPECT_EQ(render(unnamed.error().what, Language::Chinese), worded(unnamed.error(), Language::Chinese));
}

TEST(NcclProfilerTrace, BareNamesAndPointersAreQuoted)
{
    EXPECT_EQ(quoteBareValues(R"j({"datatype": ncclFloat32, "root": 0, "Stream": 0x4e150be0, "x": (nil)})j"),
              R"j({"datatype": "ncclFloat32", "root": 0, "Stream": "0x4e150be0", "x": "(nil)"})j");
    EXPECT_EQ(quoteBareValues(R"({"a": "b: c", "n": -1.5e3, "t": true, "o": {"k": null}})"),
              R"({"a": "b: c", "n": -1.5e3, "t": true, "o": {"k": null}})");
    // the oldest plugins printed the datatype as NCCL's number
    auto file = parseNcclProfilerTrace(
        "[\n{\"name\": \"AllReduce\", \"cat\": \"COLL\", \"ph\": \"b\", \"id\": 0, \"pid\": 9, \"tid\": 1, \"ts\": "
        "1.0, "
        "\"args\": {\"SeqNum\": 4, \"CommHash\": 77, \"Rank\": 1, \"Count\": 256, \"Datatype\": 7, \"Algorithm\": "
        "\"RING\", \"Protocol\": \"LL\", \"nMaxChannels\": 2}},\n{}]\n",
        "old.txt");
    ASSERT_TRUE(file) << file.error().message;
    ASSERT_EQ(file->ops.size(), 1u);
    EXPECT_EQ(file->ops[0].datatype, "ncclFloat32");
    EXPECT_EQ(file->ops[0].channels, 2);
}

class NcclProfilerBadInput : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir = std::filesystem::temp_directory_path() / ("shardlab_ncclprof_" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
    std::filesystem::path dir;
};

TEST_F(NcclProfilerBadInput, FilesWithoutEventsSayWhatToSet)
{
    // made with NCCL_PROFILE_EVENT_MASK unset: the plugin records nothing
    auto job = importFiles({kData / "unmasked2"});
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("the plugin recorded no collective or send/receive"), std::string::npos)
        << job.error().message;
    EXPECT_NE(job.error().message.find("NCCL_PROFILE_EVENT_MASK=64"), std::string::npos) << job.error().message;
    // a file the plugin never finished: its process ended before the communicator was destroyed
    const std::string head = slurp(kRank0).substr(0, 200);
    std::ofstream(dir / "prof_9_0.json") << head;
    auto cut = importFiles({dir / "prof_9_0.json"});
    ASSERT_FALSE(cut);
    EXPECT_NE(cut.error().message.find("holds no event and does not end as the plugin ends its files"),
              std::string::npos)
        << cut.error().message;
    EXPECT_NE(cut.error().message.find("ncclCommDestroy"), std::string::npos) << cut.error().message;
}

TEST_F(NcclProfilerBadInput, ATraceWithoutKernelChannelsIsRefused)
{
    std::string kept;
    std::istringstream lines(slurp(kRank1));
    for (std::string line; std::getline(lines, line);)
        if (line.find("\"cat\": \"GPU\"") == std::string::npos)
            kept += line + "\n";
    std::ofstream(dir / "prof_1.json") << kept;
    auto job = importFiles({kRank0, dir / "prof_1.json"});
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("no kernel channel with its GPU times"), std::string::npos)
        << job.error().message;
    EXPECT_NE(job.error().message.find("NCCL_PROFILE_EVENT_MASK=64"), std::string::npos) << job.error().message;
    EXPECT_NE(job.error().message.find("prof_1.json"), std::string::npos) << job.error().message;
}

TEST_F(NcclProfilerBadInput, TwoJobsTogetherAreNotOneRun)
{
    auto job = importFiles({kData / "ddp2", kData / "pipeline2"});
    ASSERT_FALSE(job) << "two jobs' traces were taken as one run";
    EXPECT_NE(job.error().message.find("files of another job given together?"), std::string::npos)
        << job.error().message;
}

TEST_F(NcclProfilerBadInput, ARankInTwoFilesIsSaid)
{
    std::filesystem::copy_file(kRank0, dir / "copy.json");
    auto job = importFiles({kRank0, kRank1, dir / "copy.json"});
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("rank 0"), std::string::npos) << job.error().message;
}

TEST(NcclProfilerImport, IsSniffedAndAFolderKeepsItsTxtTraces)
{
    const std::string head = slurp(kRank0).substr(0, 4096);
    EXPECT_EQ(sniffImportFormat("prof_1_0.json", head), ImportFormat::NcclProfilerTrace);
    EXPECT_EQ(sniffImportFormat("prof-host-12.txt", head), ImportFormat::NcclProfilerTrace);
    EXPECT_NE(sniffImportFormat("trace.json", "[{\"name\": \"x\", \"ph\": \"X\", \"ts\": 1}]"),
              ImportFormat::NcclProfilerTrace);
}

} // namespace
} // namespace shardlab
