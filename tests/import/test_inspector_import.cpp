// NCCL Inspector logs (engine/import/src/inspector_import.cpp), on the real logs of
// tests/import/data/inspector/ddp2 (README.md there: rank 1 sleeps 300 ms before steps 3 and 5;
// AllReduce 7 and 13 are those steps' first buckets). Expected waits, from the logs alone: rank 1's
// first kernel-channel start minus rank 0's, at AllReduce 7: 302.820 ms, at AllReduce 13:
// 302.795 ms (python3 over the two files; the test's numbers are within 5% or 0.5 ms of them).
#include "shardlab/analysis/summary.h"
#include "shardlab/import/import_job.h"
#include "shardlab/import/inspector_log.h"
#include "shardlab/text/foreign_text.h"
#include "shardlab/text/message.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace shardlab {
namespace {

const std::filesystem::path kDir = std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/import/data/inspector/ddp2";

TEST(InspectorImport, TwoRanksNameTheStragglerAndItsWaits)
{
    auto job = importFiles({kDir});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->format, ImportFormat::NcclInspector);
    EXPECT_EQ(job->run.ranks, 2);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    std::vector<double> waits;
    for (const Span& s : job->run.spans)
        if (s.kind == SpanKind::Wait && s.durationUs() > 50e3) {
            EXPECT_EQ(s.rank, 0);
            EXPECT_EQ(s.waitedFor, 1);
            waits.push_back(s.durationUs() / 1e3);
        }
    ASSERT_EQ(waits.size(), 2u);
    std::sort(waits.begin(), waits.end());
    EXPECT_NEAR(waits[0], 302.795, 0.5);
    EXPECT_NEAR(waits[1], 302.820, 0.5);
    EXPECT_NE(english(job->run.clockNote).find("output format v4.0"), std::string::npos) << english(job->run.clockNote);
    EXPECT_NE(render(job->run.clockNote, Language::Chinese).find("NCCL Inspector"), std::string::npos);
}

TEST(InspectorLog, ALogInMemoryIsReadLineByLine)
{
    std::ifstream in(kDir / "rank0_vm-pid1307.log");
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    auto log = parseInspectorLog(text, "rank0.log");
    ASSERT_TRUE(log) << log.error().message;
    EXPECT_EQ(log->path, "rank0.log");
    EXPECT_EQ(log->host, "vm");
    EXPECT_EQ(log->pid, 1307);
    ASSERT_EQ(log->comms.size(), 1u);
    EXPECT_EQ(log->comms[0].rank, 0);
    EXPECT_EQ(log->comms[0].ranks, 2);
    EXPECT_EQ(log->ops.size(), 29u); // one collective a line
    EXPECT_EQ(log->ops.front().func, "AllGather");
    EXPECT_EQ(log->ops.front().hostNs, 0); // times after the log's first start
    for (size_t i = 1; i < log->ops.size(); ++i)
        EXPECT_LE(log->ops[i - 1].hostNs, log->ops[i].hostNs);
    // a last line cut short is left out; a bad line before it, or no line at all, is an error
    auto cut = parseInspectorLog(text.substr(0, text.size() - 40), "rank0.log");
    ASSERT_TRUE(cut) << cut.error().message;
    EXPECT_EQ(cut->ops.size(), 28u);
    auto bad = parseInspectorLog("{\"header\": 3}\n" + text, "rank0.log");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message.rfind("rank0.log:1: ", 0), 0u) << bad.error().message;
    auto empty = parseInspectorLog("\n\n", "empty.log");
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().message.rfind("empty.log: no collective recorded", 0), 0u) << empty.error().message;
    // issue 26: a collective without its name is born a Message, which says in Chinese what the
    // catalogue's templates made of its English
    std::string unnamed = text;
    const std::string name = "\"coll\":\"AllGather\"";
    unnamed.replace(unnamed.find(name), name.size(), "\"coll\":\"\"");
    auto noName = parseInspectorLog(unnamed, "rank0.log");
    ASSERT_FALSE(noName);
    EXPECT_EQ(noName.error().message, "rank0.log:1: $.coll_perf.coll: missing");
    EXPECT_FALSE(noName.error().what.empty());
    EXPECT_EQ(render(noName.error().what, Language::Chinese), worded(noName.error(), Language::Chinese));
}

class InspectorBadInput : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir = std::filesystem::temp_directory_path() / ("shardlab_inspector_" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
    std::string lines(const std::string& name)
    {
        std::ifstream in(kDir / name);
        return std::string((std::istreambuf_iterator<char>(in)), {});
    }
    std::filesystem::path dir;
};

TEST_F(InspectorBadInput, ABrokenLineIsNamedByFileAndLine)
{
    std::string text = lines("rank1_vm-pid1308.log");
    const size_t third = text.find('\n', text.find('\n', text.find('\n') + 1) + 1);
    text.insert(third + 1, "{\"header\": 3}\n");
    std::ofstream(dir / "rank1.log") << text;
    auto job = importFiles({kDir / "rank0_vm-pid1307.log", dir / "rank1.log"});
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("rank1.log:4: "), std::string::npos) << job.error().message;
}

TEST_F(InspectorBadInput, AMissingRankIsSaid)
{
    auto job = importFiles({kDir / "rank0_vm-pid1307.log"});
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("rank 1 of the 2-rank communicator"), std::string::npos) << job.error().message;
}

TEST_F(InspectorBadInput, ALastLineCutShortIsLeftOutWithANote)
{
    std::string text = lines("rank1_vm-pid1308.log");
    text.resize(text.size() - 40); // the last line, cut
    std::ofstream(dir / "rank1.log") << text;
    auto job = importFiles({kDir / "rank0_vm-pid1307.log", dir / "rank1.log"});
    ASSERT_TRUE(job) << job.error().message;
    bool noted = false;
    for (const std::string& n : english(job->run.notes))
        noted = noted || n.find("cut short") != std::string::npos;
    EXPECT_TRUE(noted);
    // rank 1's records end before rank 0's: the run says so (the hang report of a process that ended)
    EXPECT_TRUE(job->run.hang.has_value());
}

} // namespace
} // namespace shardlab
