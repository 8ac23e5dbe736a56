// The live commands' exit statuses and messages where live mode cannot run (no GPU, no driver, or
// a build without CUDA): always 2 with the reason, never a crash. On a machine with GPUs the
// GPU tests (tests/gpu) cover the successful paths and these skip.
#include "cli_test_helpers.h"
#include "shardlab/live.h"

#include <gtest/gtest.h>

using namespace shardlab::cli;
using shardlab::test::CliRun;
using shardlab::test::scenario;

namespace {
CliRun run(std::vector<std::string> args) { return shardlab::test::cli(std::move(args)); }

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
    for (const auto& e : {shardlab::runLive({}).error(), shardlab::benchLive(shardlab::OpKind::AllReduce, 1, {8}).error(),
                          shardlab::discoverTopology().error(), shardlab::measureComputeTflops(0).error(),
                          shardlab::checkClockAlignment(0).error()}) {
        EXPECT_EQ(e.kind, shardlab::ErrorKind::BadInput) << e.message;
        EXPECT_FALSE(e.message.empty());
    }
}
