// Issue 14, "files never damaged": on a full disk every writer of the command line and the engine
// reports the failure (exit 2 naming the file) and leaves the previous good file as it was, with
// no temporary file left behind. The full disk is test::FullDisk (RLIMIT_FSIZE).
#include "../common/full_disk.h"
#include "cli_test_helpers.h"

#include "shardlab/base/file_io.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/profiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

using namespace shardlab;
using shardlab::fs_test::fileText;
using shardlab::fs_test::FullDisk;
using shardlab::fs_test::leftoverTemporaries;
using shardlab::fs_test::writePlain;
using shardlab::test::CliRun;
using shardlab::test::runCommand;
using shardlab::test::scenario;

namespace {

constexpr rlim_t kRoom = 1024; // bytes a file may reach before the disk is "full"
const std::string kPrevious = "the previous good file\n";

std::filesystem::path freshDir(const char* name)
{
    const auto dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// Runs `args` (whose output is `out`) once with room to write, to check the output is larger than
// the room, then again over a previous file on a full disk.
void expectRefusedOnFullDisk(std::vector<std::string> args, const std::filesystem::path& out)
{
    std::filesystem::remove(out);
    const CliRun roomy = runCommand(args);
    ASSERT_EQ(roomy.status, cli::kExitOk) << roomy.err;
    ASSERT_GT(std::filesystem::file_size(out), kRoom) << out << " is too small to fill the disk";
    writePlain(out, kPrevious);
    CliRun full;
    {
        FullDisk disk(kRoom);
        ASSERT_TRUE(disk.active());
        full = runCommand(args);
    }
    EXPECT_EQ(full.status, cli::kExitBadInput) << out;
    EXPECT_NE(full.err.find(out.string()), std::string::npos) << full.err;
    EXPECT_NE(full.err.find("writing failed"), std::string::npos) << full.err;
    EXPECT_EQ(fileText(out), kPrevious) << out << " was damaged";
    EXPECT_EQ(leftoverTemporaries(out), 0) << "a temporary file of " << out << " was left behind";
}

} // namespace

TEST(FullDisk, WriteFileAtomicallyKeepsThePreviousFile)
{
    const auto dir = freshDir("shardlab-full-disk-atomic");
    const auto path = dir / "x.txt";
    writePlain(path, kPrevious);
    Status st;
    {
        FullDisk disk(kRoom);
        st = writeFileAtomically(path, std::string(4 * kRoom, 'x'));
    }
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("writing failed"), std::string::npos) << st.error().message;
    EXPECT_EQ(fileText(path), kPrevious);
    EXPECT_EQ(leftoverTemporaries(path), 0);
    // and with room, the same call succeeds (the guard was lifted)
    ASSERT_TRUE(writeFileAtomically(path, std::string(4 * kRoom, 'x')));
    EXPECT_EQ(std::filesystem::file_size(path), 4 * kRoom);
}

TEST(FullDisk, SimOutputsTraceResultAndCsv)
{
    const auto dir = freshDir("shardlab-full-disk-sim");
    const std::string file = scenario("straggler-12-6-4-2.shardlab.json");
    expectRefusedOnFullDisk({"sim", file, "--iterations", "20", "--trace", (dir / "t.json").string()}, dir / "t.json");
    expectRefusedOnFullDisk({"sim", file, "--result", (dir / "r.shardlab-result.json").string()},
                            dir / "r.shardlab-result.json");
    expectRefusedOnFullDisk({"sim", file, "--iterations", "20", "--csv", (dir / "c").string()}, dir / "c-spans.csv");
}

TEST(FullDisk, HtmlReport)
{
    const auto dir = freshDir("shardlab-full-disk-report");
    expectRefusedOnFullDisk(
        {"report", scenario("lab-two-gpu-all-reduce.shardlab.json"), "-o", (dir / "r.html").string()}, dir / "r.html");
}

TEST(FullDisk, ScenarioAndProfileSaves)
{
    const auto dir = freshDir("shardlab-full-disk-saves");
    auto s = loadScenario(scenario("default.shardlab.json"));
    ASSERT_TRUE(s) << s.error().message;
    ASSERT_GT(serializeScenario(*s).size(), 512u);
    const auto path = dir / "s.shardlab.json";
    writePlain(path, kPrevious);
    {
        FullDisk disk(512);
        EXPECT_FALSE(saveScenario(*s, path));
    }
    EXPECT_EQ(fileText(path), kPrevious);
    EXPECT_EQ(leftoverTemporaries(path), 0);

    ::setenv("SHARDLAB_PROFILE_DIR", dir.c_str(), 1);
    CostProfile p = CostProfile::defaults();
    p.name = "full-disk";
    const auto profilePath = dir / "full-disk.json";
    writePlain(profilePath, kPrevious);
    Status st;
    {
        FullDisk disk(64);
        st = saveProfile(p);
    }
    ::unsetenv("SHARDLAB_PROFILE_DIR");
    EXPECT_FALSE(st);
    EXPECT_EQ(fileText(profilePath), kPrevious);
}
