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
    fs::path dir =
        fs::temp_directory_path()
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

TEST(CliOutputs, TwoOutputsOfOneRunAreRefusedBeforeEitherIsWritten)
{
    Folder f;
    expectRefused(runCommand({"sim", f.scenario, "--result", f / "out.json", "--trace", f / "out.json"}),
                  "--result " + (f / "out.json") + ": that is also --trace " + (f / "out.json"));
    // a --csv prefix's files are outputs too
    expectRefused(runCommand({"sim", f.scenario, "--result", f / "p-ranks.csv", "--csv", f / "p"}),
                  "that is also --result " + (f / "p-ranks.csv"));
    // the same file through a hard link
    fs_test::writePlain(f / "kept.json", "kept");
    fs::create_hard_link(f / "kept.json", f / "alias.json");
    expectRefused(runCommand({"sim", f.scenario, "--result", f / "kept.json", "--trace", f / "alias.json"}),
                  "that is also");
    EXPECT_EQ(fs_test::fileText(f / "kept.json"), "kept");
    EXPECT_EQ(filesIn(f.dir), 3u); // nothing written
    // and the scenario through a hard link
    fs::create_hard_link(f.scenario, f / "link.json");
    expectRefused(runCommand({"sim", f.scenario, "--trace", f / "link.json"}), "that is the scenario file being run");
}

TEST(CliOutputs, ResimulatingAResultNeverWritesOverIt)
{
    Folder f;
    fs_test::writePlain(f / "measured.json", "the measured run");
    expectRefused(runCommand({"profile", "--resimulate", f / "measured.json", "--trace", f / "measured.json"}),
                  "that is the result file being resimulated");
    expectRefused(
        runCommand({"profile", "--resimulate", f / "measured.json", "--csv", f / "m", "--trace", f / "m-spans.csv"}),
        "that is also --trace");
    EXPECT_EQ(fs_test::fileText(f / "measured.json"), "the measured run");
}

TEST(CliOutputs, AnOutputIsNeverOneOfTheProfileRecordsRead)
{
    Folder f;
    fs::create_directories(f / "records");
    const std::string record = f / "records/host-12.nccl-profile.jsonl";
    fs_test::writePlain(record, "records");
    expectRefused(runCommand({"profile", "--collect", f / "records", "--result", record}),
                  "that is the profile record file");
    // by default the result and the trace go into the folder: named there as a record, refused too
    expectRefused(runCommand({"profile", "--collect", f / "records", "--trace",
                              f / "records/../records/host-12.nccl-profile.jsonl"}),
                  "that is the profile record file");
    // a record the program is about to write, before it starts (and before the folder is emptied)
    expectRefused(
        runCommand({"profile", "--out", f / "records", "--result", f / "records/new.nccl-profile.jsonl", "--", "true"}),
        "that is the profile record file");
    EXPECT_EQ(fs_test::fileText(record), "records");
    EXPECT_EQ(filesIn(f / "records"), 1u);
}

TEST(CliOutputs, AReportOrACalibratedProfileNeverReplacesWhatItReads)
{
    Folder f;
    fs::create_hard_link(f.scenario, f / "report.html");
    expectRefused(runCommand({"report", f.scenario, "-o", f / "report.html"}), "that is the scenario file");
    // calibrate --measured: the profile saved is not one of the measurements
    fs::create_directories(f / "profiles");
    ::setenv("SHARDLAB_PROFILE_DIR", (f / "profiles").c_str(), 1);
    fs_test::writePlain(f / "profiles/lab.json", "measured sweep");
    const CliRun r =
        runCommand({"calibrate", "--measured", f / "profiles/lab.json", "--preset", "h200-nv18-4", "--name", "lab"});
    // sim --profile NAME: the cost profile read is an input
    CostProfile lab = CostProfile::defaults();
    lab.name = "kept";
    const bool saved = saveProfile(lab).ok();
    const std::string profileText = fs_test::fileText(f / "profiles/kept.json");
    const CliRun s = runCommand({"sim", f.scenario, "--profile", "kept", "--result", f / "profiles/kept.json"});
    ::unsetenv("SHARDLAB_PROFILE_DIR");
    expectRefused(r, "that is the measured file");
    EXPECT_EQ(fs_test::fileText(f / "profiles/lab.json"), "measured sweep");
    ASSERT_TRUE(saved);
    expectRefused(s, "that is the cost profile");
    EXPECT_EQ(fs_test::fileText(f / "profiles/kept.json"), profileText);
}

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

namespace {

// `sim - </dev/zero`, `yes { | shardlab sim -`: an input that never ends.
class Endless : public std::streambuf {
public:
    Endless() { std::fill(std::begin(m_chunk), std::end(m_chunk), '{'); }

protected:
    int_type underflow() override
    {
        setg(m_chunk, m_chunk, m_chunk + sizeof m_chunk);
        return traits_type::to_int_type('{');
    }

private:
    char m_chunk[1 << 16];
};

} // namespace

TEST(CliInputs, AnEndlessStandardInputStopsAtTheCapWithItsName)
{
    Endless endless;
    std::istream in(&endless);
    cli::setScenarioInput(in);
    const CliRun plain = runCommand({"sim", "-"});
    const CliRun streamed = runCommand({"sim", "-", "--stream"});
    cli::setScenarioInput(std::cin);
    for (const CliRun& r : {plain, streamed}) {
        EXPECT_EQ(r.status, kExitBadInput) << r.err;
        EXPECT_NE(r.err.find("<standard input>: $: the file is larger than 64 MB (expected a .shardlab.json file)"),
                  std::string::npos)
            << r.err;
    }
}
