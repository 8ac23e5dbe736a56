// The `shardlab` command line, run in-process: output formats and exit statuses of PRODUCT.md.
#include "cli_test_helpers.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace shardlab::cli;

using shardlab::test::CliRun;
using shardlab::test::runCommand;
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
    const std::string bad =
        writeTemp("shardlab-cli-bad.shardlab.json", R"({"shardlab": 1, "topology": {"preset": "x"}})");
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
    CliRun r = runCommand({"bench", "--collective", "all_reduce", "--gpus", "4", "--sizes", "8B:1GB:4", "--sim",
                           "--preset", "h200-nv18-4"});
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
    EXPECT_EQ(
        runCommand({"bench", "--collective", "all_shuffle", "--gpus", "2", "--sim", "--preset", "h200-nv18-4"}).status,
        kExitBadInput);
    EXPECT_EQ(runCommand({"bench", "--gpus", "2", "--sizes", "1G:1M", "--sim", "--preset", "h200-nv18-4"}).status,
              kExitBadInput);
    EXPECT_EQ(runCommand({"bench", "--gpus", "9", "--sim", "--preset", "h200-nv18-4"}).status, kExitBadInput);
}

TEST(Cli, RanksWithoutARouteExitTwo)
{
    // two GPUs and no link between them, and an all-reduce across both
    const std::string file = writeTemp("shardlab-cli-no-route.shardlab.json", R"({"shardlab": 1, "name": "cut off",
      "topology": {"gpus": [{"id": "g0", "name": "G", "memory": "16GB", "tflops": 10},
                            {"id": "g1", "name": "G", "memory": "16GB", "tflops": 10}], "links": []},
      "workload": [],
      "program": [{"op": "all_reduce", "name": "grads", "bytes": "1MB"}]})");
    const CliRun r = runCommand({"sim", file});
    EXPECT_EQ(r.status, kExitBadInput) << r.out << r.err;
    EXPECT_NE(r.err.find("rank 0 has no route to rank 1"), std::string::npos) << r.err;
    EXPECT_EQ(runCommand({"diagnose", file}).status, kExitBadInput);
}

TEST(Cli, ATopologyOfMoreGpusThanTheLimitExitsTwo)
{
    std::string gpus;
    for (int i = 0; i < 65537; ++i)
        gpus += std::string(i ? "," : "") + R"({"memory": "1 GB", "tflops": 1})";
    const std::string file = writeTemp("shardlab-cli-too-many-gpus.shardlab.json",
                                       R"({"shardlab": 1, "name": "too big", "topology": {"gpus": [)" + gpus + "]}}");
    const CliRun r = runCommand({"sim", file});
    EXPECT_EQ(r.status, kExitBadInput) << r.out << r.err;
    EXPECT_NE(r.err.find("$.topology.gpus: 65537 GPUs (expected at most 65536"), std::string::npos) << r.err;
}

TEST(Cli, AHangInTheFirstCollectiveSaysNoneCompletedYet)
{
    const std::string file =
        writeTemp("shardlab-cli-first-hang.shardlab.json", R"({"shardlab": 1, "name": "first call differs",
      "topology": {"preset": "h200-nv18-4", "gpus": 2},
      "program": [{"op": "all_reduce", "name": "grads", "bytes": "1MB"}],
      "perturbations": {"mismatches": [{"type": "wrong_count", "rank": 1, "op": 0, "iteration": 0, "bytes": "4KB"}]}})");
    const CliRun r = runCommand({"sim", file});
    EXPECT_EQ(r.status, kExitRunFailed) << r.out << r.err;
    EXPECT_EQ(r.err.find("#-1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("rank 0: no collective completed yet"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("rank 1 is the first that differs"), std::string::npos) << r.err; // not rank 0
    const CliRun d = runCommand({"diagnose", file});
    EXPECT_EQ(d.out.find("#-1"), std::string::npos) << d.out;
}

TEST(Cli, AnOutputThatIsTheScenarioIsRefusedAndTheScenarioKept)
{
    std::ifstream src(std::string(SHARDLAB_SCENARIO_DIR) + "/straggler-12-6-4-2.shardlab.json");
    std::stringstream text;
    text << src.rdbuf();
    const std::string file = writeTemp("shardlab-cli-self.shardlab.json", text.str());
    for (const char* option : {"--trace", "--result"}) {
        const CliRun r = runCommand({"sim", file, option, file});
        EXPECT_EQ(r.status, kExitBadInput) << option << r.err;
        EXPECT_NE(r.err.find("that is the scenario file being run"), std::string::npos) << r.err;
    }
    // the same file by another spelling
    const std::string other =
        (std::filesystem::path(file).parent_path() / "." / "shardlab-cli-self.shardlab.json").string();
    EXPECT_EQ(runCommand({"sim", file, "--trace", other}).status, kExitBadInput);
    std::ifstream after(file);
    std::stringstream kept;
    kept << after.rdbuf();
    EXPECT_EQ(kept.str(), text.str());
}

TEST(Cli, NumericOptionsSayWhatWasWrongAndWhatIsExpected)
{
    const std::string file = std::string(SHARDLAB_SCENARIO_DIR) + "/straggler-12-6-4-2.shardlab.json";
    CliRun r = runCommand({"sim", file, "--iterations", "abc"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("'abc' is not a whole number (expected 1 to 100000)"), std::string::npos) << r.err;
    r = runCommand({"topo", "--preset", "h200-nv18-4", "--gpus", "0"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("0 is out of range (expected 1 to 1048576)"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("1797693"), std::string::npos) << r.err; // no 309-digit bound
    EXPECT_EQ(runCommand({"sim", file, "--iterations", "3"}).status, 0);
}

TEST(Cli, RanksOutsideTheTopologyAreReportedWhereTheFileNamesThem)
{
    const std::string file = writeTemp(
        "shardlab-cli-rank7.shardlab.json",
        R"({"shardlab":1,"topology":{"preset":"h200-nv18-4"},"workload":[{"name":"x","kind":"data","size":"1 GB","split_across":[0,1,7]}]})");
    const CliRun r = runCommand({"sim", file});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("$.workload[0].split_across[2]: rank 7 does not exist (expected 0..3)"), std::string::npos)
        << r.err;
    // a unit error says what it expected once
    const std::string unit = writeTemp(
        "shardlab-cli-unit.shardlab.json",
        R"({"shardlab":1,"topology":{"preset":"h200-nv18-4"},"workload":[{"name":"x","kind":"data","size":"1 QB"}]})");
    const CliRun u = runCommand({"sim", unit});
    EXPECT_EQ(u.status, kExitBadInput);
    const size_t first = u.err.find("(expected");
    ASSERT_NE(first, std::string::npos) << u.err;
    EXPECT_EQ(u.err.find("(expected", first + 1), std::string::npos) << u.err;
}

TEST(Cli, AnEmptyLessonFolderIsAnError)
{
    const auto dir = std::filesystem::temp_directory_path() / "shardlab-cli-no-lessons";
    std::filesystem::create_directories(dir);
    const CliRun r = runCommand({"lessons", "--dir", dir.string()});
    EXPECT_EQ(r.status, kExitBadInput) << r.out;
    EXPECT_NE(r.err.find("holds no lessons"), std::string::npos) << r.err;
}

TEST(Cli, WritingOverAFolderSaysItIsAFolder)
{
    const auto dir = std::filesystem::temp_directory_path() / "shardlab-cli-out.html";
    std::filesystem::create_directories(dir);
    const CliRun r = runCommand(
        {"report", std::string(SHARDLAB_SCENARIO_DIR) + "/straggler-12-6-4-2.shardlab.json", "-o", dir.string()});
    EXPECT_EQ(r.status, kExitBadInput) << r.err;
    EXPECT_EQ(r.err.find("(Success)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is a folder"), std::string::npos) << r.err;
}

TEST(Cli, ControlCharactersFromAFileReachTheTerminalAsText)
{
    // an ESC sequence in a GPU name would recolour the terminal; a DEL byte would erase
    const std::string file =
        writeTemp("shardlab-cli-esc.shardlab.json", R"({"shardlab": 1, "name": "esc\u001b[31m red\u007f",
      "topology": {"gpus": [{"id": "g0", "name": "G\u001b[2J", "memory": "16GB", "tflops": 10}], "links": []},
      "program": [{"op": "compute", "name": "work", "flops": "1 TFLOP"}]})");
    const CliRun r = runCommand({"sim", file});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
    EXPECT_EQ(r.out.find('\x7f'), std::string::npos);
    EXPECT_NE(r.out.find("esc\\x1b[31m red\\x7f"), std::string::npos) << r.out;
    // --json stays valid JSON (its escapes are JSON's own)
    const CliRun j = runCommand({"sim", file, "--json"});
    EXPECT_TRUE(nlohmann::json::accept(j.out)) << j.out;
    // a binary file's message names its first byte in words
    const std::string bin = writeTemp("shardlab-cli-bin.shardlab.json", std::string("\x7f"
                                                                                    "ELF\x02\x01",
                                                                                    6));
    const CliRun b = runCommand({"sim", bin});
    EXPECT_EQ(b.status, kExitBadInput);
    EXPECT_EQ(b.err.find('\x7f'), std::string::npos);
    EXPECT_NE(b.err.find("its first byte is 0x7f"), std::string::npos) << b.err;
}
