// Issue 25: what a command writes never replaces what it reads or another of its outputs (every
// command, checked before anything is written), and outputs that are not regular files (a device,
// a FIFO, `-`) are written straight through.
#include "cli_test_helpers.h"
#include "../common/full_disk.h"

#include "shardlab/base/file_io.h"
#include "shardlab/sim/profiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <streambuf>
#include <filesystem>
#include <thread>

#include <sys/stat.h>

using namespace shardlab;
using shardlab::cli::kExitBadInput;
using shardlab::test::CliRun;
using shardlab::test::runCommand;
namespace fs = std::filesystem;

namespace {

// A folder of the test's own, with a copy of a small scenario in it.
struct Folder {
    fs::path dir = fs::temp_directory_path()
                   / ("shardlab-cli-outputs-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::string scenario = (dir / "run.shardlab.json").string();
    Folder()
    {
        fs::remove_all(dir);
        fs::create_directories(dir);
        fs::copy_file(shardlab::test::scenario("straggler-12-6-4-2.shardlab.json"), scenario);
    }
    ~Folder() { fs::remove_all(dir); }
    std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

size_t filesIn(const fs::path& dir)
{
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
        ++n;
    return n;
}

void expectRefused(const CliRun& r, const std::string& says)
{
    EXPECT_EQ(r.status, kExitBadInput) << r.out << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("(choose another file)"), std::string::npos) << r.err;
}

} // namespace

TEST(CliOutputs, DevicesFifosAndStandardOutputAreWrittenStraightThrough)
{
    Folder f;
    // /dev/null stays the device it is (as root the old writer replaced it with a regular file)
    CliRun r = runCommand({"sim", f.scenario, "--result", "/dev/null", "--trace", "/dev/null"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/null")));
    // `-`: on standard output
    r = runCommand({"sim", f.scenario, "--result", "-"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"shardlab_result\""), std::string::npos);
    EXPECT_EQ(filesIn(f.dir), 1u);
    // a FIFO: read as it is written, and still a FIFO afterwards
    const std::string fifo = f / "trace.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string read;
    std::thread reader([&] { read = fs_test::fileText(fifo); });
    r = runCommand({"sim", f.scenario, "--trace", fifo});
    reader.join();
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read.rfind("{", 0), 0u) << read.substr(0, 100);
    EXPECT_NE(read.find("traceEvents"), std::string::npos);
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    // a link to a device stays a link
    fs::create_symlink("/dev/null", f / "null");
    EXPECT_EQ(runCommand({"sim", f.scenario, "--result", f / "null"}).status, 0);
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(f / "null")));
}
