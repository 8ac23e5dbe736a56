// `shardlab profile` end to end, with a stand-in for a user's NCCL program (fake_nccl_program.cpp,
// which opens the plugin as NCCL does): the table, the result file the app opens, the trace, the
// exit status passed through, a crashed program, --collect and --resimulate.
#include "../cli/cli_test_helpers.h"

#include "shardlab/io/result_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

namespace shardlab {
namespace {

namespace fs = std::filesystem;
using test::runCommand;

std::string freshOut(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("shardlab_cli_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    return dir.string();
}

TEST(CliProfile, ProfilesAProgramAndShowsItsStraggler)
{
    const std::string out = freshOut("profile");
    const auto r =
        runCommand({"profile", "--out", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM, "--ranks", "4", "--straggler", "2"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("Profiling `" + std::string(SHARDLAB_FAKE_NCCL_PROGRAM)), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("busbw"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Result file: " + out + "/profile.shardlab-result.json (open it in the app"),
              std::string::npos)
        << r.out;
    auto result = loadResult(out + "/profile.shardlab-result.json");
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->run.ranks, 4);
    EXPECT_EQ(result->launch, "1 process driving 4 GPUs");
    ASSERT_EQ(result->run.collectives.size(), 3u);
    for (const CollectiveRecord& c : result->run.collectives)
        EXPECT_EQ(c.lastArrival, 2); // 1 ms late every time
    EXPECT_TRUE(fs::exists(out + "/profile.trace.json"));

    // The records stay: --collect builds the same run again.
    const auto again = runCommand({"profile", "--collect", out, "--result", out + "/again.shardlab-result.json",
                                   "--trace", out + "/again.json", "--scenario", out + "/observed.shardlab.json"});
    ASSERT_EQ(again.status, 0) << again.err;
    // The observed program as a scenario `shardlab sim` runs: 3 collectives, each after its work.
    const auto sim = runCommand({"sim", out + "/observed.shardlab.json", "--json"});
    ASSERT_EQ(sim.status, 0) << sim.err;
    EXPECT_NE(sim.out.find("\"straggler_rank\": 2"), std::string::npos) << sim.out;
    auto second = loadResult(out + "/again.shardlab-result.json");
    ASSERT_TRUE(second);
    EXPECT_EQ(second->run.spans.size(), result->run.spans.size());

    // What-if: simulated on the machine it ran on, and on another.
    const auto resim = runCommand({"profile", "--resimulate", out + "/profile.shardlab-result.json"});
    ASSERT_EQ(resim.status, 0) << resim.err;
    EXPECT_NE(resim.out.find("Measured step:"), std::string::npos) << resim.out;
    const auto elsewhere = runCommand(
        {"profile", "--resimulate", out + "/profile.shardlab-result.json", "--machine", "teaching-4x16gb-pcie"});
    ASSERT_EQ(elsewhere.status, 0) << elsewhere.err;
    EXPECT_NE(elsewhere.out.find("Simulated on teaching-4x16gb-pcie"), std::string::npos) << elsewhere.out;
    fs::remove_all(out);
}

TEST(CliProfile, PassesTheProgramsExitStatusThrough)
{
    const std::string out = freshOut("exit");
    const auto r = runCommand({"profile", "--out", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM, "--exit", "5"});
    EXPECT_EQ(r.status, 5) << r.err;
    EXPECT_NE(r.err.find("exited with status 5"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::exists(out + "/profile.shardlab-result.json")); // still shown and saved
    fs::remove_all(out);
}

TEST(CliProfile, ACrashedProgramLeavesWhatItsFullBuffersHeld)
{
    const std::string out = freshOut("crash");
    // 2,000 all-reduces on 2 ranks: 24,000 records, of which whole buffers of 8,192 reached the
    // file before abort().
    const auto r =
        runCommand({"profile", "--out", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM, "--collectives", "2000", "--abort"});
    EXPECT_EQ(r.status, 128 + 6) << r.err; // SIGABRT
    EXPECT_NE(r.err.find("ended by signal 6"), std::string::npos) << r.err;
    auto result = loadResult(out + "/profile.shardlab-result.json");
    ASSERT_TRUE(result) << r.out << r.err;
    EXPECT_GT(result->run.collectives.size(), 600u);
    EXPECT_LT(result->run.collectives.size(), 2000u);
    fs::remove_all(out);
}

TEST(CliProfile, SaysWhatIsMissing)
{
    const auto none = runCommand({"profile"});
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("name the program to run after --"), std::string::npos) << none.err;
    const std::string out = freshOut("empty");
    fs::create_directories(out);
    const auto empty = runCommand({"profile", "--collect", out});
    EXPECT_EQ(empty.status, 2);
    EXPECT_NE(empty.err.find("no record file"), std::string::npos) << empty.err;
    const auto machine = runCommand({"profile", "--collect", out, "--machine", "nope"});
    EXPECT_EQ(machine.status, 2);
    EXPECT_NE(machine.err.find("unknown preset 'nope'"), std::string::npos) << machine.err;
    fs::remove_all(out);
}

// Every numeric option of `profile` goes through the validators of the rest of the command line
// (cli_common.cpp): no uncaught std::stoi (SIGABRT), no "1e3" read as 1, no 0 or -3 taken as "all".
TEST(CliProfile, NumericOptionsAreCheckedAsEverywhereElse)
{
    const std::string out = freshOut("options");
    fs::create_directories(out);
    const std::pair<const char*, const char*> refused[] = {
        {"--trace-iterations=abc", "--trace-iterations: 'abc' is not a whole number (expected 1 to 100000, or all)"},
        {"--trace-iterations=1e3", "--trace-iterations: '1e3' is not a whole number (expected 1 to 100000, or all)"},
        {"--trace-iterations=0", "--trace-iterations: 0 is out of range (expected 1 to 100000, or all)"},
        {"--trace-iterations=-3", "--trace-iterations: -3 is out of range (expected 1 to 100000, or all)"},
        {"--trace-iterations=99999999999999999999", "--trace-iterations: 99999999999999999999 is out of range"},
        {"--trace-iterations=100001", "--trace-iterations: 100001 is out of range"},
        {"--wait=abc", "--wait: 'abc' is not a number (expected 0 to 86400)"},
        {"--wait=nan", "--wait: 'nan' is not a number"},
        {"--wait=inf", "--wait: 'inf' is not a number"},
        {"--wait=1e400", "--wait: '1e400' is not a number"},
        {"--wait=-1", "--wait: -1 is out of range (expected 0 to 86400)"},
        {"--wait=86401", "--wait: 86401 is out of range"},
    };
    for (const auto& [option, said] : refused) {
        const auto r = runCommand({"profile", "--collect", out, option});
        EXPECT_EQ(r.status, 2) << option << ": " << r.err;
        EXPECT_NE(r.err.find(said), std::string::npos) << option << ": " << r.err;
    }
    // accepted: the empty folder is what is wrong then
    for (const char* option :
         {"--trace-iterations=all", "--trace-iterations=100000", "--trace-iterations=1", "--wait=0", "--wait=1e3"}) {
        const auto r = runCommand({"profile", "--collect", out, option});
        EXPECT_NE(r.err.find("no record file"), std::string::npos) << option << ": " << r.err;
    }
    fs::remove_all(out);
}

// The profiler's record folder is not the folder of cost profiles (SHARDLAB_PROFILE_DIR, which a
// profiled `shardlab sim --profile NAME` still finds as its user set it).
TEST(CliProfile, TheRecordsFolderHasAVariableOfItsOwn)
{
    const std::string out = freshOut("variables");
    const std::string costProfiles = freshOut("cost_profiles");
    const std::string seen = freshOut("variables_seen.txt");
    ::setenv("SHARDLAB_PROFILE_DIR", costProfiles.c_str(), 1);
    const auto r = runCommand({"profile", "--out", out, "--", "/bin/sh", "-c",
                               "echo \"$SHARDLAB_PROFILE_DIR|$SHARDLAB_PROFILE_RECORDS_DIR\" > " + seen});
    ::unsetenv("SHARDLAB_PROFILE_DIR");
    EXPECT_NE(r.err.find("no record file"), std::string::npos) << r.err; // sh made no NCCL call
    std::ifstream in(seen);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, costProfiles + "|" + fs::absolute(out).string());
    fs::remove_all(out);
    fs::remove(seen);
}

// A program ended by signal N: the exit status is 128 + N, with or without --live, whether or not
// it recorded anything.
TEST(CliProfile, AProgramEndedByASignalExitsWith128PlusTheSignal)
{
    const std::string out = freshOut("signal");
    const auto killed = runCommand({"profile", "--out", out, "--", "/bin/sh", "-c", "kill -KILL $$"});
    EXPECT_EQ(killed.status, 128 + 9) << killed.err;
    EXPECT_NE(killed.err.find("ended by signal 9"), std::string::npos) << killed.err;
    const auto live = runCommand({"profile", "--live", "--out", out, "--", "/bin/sh", "-c", "kill -TERM $$"});
    EXPECT_EQ(live.status, 128 + 15) << live.err;
    EXPECT_NE(live.err.find("ended by signal 15"), std::string::npos) << live.err;
    fs::remove_all(out);
}

// A program that does not exist or cannot be started is said once, naming it, before anything
// starts; nothing blames NCCL.
TEST(CliProfile, AProgramThatCannotStartIsSaidOnce)
{
    const std::string out = freshOut("missing");
    auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
    const auto missing = runCommand({"profile", "--out", out, "--", "/nonexistent/program"});
    EXPECT_EQ(missing.status, 2);
    EXPECT_EQ(missing.err, "shardlab: the program /nonexistent/program does not exist\n");
    EXPECT_EQ(runCommand({"--lang", "zh", "profile", "--out", out, "--", "/nonexistent/program"}).err,
              "shardlab: 程序 /nonexistent/program 不存在\n");
    const auto typo = runCommand({"profile", "--out", out, "--", "a_program_name_with_a_typo", "--x"});
    EXPECT_EQ(typo.status, 2);
    EXPECT_EQ(lines(typo.err), 1) << typo.err;
    EXPECT_NE(typo.err.find("the program a_program_name_with_a_typo was not found: no folder of PATH holds it"),
              std::string::npos)
        << typo.err;
    // found and executable, but exec refuses it: its interpreter does not exist
    const std::string script = freshOut("script.sh");
    std::ofstream(script) << "#!/no/such/interpreter\n";
    fs::permissions(script, fs::perms::owner_all);
    const auto cannot = runCommand({"profile", "--out", out, "--", script});
    EXPECT_EQ(cannot.status, 2);
    EXPECT_EQ(cannot.err, "shardlab: the program " + script + " cannot be started: No such file or directory\n");
    EXPECT_EQ(cannot.err.find("NCCL"), std::string::npos);
    fs::remove(script);
    fs::remove_all(out);
}

// An earlier profile in --out stays until everything that can be checked has been: the program,
// the options, the outputs.
TEST(CliProfile, NothingIsRemovedBeforeEverythingIsChecked)
{
    const std::string out = freshOut("kept");
    const auto first = runCommand({"profile", "--out", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM, "--ranks", "2"});
    ASSERT_EQ(first.status, 0) << first.err;
    std::vector<fs::path> earlier;
    for (const auto& e : fs::directory_iterator(out))
        if (e.path().filename().string().front() != '.')
            earlier.push_back(e.path());
    ASSERT_GE(earlier.size(), 3u); // the records, the result file, the trace
    const std::vector<std::vector<std::string>> refused = {
        {"profile", "--out", out, "--", "a_program_name_with_a_typo"},
        {"profile", "--out", out, "--machine", "nope", "--", SHARDLAB_FAKE_NCCL_PROGRAM},
        {"profile", "--out", out, "--result", "/nonexistent/folder/r.json", "--", SHARDLAB_FAKE_NCCL_PROGRAM},
        {"profile", "--out", out, "--trace", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM},
        {"profile", "--out", out, "--csv", "/nonexistent/folder/p", "--", SHARDLAB_FAKE_NCCL_PROGRAM},
        {"profile", "--live", "--out", out, "--scenario", "/nonexistent/folder/s.shardlab.json", "--",
         SHARDLAB_FAKE_NCCL_PROGRAM},
    };
    for (const auto& args : refused) {
        const auto r = runCommand(args);
        EXPECT_EQ(r.status, 2) << args[args.size() - 1] << ": " << r.err;
        for (const fs::path& p : earlier)
            EXPECT_TRUE(fs::exists(p)) << p << " removed by: " << r.err;
    }
    fs::remove_all(out);
}

// A folder another `shardlab profile` holds is refused, naming that process, and nothing in it is
// touched; once it is free, it is used.
TEST(CliProfile, AFolderInUseIsRefusedNamingItsProcess)
{
    const std::string out = freshOut("locked");
    fs::create_directories(out);
    const std::string record = out + "/other-1.nccl-profile.jsonl";
    std::ofstream(record) << "being written\n";
    {
        const int fd = ::open((out + "/.shardlab-profile.lock").c_str(), O_RDWR | O_CREAT, 0644);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
        ASSERT_EQ(::write(fd, "4242\n", 5), 5);
        for (const bool live : {false, true}) {
            std::vector<std::string> args = {"profile", "--out", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM};
            if (live)
                args.insert(args.begin() + 1, "--live");
            const auto r = runCommand(args);
            EXPECT_EQ(r.status, 2) << r.err;
            EXPECT_NE(r.err.find("--out " + out
                                 + " is in use by another `shardlab profile` (process 4242): wait until it ends, "
                                   "or give another --out folder"),
                      std::string::npos)
                << r.err;
            EXPECT_TRUE(fs::exists(record));
        }
        const auto zh = runCommand({"--lang", "zh", "profile", "--out", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM});
        EXPECT_NE(zh.err.find("--out " + out + " 正被另一个 `shardlab profile`（进程 4242）使用"), std::string::npos)
            << zh.err;
        ::close(fd);
    }
    const auto free = runCommand({"profile", "--out", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM, "--ranks", "2"});
    EXPECT_EQ(free.status, 0) << free.err;
    EXPECT_FALSE(fs::exists(record)); // an earlier run's records, removed once the folder is this run's
    fs::remove_all(out);
}

// Two `shardlab profile` processes into one --out: the second is refused while the first runs (its
// program held at a gate), and the first reports its own run.
TEST(CliProfile, ASecondProfileIntoTheSameFolderIsRefused)
{
    const std::string out = freshOut("two_runs");
    const std::string gate = freshOut("two_runs_gate");
    const pid_t first = ::fork();
    if (first == 0) {
        ::setenv("SHARDLAB_PROFILE_FLUSH_MS", "0", 1);
        const int devnull = ::open("/dev/null", O_WRONLY);
        ::dup2(devnull, STDOUT_FILENO);
        ::dup2(devnull, STDERR_FILENO);
        ::execl(SHARDLAB_CLI, SHARDLAB_CLI, "profile", "--out", out.c_str(), "--", SHARDLAB_FAKE_NCCL_PROGRAM,
                "--ranks", "2", "--pause-after", "1", "--until", gate.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ASSERT_GT(first, 0);
    // The first holds the folder once its lock names it, and its program waits at the gate.
    const std::string lock = out + "/.shardlab-profile.lock";
    const std::string pid = std::to_string(first);
    for (int i = 0; i < 12'000; ++i) { // a deadline only (120 s), for a hang
        std::ifstream in(lock);
        std::string text;
        if (std::getline(in, text) && text == pid)
            break;
        ::usleep(10'000);
    }
    const auto second = runCommand({"profile", "--out", out, "--", SHARDLAB_FAKE_NCCL_PROGRAM, "--ranks", "4"});
    EXPECT_EQ(second.status, 2) << second.err;
    EXPECT_NE(second.err.find("is in use by another `shardlab profile` (process " + pid + ")"), std::string::npos)
        << second.err;
    std::ofstream(gate) << "go\n";
    int status = 0;
    ASSERT_EQ(::waitpid(first, &status, 0), first);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    auto result = loadResult(out + "/profile.shardlab-result.json");
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->run.ranks, 2); // the first run's, not the second's 4 ranks
    EXPECT_EQ(result->run.collectives.size(), 3u);
    fs::remove(gate);
    fs::remove_all(out);
}

} // namespace
} // namespace shardlab
