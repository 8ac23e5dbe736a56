// The `shardlab` command line, run in-process: output formats and exit statuses of PRODUCT.md.
#include "cli_test_helpers.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace shardlab::cli;

using shardlab::test::runCommand;
using shardlab::test::CliRun;
using shardlab::test::scenario;

namespace {
std::string writeTemp(const std::string& name, const std::string& text)
{
    const auto p = std::filesystem::temp_directory_path() / name;
    std::ofstream(p) << text;
    return p.string();
}
} // namespace

TEST(Cli, VersionSaysWhetherLiveModeIsBuiltIn)
{
    const CliRun r = runCommand({"--version"});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("shardlab ", 0), 0u);
    EXPECT_NE(r.out.find("live mode: "), std::string::npos);
}

TEST(Cli, TopoPrintsTheMatrix)
{
    const CliRun r = runCommand({"topo", "--preset", "h200-nv18-4"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("NV18"), std::string::npos);
    EXPECT_EQ(runCommand({"topo", "--preset", "nope"}).status, kExitBadInput);
    EXPECT_EQ(runCommand({"topo", "--preset", "h200-nv18-4", "--gpus", "9"}).status, kExitBadInput);
    EXPECT_NE(runCommand({"topo", "--list"}).out.find("dgx1-p100"), std::string::npos);
}

TEST(Cli, SimTableJsonAndTrace)
{
    CliRun r = runCommand({"sim", scenario("straggler-12-6-4-2.shardlab.json")});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("straggler rank 0"), std::string::npos);
    const auto trace = (std::filesystem::temp_directory_path() / "shardlab-cli-trace.json").string();
    r = runCommand({"sim", scenario("straggler-12-6-4-2.shardlab.json"), "--json", "--trace", trace});
    EXPECT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["straggler_rank"], 0);
    std::ifstream in(trace);
    ASSERT_TRUE(in.good());
    EXPECT_TRUE(nlohmann::json::parse(in).contains("traceEvents"));
    std::filesystem::remove(trace);
}

TEST(Cli, BadFilesExitTwoWithThePath)
{
    const std::string bad = writeTemp("shardlab-cli-bad.shardlab.json", R"({"shardlab": 1, "topology": {"preset": "x"}})");
    CliRun r = runCommand({"sim", bad});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("$.topology.preset"), std::string::npos) << r.err;
    r = runCommand({"sim", "/no/such/file.shardlab.json"});
    EXPECT_EQ(r.status, kExitBadInput);
    r = runCommand({"sim"});
    EXPECT_EQ(r.status, kExitBadInput);
    r = runCommand({"frobnicate"});
    EXPECT_EQ(r.status, kExitBadInput);
}

TEST(Cli, HangExitsThree)
{
    const std::string hang = writeTemp("shardlab-cli-hang.shardlab.json", R"({"shardlab": 1,
      "topology": {"preset": "teaching-4x16gb-pcie"},
      "program": [{"op": "all_reduce", "bytes": "1 MB"}],
      "perturbations": {"mismatches": [{"type": "wrong_op", "rank": 2, "op": 0, "replacement": "broadcast"}]}})");
    const CliRun r = runCommand({"sim", hang});
    EXPECT_EQ(r.status, kExitRunFailed);
    EXPECT_NE(r.err.find("rank 2"), std::string::npos) << r.err;
}

TEST(Cli, BenchSimInNcclTestsColumns)
{
    CliRun r = runCommand({"bench", "--collective", "all_reduce", "--gpus", "4", "--sizes", "8B:1GB:4", "--sim", "--preset", "h200-nv18-4"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("#wrong"), std::string::npos);
    EXPECT_NE(r.out.find("algbw"), std::string::npos);
    EXPECT_NE(r.out.find("536870912"), std::string::npos); // 8 x 4^13: the last size <= 1 GiB, as nccl-tests -f 4
    r = runCommand({"bench", "--collective", "all_gather", "--gpus", "2", "--sizes", "1M,16M,256M", "--sim", "--preset",
             "h200-nv18-4", "--json"});
    EXPECT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["rows"].size(), 3u);
    EXPECT_EQ(doc["rows"][0]["size"], 1048576);
    EXPECT_EQ(runCommand({"bench", "--collective", "all_shuffle", "--gpus", "2", "--sim", "--preset", "h200-nv18-4"}).status,
              kExitBadInput);
    EXPECT_EQ(runCommand({"bench", "--gpus", "2", "--sizes", "1G:1M", "--sim", "--preset", "h200-nv18-4"}).status, kExitBadInput);
    EXPECT_EQ(runCommand({"bench", "--gpus", "9", "--sim", "--preset", "h200-nv18-4"}).status, kExitBadInput);
}
