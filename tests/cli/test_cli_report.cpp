// `shardlab report` and `shardlab lessons`, run in-process (PDF output is tested with Qt in
// tests/report).
#include "cli_test_helpers.h"
#include "shardlab/live/live.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace shardlab::cli;

using shardlab::test::CliRun;
using shardlab::test::runCommand;
using shardlab::test::scenario;

namespace {
std::string slurp(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
} // namespace

TEST(CliReport, WritesTheHtmlReport)
{
    const auto out = std::filesystem::temp_directory_path() / "shardlab-cli-report.html";
    std::filesystem::remove(out);
    const CliRun r = runCommand({"report", scenario("straggler-12-6-4-2.shardlab.json"), "-o", out.string()});
    ASSERT_EQ(r.status, kExitOk) << r.err;
    EXPECT_NE(r.out.find("limited by wait"), std::string::npos);
    const std::string html = slurp(out);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("the straggler is rank 0"), std::string::npos);
    EXPECT_NE(html.find("Timing at 4 message sizes"), std::string::npos);
}

// --lang zh writes the report in Chinese; without --lang the environment decides (LC_ALL, then
// LC_MESSAGES, then LANG); anything but en or zh is refused.
TEST(CliReport, WritesTheReportInTheChosenLanguage)
{
    const auto out = std::filesystem::temp_directory_path() / "shardlab-cli-report-zh.html";
    std::filesystem::remove(out);
    const CliRun zh =
        runCommand({"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", out.string(), "--lang", "zh"});
    ASSERT_EQ(zh.status, kExitOk) << zh.err;
    std::string html = slurp(out);
    EXPECT_NE(html.find("<html lang=\"zh-CN\">"), std::string::npos);
    EXPECT_NE(html.find("实验报告：数据所有权与 All-Reduce"), std::string::npos);
    EXPECT_EQ(html.find("Per-rank output"), std::string::npos);

    const std::string saved = std::getenv("LC_ALL") ? std::getenv("LC_ALL") : "";
    const bool had = std::getenv("LC_ALL") != nullptr;
    ::setenv("LC_ALL", "zh_CN.UTF-8", 1);
    const CliRun fromEnvironment =
        runCommand({"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", out.string()});
    const std::string environmentHtml = slurp(out);
    const CliRun english =
        runCommand({"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", out.string(), "--lang", "en"});
    const std::string englishHtml = slurp(out);
    if (had)
        ::setenv("LC_ALL", saved.c_str(), 1);
    else
        ::unsetenv("LC_ALL");
    ASSERT_EQ(fromEnvironment.status, kExitOk) << fromEnvironment.err;
    ASSERT_EQ(english.status, kExitOk) << english.err;
    EXPECT_NE(environmentHtml.find("<html lang=\"zh-CN\">"), std::string::npos);
    EXPECT_NE(englishHtml.find("<html lang=\"en\">"), std::string::npos);
    EXPECT_NE(englishHtml.find("1. Per-rank output"), std::string::npos);

    const CliRun bad =
        runCommand({"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", out.string(), "--lang", "fr"});
    EXPECT_EQ(bad.status, kExitBadInput);
    EXPECT_NE(bad.err.find("expected en or zh"), std::string::npos);
}

TEST(CliReport, SizesAndOutputsAreChecked)
{
    const auto out = std::filesystem::temp_directory_path() / "shardlab-cli-report-sizes.html";
    const CliRun three = runCommand(
        {"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", out.string(), "--sizes", "1M:64M:8"});
    ASSERT_EQ(three.status, kExitOk) << three.err;
    EXPECT_NE(slurp(out).find("Timing at 3 message sizes"), std::string::npos);
    const CliRun two = runCommand(
        {"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", out.string(), "--sizes", "1M,2M"});
    EXPECT_EQ(two.status, kExitBadInput);
    EXPECT_NE(two.err.find("at least three"), std::string::npos);
    EXPECT_EQ(runCommand({"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", "out.docx"}).status,
              kExitBadInput);
    EXPECT_EQ(runCommand({"report", "/nonexistent.shardlab.json", "-o", out.string()}).status, kExitBadInput);
    // no PDF writer installed in this test program: a clear message, not a crash
    setPdfReportWriter({});
    const CliRun pdf = runCommand({"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", "x.pdf"});
    EXPECT_EQ(pdf.status, kExitBadInput);
    EXPECT_NE(pdf.err.find("PDF"), std::string::npos);
}

TEST(CliReport, AHungRunIsReportedAndExitsWithThree)
{
    const auto out = std::filesystem::temp_directory_path() / "shardlab-cli-report-hang.html";
    std::filesystem::remove(out);
    const CliRun r = runCommand({"report", scenario("hang-mismatched-collective.shardlab.json"), "-o", out.string()});
    EXPECT_EQ(r.status, kExitRunFailed);
    EXPECT_NE(slurp(out).find("the run hung"), std::string::npos);
}

TEST(CliReport, LiveNeedsLiveMode)
{
    if (shardlab::liveBuiltIn())
        GTEST_SKIP() << "this build has live mode; the GPU tests cover --live";
    const CliRun r = runCommand({"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", "x.html", "--live"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("live mode is not built in"), std::string::npos);
}

TEST(CliLessons, ListShowAndCheck)
{
    const CliRun list = runCommand({"lessons"});
    ASSERT_EQ(list.status, kExitOk) << list.err;
    EXPECT_NE(list.out.find("straggler-12-6-4-2"), std::string::npos);
    const CliRun json = runCommand({"lessons", "--json", "--lang", "zh"});
    ASSERT_EQ(json.status, kExitOk);
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_EQ(j.size(), 15u);
    EXPECT_EQ(j[4]["id"], "speedup-1-6x");
    EXPECT_EQ(j[4]["title"], "两张 GPU：1.6 倍，不是 2 倍");

    const CliRun show = runCommand({"lessons", "show", "speedup-1-6x", "--lang", "en"});
    ASSERT_EQ(show.status, kExitOk);
    EXPECT_NE(show.out.find("Steps"), std::string::npos);
    EXPECT_NE(show.out.find("Q1 (numeric, x)"), std::string::npos);

    const CliRun right = runCommand({"lessons", "check", "speedup-1-6x", "1.6", "--lang", "en"});
    EXPECT_EQ(right.status, kExitOk);
    EXPECT_EQ(right.out.rfind("Right.", 0), 0u);
    const CliRun wrong = runCommand({"lessons", "check", "straggler-12-6-4-2", "b", "-q", "3", "--lang", "zh"});
    EXPECT_EQ(wrong.status, kExitOk); // b is right
    const CliRun no = runCommand({"lessons", "check", "straggler-12-6-4-2", "3", "--lang", "zh"});
    EXPECT_EQ(no.status, 1);
    EXPECT_EQ(no.out.rfind("还不对", 0), 0u);
    EXPECT_EQ(runCommand({"lessons", "check", "straggler-12-6-4-2", "many"}).status, kExitBadInput);
    EXPECT_EQ(runCommand({"lessons", "show", "nope"}).status, kExitBadInput);
    EXPECT_EQ(runCommand({"lessons", "--dir", "/nonexistent"}).status, kExitBadInput);
    EXPECT_EQ(runCommand({"lessons", "--lang", "fr"}).status, kExitBadInput);
}
