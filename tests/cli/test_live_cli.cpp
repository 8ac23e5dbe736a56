// The live commands' exit statuses and messages where live mode cannot run (no GPU, no driver, or
// a build without CUDA): always 2 with the reason, never a crash. On a machine with GPUs the
// GPU tests (tests/gpu) cover the successful paths and these skip.
#include "cli_test_helpers.h"
#include "shardlab/live/live.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include <unistd.h>

using namespace shardlab::cli;
using shardlab::test::CliRun;
using shardlab::test::scenario;

namespace {
CliRun run(std::vector<std::string> args) { return shardlab::test::runCommand(std::move(args)); }

bool liveRunsHere() { return shardlab::liveDevices().ok(); }
} // namespace

TEST(LiveCli, VersionSaysBuiltInAndWhetherItLoads)
{
    const CliRun r = run({"--version"});
    EXPECT_EQ(r.status, 0);
    if (shardlab::liveBuiltIn())
        EXPECT_NE(r.out.find("loads here: "), std::string::npos) << r.out;
    else
        EXPECT_NE(r.out.find("not built in"), std::string::npos) << r.out;
}

TEST(LiveCli, WithoutUsableGpusEveryLiveCommandExitsTwoWithTheReason)
{
    if (liveRunsHere())
        GTEST_SKIP() << "this machine has GPUs: tests/gpu covers the live commands";
    const std::string why = shardlab::liveDevices().error().message;
    EXPECT_FALSE(why.empty());
    CliRun r = run({"live", scenario("default.shardlab.json")});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    r = run({"bench", "--collective", "all_reduce", "--gpus", "2", "--sizes", "8:1K:2"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_FALSE(r.err.empty());
    r = run({"topo"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_FALSE(r.err.empty());
}

TEST(LiveCli, BadArgumentsAreBadInputEverywhere)
{
    EXPECT_EQ(run({"live", "/no/such/file.shardlab.json"}).status, kExitBadInput);
    EXPECT_EQ(run({"live"}).status, kExitBadInput);
    EXPECT_EQ(run({"live", scenario("default.shardlab.json"), "--watchdog-ms", "0"}).status, kExitBadInput);
    EXPECT_EQ(run({"bench", "--collective", "compute", "--gpus", "2"}).status, kExitBadInput);
    EXPECT_EQ(run({"bench", "--collective", "all_reduce", "--gpus", "2", "--iters", "0"}).status, kExitBadInput);
}

TEST(LiveCli, LiveApiRefusesCleanlyWithoutGpus)
{
    if (liveRunsHere())
        GTEST_SKIP() << "this machine has GPUs: tests/gpu covers the live API";
    for (const auto& e :
         {shardlab::runLive({}).error(), shardlab::benchLive(shardlab::OpKind::AllReduce, 1, {8}).error(),
          shardlab::discoverTopology().error(), shardlab::measureComputeTflops(0).error(),
          shardlab::checkClockAlignment(0).error()}) {
        EXPECT_EQ(e.kind, shardlab::ErrorKind::BadInput) << e.message;
        EXPECT_FALSE(e.message.empty());
    }
}

TEST(LiveCli, WithJsonWhatTheGpuLibrariesPrintGoesToStandardError)
{
    // NCCL prints its version line on file descriptor 1 when NCCL_DEBUG is set; around the GPU
    // work of a --json command that descriptor leads to standard error, and back afterwards.
    char outName[] = "/tmp/shardlab-fd1-XXXXXX";
    char errName[] = "/tmp/shardlab-fd2-XXXXXX";
    const int outFd = mkstemp(outName), errFd = mkstemp(errName);
    ASSERT_GE(outFd, 0);
    ASSERT_GE(errFd, 0);
    std::fflush(stdout);
    std::fflush(stderr);
    const int savedOut = dup(1), savedErr = dup(2);
    dup2(outFd, 1);
    dup2(errFd, 2);
    {
        StdoutToStderr quiet(true);
        std::printf("NCCL version 2.28.9+cuda13.0\n");
        std::fflush(stdout);
    }
    {
        StdoutToStderr off(false);
        std::printf("{\"mode\": \"live\"}\n");
        std::fflush(stdout);
    }
    dup2(savedOut, 1);
    dup2(savedErr, 2);
    close(savedOut);
    close(savedErr);
    auto slurp = [](const char* name) {
        std::ifstream in(name);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    EXPECT_EQ(slurp(outName), "{\"mode\": \"live\"}\n");
    EXPECT_EQ(slurp(errName), "NCCL version 2.28.9+cuda13.0\n");
    close(outFd);
    close(errFd);
    std::remove(outName);
    std::remove(errName);
}

// Issue 14: without a GPU, live-only commands suggest their own simulated form, not `shardlab sim`.
TEST(LiveCli, LiveOnlyCommandsSuggestTheirOwnSimulatedForm)
{
    if (auto d = shardlab::liveDevices(); d && !d->empty())
        GTEST_SKIP() << "a GPU is visible here: the live commands run";
    const CliRun b = run({"bench", "--collective", "all_reduce", "--gpus", "2", "--sizes", "1M"});
    EXPECT_NE(b.status, 0);
    EXPECT_EQ(b.err.find("`shardlab sim`"), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("--sim"), std::string::npos) << b.err;
    const CliRun c = run({"calibrate", "--gpus", "2"});
    EXPECT_NE(c.status, 0);
    EXPECT_EQ(c.err.find("`shardlab sim`"), std::string::npos) << c.err;
}

// `live --share-gpu N`: what is wrong is said once, before any process starts, in the user's
// language; on a machine with no GPU it says so and starts nothing.
TEST(LiveCli, SharingOneGpuChecksTheRankCountTheScenarioAndTheGpuFirst)
{
    const std::string straggler = scenario("straggler-12-6-4-2.shardlab.json"); // 4 GPUs
    CliRun r = run({"live", straggler, "--share-gpu", "1"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("--share-gpu 1: between 2 and 8 ranks can share one GPU"), std::string::npos) << r.err;
    r = run({"live", straggler, "--share-gpu", "2"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("the scenario has 4 GPUs but --share-gpu 2 starts 2 ranks: use --share-gpu 4"),
              std::string::npos)
        << r.err;
    r = run({"--lang", "zh", "live", straggler, "--share-gpu", "2"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("场景有 4 块 GPU，而 --share-gpu 2 会启动 2 个 Rank：请改用 --share-gpu 4"), std::string::npos)
        << r.err;
    r = run({"live", scenario("no-such-file.shardlab.json"), "--share-gpu", "2"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("no-such-file"), std::string::npos) << r.err;
    if (liveRunsHere())
        return; // it would run: tests/gpu/share_gpu_gpu.sh does that with the real program
    r = run({"live", straggler, "--share-gpu", "4"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find(shardlab::liveDevices().error().message.substr(0, 30)), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("ranks on GPU"), std::string::npos) << r.err; // nothing started
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(LiveCli, EachRankRunsTheCommandWithoutTheOption)
{
    EXPECT_EQ(withoutOption({"live", "f.json", "--share-gpu", "2", "--json"}, "--share-gpu"),
              (std::vector<std::string>{"live", "f.json", "--json"}));
    EXPECT_EQ(withoutOption({"--lang", "zh", "live", "--share-gpu=4", "-", "--stream"}, "--share-gpu"),
              (std::vector<std::string>{"--lang", "zh", "live", "-", "--stream"}));
}
