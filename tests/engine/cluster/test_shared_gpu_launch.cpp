// ShardLab's own launcher (shared_gpu_launch.h), with /bin/sh standing in for ShardLab: what each
// process gets (its rank, its ends of the mesh, the one GPU, its own NCCL host), whose exit status
// the job has, and what happens to the others when one fails or is killed.
#include "../../common/read_text.h"
#include "shardlab/cluster/launch.h"
#include "shardlab/cluster/shared_gpu_launch.h"
#include "shardlab/cluster/socket_mesh.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace shardlab;

namespace {

namespace fs = std::filesystem;

struct TempDir {
    fs::path path = fs::temp_directory_path()
                    / ("shardlab-shared-" + std::to_string(::getpid()) + "-"
                       + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
};

SharedGpuJob shellJob(int ranks, const std::string& script)
{
    SharedGpuJob job;
    job.program = "/bin/sh";
    job.arguments = {"-c", script};
    job.ranks = ranks;
    job.gpu = "3";
    return job;
}

} // namespace

TEST(SharedGpuLaunch, EachProcessIsARankOfTheOneGpuWithItsOwnNcclHost)
{
    TempDir dir;
    const std::string script = "env > '" + dir.path.string() + "'/rank$SHARDLAB_SHARED_RANK";
    auto out = runSharedGpuJob(shellJob(3, script));
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(out->exitStatus, 0);
    EXPECT_TRUE(out->message.empty());
    std::set<std::string> hosts;
    for (int r = 0; r < 3; ++r) {
        const std::string env = test::readText(dir.path / ("rank" + std::to_string(r)));
        EXPECT_NE(env.find("SHARDLAB_SHARED_SIZE=3\n"), std::string::npos) << env;
        EXPECT_NE(env.find("CUDA_VISIBLE_DEVICES=3\n"), std::string::npos);
        EXPECT_NE(env.find("NCCL_SOCKET_IFNAME=lo\n"), std::string::npos);
        EXPECT_NE(env.find("NCCL_P2P_DISABLE=1\n"), std::string::npos);
        EXPECT_NE(env.find("NCCL_SHM_DISABLE=1\n"), std::string::npos);
        const auto at = env.find("NCCL_HOSTID=");
        ASSERT_NE(at, std::string::npos);
        hosts.insert(env.substr(at, env.find('\n', at) - at));
        EXPECT_NE(env.find(std::string(kSharedFdsVariable) + "="), std::string::npos);
    }
    EXPECT_EQ(hosts.size(), 3u); // NCCL sees three hosts, so it accepts three ranks on one GPU
    // the variables are what makes each process a rank of the job (launch.h)
    Environment env = sharedGpuEnvironment(1, 3, "0", "5,-,6");
    EXPECT_EQ(env.count("NCCL_NVLS_ENABLE"), 0u); // never touched
    auto launch = detectLauncher(env);
    ASSERT_TRUE(launch && *launch);
    EXPECT_EQ((*launch)->launcher, Launcher::SharedGpu);
    EXPECT_EQ((*launch)->rank, 1);
    EXPECT_EQ((*launch)->size, 3);
    EXPECT_EQ((*launch)->localRank, 1);
    auto device = deviceForLocalRank(**launch, env, 1);
    ASSERT_TRUE(device) << device.error().message;
    EXPECT_EQ(device->device, 0); // every rank the same GPU
}

TEST(SharedGpuLaunch, TheJobEndsWithRankZerosStatusOrTheFirstFailure)
{
    auto zeroFails = runSharedGpuJob(shellJob(2, "exit $((SHARDLAB_SHARED_RANK == 0 ? 2 : 0))"));
    ASSERT_TRUE(zeroFails);
    EXPECT_EQ(zeroFails->exitStatus, 2);
    auto oneFails = runSharedGpuJob(shellJob(2, "exit $((SHARDLAB_SHARED_RANK == 1 ? 3 : 0))"));
    ASSERT_TRUE(oneFails);
    EXPECT_EQ(oneFails->exitStatus, 3);
    EXPECT_TRUE(oneFails->message.empty()); // it ended by itself: it said why
}

TEST(SharedGpuLaunch, AKilledRankIsNamedAndTheOthersAreStoppedAfterTheGrace)
{
    // rank 1 is killed; rank 0 would wait for ever (as a rank waiting in a collective for it)
    SharedGpuJob job = shellJob(2, "if [ $SHARDLAB_SHARED_RANK = 1 ]; then kill -KILL $$; else exec sleep 600; fi");
    job.graceMs = 300;
    auto out = runSharedGpuJob(job);
    ASSERT_TRUE(out);
    EXPECT_EQ(out->exitStatus, 3);
    EXPECT_EQ(english(out->message), "rank 1's process was ended by SIGKILL");
    SharedGpuJob hung = shellJob(3, "if [ $SHARDLAB_SHARED_RANK = 2 ]; then exit 3; else exec sleep 600; fi");
    hung.graceMs = 300;
    auto stopped = runSharedGpuJob(hung);
    ASSERT_TRUE(stopped);
    EXPECT_EQ(stopped->exitStatus, 3);
    EXPECT_EQ(english(stopped->message), "rank 0, 1 did not end within 0.3 s after rank 2 failed, and was stopped");
}

TEST(SharedGpuLaunch, RankCountsAndTheGpuAreChecked)
{
    EXPECT_TRUE(sharedGpuRanksProblem(2).empty());
    EXPECT_TRUE(sharedGpuRanksProblem(8).empty());
    EXPECT_EQ(english(sharedGpuRanksProblem(1)), "--share-gpu 1: between 2 and 8 ranks can share one GPU");
    EXPECT_FALSE(sharedGpuRanksProblem(9).empty());
    EXPECT_FALSE(runSharedGpuJob(shellJob(9, "true")));
    EXPECT_EQ(sharedGpuChoice({}), std::optional<std::string>("0"));
    EXPECT_EQ(sharedGpuChoice({{"CUDA_VISIBLE_DEVICES", "2,3"}}), std::optional<std::string>("2"));
    EXPECT_EQ(sharedGpuChoice({{"CUDA_VISIBLE_DEVICES", ""}}), std::nullopt);
}
