// `shardlab live`, `--result` and the launcher path of the command line, run in-process. (The
// same commands as processes of a real mpirun job: tests/mpi/cli_under_mpirun.sh.)
#include "cli_test_helpers.h"

#include "shardlab/io/result_file.h"
#include "shardlab/live/live.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

using namespace shardlab;
using namespace shardlab::test;
using shardlab::cli::kExitBadInput;

namespace {
CliRun runIt(std::vector<std::string> args) { return shardlab::test::runCommand(std::move(args)); }

// Sets variables for one test and removes them afterwards.
struct ScopedEnv {
    std::vector<std::string> names;
    ScopedEnv(std::initializer_list<std::pair<const char*, const char*>> vars)
    {
        for (auto [k, v] : vars) {
            setenv(k, v, 1);
            names.emplace_back(k);
        }
    }
    ~ScopedEnv()
    {
        for (const std::string& n : names)
            unsetenv(n.c_str());
    }
};
} // namespace

TEST(CliLauncher, VersionSaysWhetherMultiProcessRunsAreBuiltIn)
{
    EXPECT_NE(runIt({"--version"}).out.find("multi-process (mpirun/srun): "), std::string::npos);
}

TEST(CliLauncher, WithoutLiveModeItExplains)
{
    if (liveBuiltIn())
        GTEST_SKIP() << "this build has live mode (the GPU tests cover it)";
    const CliRun r = runIt({"live", scenario("straggler-12-6-4-2.shardlab.json")});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("live mode is not built into this ShardLab"), std::string::npos) << r.err;
    EXPECT_EQ(runIt({"live", "/nonexistent.shardlab.json"}).status, kExitBadInput);
}

TEST(CliLauncher, SimSavesAResultFile)
{
    const auto path = (std::filesystem::temp_directory_path() / "shardlab-cli.shardlab-result.json").string();
    const CliRun r = runIt({"sim", scenario("straggler-12-6-4-2.shardlab.json"), "--result", path});
    ASSERT_EQ(r.status, 0) << r.err;
    auto loaded = loadResult(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->launch, "simulation");
    EXPECT_EQ(loaded->run.mode, RunMode::Simulated);
    EXPECT_EQ(loaded->scenario.ranks(), 4);
    EXPECT_EQ(
        runIt({"sim", scenario("straggler-12-6-4-2.shardlab.json"), "--result", "/nonexistent/dir/x.json"}).status,
        kExitBadInput);
    std::filesystem::remove(path);
}

TEST(CliLauncher, InconsistentLauncherVariablesAreNamed)
{
    ScopedEnv env({{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}});
    const CliRun r = runIt({"live", scenario("straggler-12-6-4-2.shardlab.json")});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("OMPI_COMM_WORLD_RANK='x'"), std::string::npos) << r.err;
    EXPECT_EQ(runIt({"topo"}).status, kExitBadInput);
}

TEST(CliLauncher, UnderALauncherWithoutTheMpiModuleRankZeroExplains)
{
    // As rank 0 of 2 under mpirun, with the module pointed somewhere empty: one clear message.
    {
        ScopedEnv env({{"OMPI_COMM_WORLD_RANK", "0"},
                       {"OMPI_COMM_WORLD_SIZE", "2"},
                       {"OMPI_COMM_WORLD_LOCAL_RANK", "0"},
                       {"SHARDLAB_MPI_MODULE", "/nonexistent/libshardlab_mpi.so"}});
        CliRun r = runIt({"live", scenario("straggler-12-6-4-2.shardlab.json")});
        EXPECT_EQ(r.status, kExitBadInput);
        EXPECT_NE(r.err.find("was not found (looked in: /nonexistent/libshardlab_mpi.so)"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("[Open MPI (mpirun): OMPI_COMM_WORLD_RANK=0"), std::string::npos) << r.err;
        r = runIt({"topo"});
        EXPECT_EQ(r.status, kExitBadInput);
        EXPECT_NE(r.err.find("was not found"), std::string::npos) << r.err;
    }
    // The other ranks fail the same way, silently.
    ScopedEnv env({{"OMPI_COMM_WORLD_RANK", "1"},
                   {"OMPI_COMM_WORLD_SIZE", "2"},
                   {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                   {"SHARDLAB_MPI_MODULE", "/nonexistent/libshardlab_mpi.so"}});
    const CliRun r = runIt({"live", scenario("straggler-12-6-4-2.shardlab.json")});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CliLauncher, OneProcessUnderALauncherIsAPlainRun)
{
    if (liveBuiltIn())
        GTEST_SKIP() << "this build has live mode";
    // mpirun -np 1: no MPI needed, the single-process path answers.
    ScopedEnv env({{"OMPI_COMM_WORLD_RANK", "0"},
                   {"OMPI_COMM_WORLD_SIZE", "1"},
                   {"OMPI_COMM_WORLD_LOCAL_RANK", "0"},
                   {"SHARDLAB_MPI_MODULE", "/nonexistent/libshardlab_mpi.so"}});
    const CliRun r = runIt({"live", scenario("straggler-12-6-4-2.shardlab.json")});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("live mode is not built into this ShardLab"), std::string::npos) << r.err;
}
