// Launcher detection and the local rank -> GPU mapping (launch.h), from environment maps.
#include "shardlab/cluster/launch.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
LaunchInfo detected(const Environment& env)
{
    auto r = detectLauncher(env);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    EXPECT_TRUE(r.ok() && r->has_value());
    return r.ok() && r->has_value() ? **r : LaunchInfo{};
}
} // namespace

TEST(Launch, NoLauncherIsASingleProcess)
{
    auto r = detectLauncher({{"HOME", "/root"}, {"CUDA_VISIBLE_DEVICES", "0,1"}});
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->has_value());
}

TEST(Launch, OpenMpi)
{
    const LaunchInfo l = detected({{"OMPI_COMM_WORLD_RANK", "5"},
                                   {"OMPI_COMM_WORLD_SIZE", "8"},
                                   {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                                   {"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}});
    EXPECT_EQ(l.launcher, Launcher::OpenMpi);
    EXPECT_EQ(l.rank, 5);
    EXPECT_EQ(l.size, 8);
    EXPECT_EQ(l.localRank, 1);
    EXPECT_EQ(l.localSize, 4);
    EXPECT_NE(l.variables.find("OMPI_COMM_WORLD_RANK=5"), std::string::npos);
}

TEST(Launch, OpenMpiWinsOverTheSlurmVariablesOfItsDaemons)
{
    // mpirun inside an allocation: the processes inherit the SLURM_* of orted's own step.
    const LaunchInfo l = detected({{"OMPI_COMM_WORLD_RANK", "3"},
                                   {"OMPI_COMM_WORLD_SIZE", "4"},
                                   {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                                   {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
                                   {"SLURM_PROCID", "1"},
                                   {"SLURM_STEP_NUM_TASKS", "2"},
                                   {"SLURM_LOCALID", "0"}});
    EXPECT_EQ(l.launcher, Launcher::OpenMpi);
    EXPECT_EQ(l.rank, 3);
}

TEST(Launch, SlurmStepWithTasksPerNodeList)
{
    const LaunchInfo l = detected({{"SLURM_PROCID", "9"},
                                   {"SLURM_STEP_ID", "0"},
                                   {"SLURM_STEP_NUM_TASKS", "10"},
                                   {"SLURM_NTASKS", "16"}, // the job's, not the step's
                                   {"SLURM_LOCALID", "1"},
                                   {"SLURM_NODEID", "2"},
                                   {"SLURM_STEP_TASKS_PER_NODE", "4(x2),2"}});
    EXPECT_EQ(l.launcher, Launcher::Slurm);
    EXPECT_EQ(l.rank, 9);
    EXPECT_EQ(l.size, 10);
    EXPECT_EQ(l.localRank, 1);
    EXPECT_EQ(l.localSize, 2); // node 2 of "4,4,2"
    EXPECT_EQ(l.node, 2);
}

TEST(Launch, SlurmNtasksPerNodeWhenNoList)
{
    const LaunchInfo l = detected(
        {{"SLURM_PROCID", "0"}, {"SLURM_STEP_NUM_TASKS", "8"}, {"SLURM_LOCALID", "0"}, {"SLURM_NTASKS_PER_NODE", "4"}});
    EXPECT_EQ(l.size, 8);
    EXPECT_EQ(l.localSize, 4);
}

TEST(Launch, ABatchScriptIsNotRankZeroOfItsTasks)
{
    // sbatch's shell carries SLURM_PROCID=0 and SLURM_NTASKS=4 but is one process (no job step).
    auto r =
        detectLauncher({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}, {"SLURM_LOCALID", "0"}, {"SLURM_JOB_ID", "77"}});
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->has_value());
}

TEST(Launch, HydraAndIntelMpi)
{
    const LaunchInfo l =
        detected({{"PMI_RANK", "2"}, {"PMI_SIZE", "4"}, {"MPI_LOCALRANKID", "0"}, {"MPI_LOCALNRANKS", "2"}});
    EXPECT_EQ(l.launcher, Launcher::Pmi);
    EXPECT_EQ(l.rank, 2);
    EXPECT_EQ(l.localRank, 0);
    EXPECT_EQ(l.localSize, 2);
    // Without the local variables: one node, local rank = rank.
    const LaunchInfo one = detected({{"PMI_RANK", "3"}, {"PMI_SIZE", "4"}});
    EXPECT_EQ(one.localRank, 3);
    EXPECT_EQ(one.localSize, 4);
}

TEST(Launch, InconsistentVariablesAreNamed)
{
    auto r = detectLauncher(
        {{"OMPI_COMM_WORLD_RANK", "4"}, {"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("rank 4 is not below the job size 4"), std::string::npos) << r.error().message;
    r = detectLauncher(
        {{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("OMPI_COMM_WORLD_RANK='x'"), std::string::npos) << r.error().message;
    r = detectLauncher({{"OMPI_COMM_WORLD_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "4"}});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("OMPI_COMM_WORLD_LOCAL_RANK is not set"), std::string::npos);
    r = detectLauncher({{"SLURM_PROCID", "1"},
                        {"SLURM_STEP_NUM_TASKS", "4"},
                        {"SLURM_LOCALID", "0"},
                        {"SLURM_NODEID", "5"},
                        {"SLURM_STEP_TASKS_PER_NODE", "2(x2)"}});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("lists 2 nodes but SLURM_NODEID is 5"), std::string::npos) << r.error().message;
}

TEST(Launch, SlurmTasksPerNodeLists)
{
    EXPECT_EQ(*parseSlurmTasksPerNode("4"), (std::vector<int>{4}));
    EXPECT_EQ(*parseSlurmTasksPerNode("4(x3)"), (std::vector<int>{4, 4, 4}));
    EXPECT_EQ(*parseSlurmTasksPerNode("2(x2),1,3(x1)"), (std::vector<int>{2, 2, 1, 3}));
    for (const char* bad : {"", "x", "4(x)", "4(3)", "4(x0)", "-1", "4,,2", "4(x2"})
        EXPECT_FALSE(parseSlurmTasksPerNode(bad).ok()) << bad;
}

TEST(Launch, CudaVisibleDevicesAsCudaReadsIt)
{
    EXPECT_FALSE(cudaVisibleDevices({}).has_value());
    EXPECT_EQ(*cudaVisibleDevices({{"CUDA_VISIBLE_DEVICES", "2, 3"}}), (std::vector<std::string>{"2", "3"}));
    EXPECT_EQ(*cudaVisibleDevices({{"CUDA_VISIBLE_DEVICES", "GPU-8e1f,1"}}),
              (std::vector<std::string>{"GPU-8e1f", "1"}));
    // CUDA stops at the first entry it cannot use.
    EXPECT_EQ(*cudaVisibleDevices({{"CUDA_VISIBLE_DEVICES", "0,-1,2"}}), (std::vector<std::string>{"0"}));
    EXPECT_TRUE(cudaVisibleDevices({{"CUDA_VISIBLE_DEVICES", ""}})->empty());
    EXPECT_TRUE(cudaVisibleDevices({{"CUDA_VISIBLE_DEVICES", "-1"}})->empty());
}

TEST(Launch, LocalRankTakesItsGpu)
{
    LaunchInfo l;
    l.rank = 6;
    l.size = 8;
    l.localRank = 2;
    l.localSize = 4;
    auto d = deviceForLocalRank(l, {}, 4);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->device, 2);
    EXPECT_EQ(d->physical, "2");
    // With a list: the local rank indexes the list; CUDA renumbers, so the device is still 2.
    d = deviceForLocalRank(l, {{"CUDA_VISIBLE_DEVICES", "4,5,6,7"}}, 4);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->device, 2);
    EXPECT_EQ(d->physical, "6");
    // srun --gpus-per-task=1: each process sees exactly its own GPU.
    d = deviceForLocalRank(l, {{"CUDA_VISIBLE_DEVICES", "3"}}, 1);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->device, 0);
    EXPECT_EQ(d->physical, "3");
    // Unknown count (no CUDA in this build): trusted here, checked by the live executor.
    d = deviceForLocalRank(l, {}, -1);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->device, 2);
}

TEST(Launch, MoreLocalRanksThanGpusIsAClearError)
{
    LaunchInfo l;
    l.rank = 5;
    l.size = 8;
    l.localRank = 2;
    l.localSize = 4;
    auto d = deviceForLocalRank(l, {}, 2);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().kind, ErrorKind::BadInput);
    EXPECT_NE(d.error().message.find("local rank 2 (rank 5 of 8) has no GPU of its own"), std::string::npos)
        << d.error().message;
    EXPECT_NE(d.error().message.find("this node has 2 GPUs"), std::string::npos);
    EXPECT_NE(d.error().message.find("ppr:2:node"), std::string::npos);
    d = deviceForLocalRank(l, {{"CUDA_VISIBLE_DEVICES", "0,1"}}, 8);
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.error().message.find("CUDA_VISIBLE_DEVICES lists 2 GPUs"), std::string::npos) << d.error().message;
    d = deviceForLocalRank(l, {{"CUDA_VISIBLE_DEVICES", ""}}, 8);
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.error().message.find("can see no GPU"), std::string::npos) << d.error().message;
}
