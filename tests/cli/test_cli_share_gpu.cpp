// The processes of `shardlab live --share-gpu N` are real ShardLab processes that meet over the
// socket mesh its launcher makes (cluster/shared_gpu_launch.h). Here the launcher starts two
// `shardlab live` processes on a machine where live mode cannot run: they find each other, rank 0
// says why once for the job, every process ends with the same status and none hangs. (On a GPU:
// tests/gpu/share_gpu_gpu.sh.)
#include "../common/read_text.h"
#include "shardlab/cluster/shared_gpu_launch.h"
#include "shardlab/live/live.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace shardlab;

TEST(CliShareGpu, TheRanksMeetOverTheMeshAndRankZeroSaysWhyTheJobCannotStart)
{
    if (liveDevices().ok())
        GTEST_SKIP() << "this machine has a GPU: tests/gpu/share_gpu_gpu.sh runs the job there";
    const auto dir = std::filesystem::temp_directory_path() / ("shardlab-share-cli-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    SharedGpuJob job;
    // sh keeps the launcher's descriptors (the mesh) open across its exec of shardlab, and keeps
    // each rank's standard error in a file of its own
    job.program = "/bin/sh";
    job.arguments = {"-c", "LC_ALL=C exec \"$0\" live \"$1\" 2> \"$2/err.$SHARDLAB_SHARED_RANK\"", SHARDLAB_CLI,
                     std::string(SHARDLAB_SCENARIO_DIR) + "/default.shardlab.json", dir.string()};
    job.ranks = 4; // the default scenario's GPUs
    job.gpu = "0";
    job.graceMs = 60'000; // a rank left waiting is a failure of this test, not something to stop
    auto out = runSharedGpuJob(job);
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(out->exitStatus, 2);
    EXPECT_TRUE(out->message.empty()) << english(out->message); // every process ended by itself
    const std::string zero = test::readText(dir / "err.0");
    const std::string why = liveDevices().error().message;
    EXPECT_NE(zero.find(why.substr(0, 30)), std::string::npos) << zero;
    EXPECT_EQ(zero.find("shardlab:", zero.find("shardlab:") + 1), std::string::npos) << zero; // once, for the job
    for (int r = 1; r < 4; ++r)
        EXPECT_EQ(test::readText(dir / ("err." + std::to_string(r))), "") << "rank " << r; // rank 0 said it
    std::filesystem::remove_all(dir);
}
