// `shardlab import` and the commands that take a recorded run (issue 28, section 2): the same table
// and --json as `sim`, a result file that `diagnose` (before: eight "unknown key" lines) and
// `profile --resimulate` read back, and one line for a file of another kind.
#include "../cli/cli_test_helpers.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace shardlab {
namespace {

using test::runCommand;

const std::string kData = std::string(SHARDLAB_SOURCE_DIR) + "/tests/import/data";

class CliImport : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir = std::filesystem::temp_directory_path() / ("shardlab_cli_import_" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
    std::filesystem::path dir;
};

TEST_F(CliImport, KinetoTracesPrintTheRunAndWriteAResultThatDiagnoseReads)
{
    const std::string result = (dir / "job.shardlab-result.json").string();
    auto r = runCommand(
        {"import", kData + "/kineto/ddp2", "--result", result, "--trace", (dir / "job.trace.json").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Read 2 file(s), PyTorch profiler (Kineto) trace: a job of 2 ranks."), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("straggler rank 1"), std::string::npos) << r.out;
    EXPECT_TRUE(std::filesystem::exists(dir / "job.trace.json"));
    auto d = runCommand({"diagnose", result});
    ASSERT_EQ(d.status, 0) << d.err;
    EXPECT_EQ(d.err.find("unknown key"), std::string::npos) << d.err;
    EXPECT_NE(d.out.find("Every sync point waits for rank 1"), std::string::npos) << d.out;
    EXPECT_NE(d.out.find("as recorded, it works"), std::string::npos) << d.out;
    // the handbook's checks of what was never recorded are not offered as evidence
    EXPECT_EQ(d.out.find("shard sizes"), std::string::npos) << d.out;
    // the folder itself, diagnosed directly
    auto folder = runCommand({"diagnose", kData + "/inspector/ddp2", "--json"});
    ASSERT_EQ(folder.status, 0) << folder.err;
    const auto findings = nlohmann::json::parse(folder.out);
    ASSERT_FALSE(findings["findings"].empty());
    // the lab report of the recorded run: shown as measured, nothing verified, nothing run again
    const std::string html = (dir / "job.html").string();
    auto rep = runCommand({"report", result, "-o", html});
    ASSERT_EQ(rep.status, 0) << rep.err;
    std::ifstream in(html);
    const std::string page((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(page.find("Recorded while the program ran, not run by ShardLab"), std::string::npos);
    EXPECT_NE(page.find("not verified: the run was recorded by another program"), std::string::npos);
    EXPECT_EQ(page.find(">PASS<"), std::string::npos);
    EXPECT_EQ(page.find(">FAIL<"), std::string::npos);
    auto refused = runCommand({"report", result, "-o", html, "--live"});
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find("is a recorded run"), std::string::npos) << refused.err;
    // the what-if reads the result back
    auto what = runCommand({"profile", "--resimulate", result});
    EXPECT_EQ(what.status, 0) << what.err;
}

TEST_F(CliImport, JsonIsTheSummaryAsSimPrintsIt)
{
    auto r = runCommand({"import", kData + "/kineto/ddp4", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["ranks"], 4);
    EXPECT_EQ(j["straggler_rank"], 1);
    EXPECT_NE(r.err.find("Read 4 file(s)"), std::string::npos) << r.err; // said on stderr: stdout stays one object
}

TEST_F(CliImport, AFileOfAnotherKindGetsOneLineSayingWhatItIsAndWhichCommandTakesIt)
{
    auto r = runCommand({"import", std::string(SHARDLAB_SCENARIO_DIR) + "/default.shardlab.json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("ShardLab scenario, not a recorded run; command: shardlab sim FILE"), std::string::npos)
        << r.err;
    std::ofstream(dir / "notes.log") << "hello\n";
    auto unknown = runCommand({"import", (dir / "notes.log").string()});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("file of unknown kind"), std::string::npos) << unknown.err;
    auto mixed = runCommand(
        {"import", kData + "/kineto/ddp2/kineto_rank0.json.gz", kData + "/inspector/ddp2/rank1_vm-pid1308.log"});
    EXPECT_EQ(mixed.status, 2);
    EXPECT_NE(mixed.err.find("import the files of one job, of one kind, together"), std::string::npos) << mixed.err;
}

TEST_F(CliImport, ChineseToo)
{
    auto r = runCommand({"--lang", "zh", "import", kData + "/inspector/ddp2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("已读取 2 个文件（NCCL Inspector 日志）"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("读自 NCCL Inspector 日志"), std::string::npos) << r.out;
}

} // namespace
} // namespace shardlab
