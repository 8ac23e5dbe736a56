// The command line's own refusals are born Messages (issue 26): the English a user or a script
// reads is what it was, and `--lang zh` words each one in Chinese, with no English word left but
// the values (file names, options, the program's name) (app/cli: cli_profile*.cpp, cli_import.cpp,
// cli_stream.cpp, cli_calibrate.cpp, cli_compare.cpp, cli_lessons.cpp).
#include "../common/born_message.h"
#include "cli_profile.h"
#include "cli_test_helpers.h"

#include "shardlab/model/presets.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace shardlab;
using namespace shardlab::cli;
using shardlab::test::CliRun;
using shardlab::test::expectBornInBothLanguages;
using shardlab::test::runCommand;

namespace fs = std::filesystem;

namespace {

const std::string kSource = std::string(SHARDLAB_SCENARIO_DIR) + "/../..";

// The refusal of `args`: exactly `english` on standard error with --lang en, and with --lang zh a
// line of Chinese with no English word but `kept`. Returns the Chinese line.
std::string refusal(std::vector<std::string> args, const std::string& english, const std::vector<std::string>& kept,
                    int status = kExitBadInput)
{
    SCOPED_TRACE(args.front());
    args.insert(args.begin(), {"--lang", "en"});
    const CliRun en = runCommand(args);
    EXPECT_EQ(en.status, status) << en.out << en.err;
    EXPECT_EQ(en.err, "shardlab: " + english + "\n");
    args[1] = "zh";
    const CliRun zh = runCommand(args);
    EXPECT_EQ(zh.status, status) << zh.out << zh.err;
    EXPECT_EQ(zh.err.rfind("shardlab: ", 0), 0u) << zh.err;
    const std::string line = zh.err.substr(std::min(zh.err.size(), std::string("shardlab: ").size()));
    EXPECT_NE(line, english + "\n");
    EXPECT_EQ(line.find("[cli."), std::string::npos) << line;
    EXPECT_EQ(line.find("[error."), std::string::npos) << line;
    std::vector<std::string> names = kept;
    names.push_back("shardlab");
    std::string left;
    for (const std::string& w : untranslatedWords(line, names))
        left += (left.empty() ? "" : ", ") + w;
    EXPECT_EQ(left, "") << line;
    return line;
}

// Sets an environment variable for one test, and restores it.
struct EnvVar {
    std::string name;
    std::optional<std::string> old;
    EnvVar(const char* n, const std::string& value) : name(n)
    {
        if (const char* v = std::getenv(n))
            old = v;
        ::setenv(n, value.c_str(), 1);
    }
    ~EnvVar()
    {
        if (old)
            ::setenv(name.c_str(), old->c_str(), 1);
        else
            ::unsetenv(name.c_str());
    }
};

fs::path scratch(const char* name)
{
    const fs::path dir =
        fs::temp_directory_path() / (std::string("shardlab-born-") + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

} // namespace

// cli_profile.cpp
TEST(CliErrorsBorn, ProfileWithoutAProgram)
{
    refusal({"profile"},
            "profile: name the program to run after -- (shardlab profile -- ./prog), or give --collect DIR or "
            "--resimulate RESULT",
            {"profile", "./prog", "--collect", "DIR", "--resimulate", "RESULT"});
}

// cli_profile_program.cpp: pluginPath(), programProblem(), ProfiledProgram::start()
TEST(CliErrorsBorn, ProfilerVariableNamingNothing)
{
    const EnvVar plugin("SHARDLAB_NCCL_PROFILER", "/nonexistent/libshardlab-profiler.so");
    auto path = pluginPath();
    ASSERT_FALSE(path);
    EXPECT_EQ(path.error().message,
              "SHARDLAB_NCCL_PROFILER names /nonexistent/libshardlab-profiler.so, which does not exist");
    expectBornInBothLanguages(path.error(), {"SHARDLAB_NCCL_PROFILER", "/nonexistent/libshardlab-profiler.so"});
    refusal({"profile", "--out", scratch("plugin").string(), "--", "./prog"},
            "SHARDLAB_NCCL_PROFILER names /nonexistent/libshardlab-profiler.so, which does not exist",
            {"SHARDLAB_NCCL_PROFILER", "/nonexistent/libshardlab-profiler.so"});
}

TEST(CliErrorsBorn, ProgramsThatCannotRun)
{
    const Message empty = programProblem("");
    EXPECT_EQ(english(empty), "the program's name is empty");
    expectBornInBothLanguages(badInput(empty));
    const Message missing = programProblem("/nonexistent/prog");
    EXPECT_EQ(english(missing), "the program /nonexistent/prog does not exist");
    expectBornInBothLanguages(badInput(missing), {"/nonexistent/prog"});
    const Message notOnPath = programProblem("no-such-program-of-shardlab");
    EXPECT_EQ(english(notOnPath), "the program no-such-program-of-shardlab was not found: no folder of PATH holds it "
                                  "(give its path, e.g. ./no-such-program-of-shardlab)");
    expectBornInBothLanguages(badInput(notOnPath),
                              {"no-such-program-of-shardlab", "./no-such-program-of-shardlab", "PATH"});
    EXPECT_TRUE(programProblem("sh").empty());

    // runnable, but its interpreter is missing: exec refuses it, said once with the system's reason
    const fs::path dir = scratch("exec");
    const fs::path junk = dir / "junk";
    std::ofstream(junk) << "#!/nonexistent/interpreter\n";
    fs::permissions(junk, fs::perms::owner_all);
    const Message notRunnable = programProblem(junk.string());
    EXPECT_TRUE(notRunnable.empty()) << english(notRunnable);
    auto started = ProfiledProgram::start({junk.string()}, {}, false);
    ASSERT_FALSE(started);
    EXPECT_EQ(started.error().message, "the program " + junk.string() + " cannot be started: " + std::strerror(ENOENT));
    std::vector<std::string> kept = {junk.string()};
    for (const std::string& w : untranslatedWords(std::strerror(ENOENT)))
        kept.push_back(w);
    expectBornInBothLanguages(started.error(), kept);
    fs::remove_all(dir);
}

// cli_profile_folder.cpp
TEST(CliErrorsBorn, OutFolderInUseOrUnwritable)
{
    const fs::path dir = scratch("lock");
    auto held = OutFolderLock::take(dir, false);
    ASSERT_TRUE(held) << held.error().message;
    auto refused = OutFolderLock::take(dir, false);
    ASSERT_FALSE(refused);
    const std::string pid = std::to_string(::getpid());
    EXPECT_EQ(refused.error().message, "--out " + dir.string() + " is in use by another `shardlab profile` (process "
                                           + pid + "): wait until it ends, or give another --out folder");
    expectBornInBothLanguages(refused.error(), {dir.string(), "--out", pid});
    held->reset();

    auto missing = OutFolderLock::take(dir / "no" / "such", false);
    ASSERT_FALSE(missing);
    const std::string nowhere = (dir / "no" / "such").string();
    EXPECT_EQ(missing.error().message,
              "--out " + nowhere + ": cannot write in " + nowhere + " (check that the folder exists and is writable)");
    expectBornInBothLanguages(missing.error(), {nowhere, "--out"});
    fs::remove_all(dir);
}

TEST(CliErrorsBorn, ProfileOutputThatIsAFolder)
{
    const fs::path dir = scratch("folder");
    const EnvVar plugin("SHARDLAB_NCCL_PROFILER", "/bin/sh"); // exists: the checks go on
    refusal({"profile", "--out", dir.string(), "--result", dir.string(), "--", "sh"},
            "--result " + dir.string() + ": is a folder (expected a file name)", {"--result", dir.string()});
    refusal({"profile", "--out", dir.string(), "--", "/nonexistent/prog"},
            "the program /nonexistent/prog does not exist", {"/nonexistent/prog"});
    fs::remove_all(dir);
}

// cli_profile_live.cpp
TEST(CliErrorsBorn, ProfileLiveWithJson)
{
    refusal({"profile", "--live", "--json", "--", "./prog"},
            "profile --live writes the run stream on standard output; --json would write there too: leave one out",
            {"profile", "--live", "--json"});
}

// cli_import.cpp: a sweep where a job's run is asked for
TEST(CliErrorsBorn, ResimulatingASweep)
{
    const std::string sweep = kSource + "/tests/import/data/nccl_tests/all_reduce_perf_2ranks.json";
    refusal({"profile", "--resimulate", sweep},
            sweep
                + ": an nccl-tests sweep, not a job's run: `shardlab import FILE --preset ID` shows it beside the "
                  "simulation",
            {sweep, "import", "FILE", "--preset", "ID"});
}

// cli_calibrate.cpp
TEST(CliErrorsBorn, CalibrateProfileNamedDefault)
{
    refusal({"calibrate", "--name", "default", "--no-save"},
            "--name 'default': a profile needs a name other than 'default', without '/'", {"--name", "default"});
}

// cli_compare.cpp
TEST(CliErrorsBorn, CompareWithBytesThatAreNoSize)
{
    const std::string zh =
        refusal({"compare", "--gpus", "2", "--preset", "h200-nvswitch-8", "--bytes", "lots"},
                "--bytes: 'lots' is not a size (expected e.g. 8, 8B, 64K, 1M, 4G)", {"--bytes", "lots"});
    EXPECT_NE(zh.find("--bytes"), std::string::npos);
}

// cli_lessons.cpp
TEST(CliErrorsBorn, NoSuchLesson)
{
    const CliRun en = runCommand({"--lang", "en", "lessons", "show", "no-such-lesson"});
    const std::string start = "shardlab: no lesson 'no-such-lesson' (known: ";
    ASSERT_EQ(en.err.rfind(start, 0), 0u) << en.err;
    std::vector<std::string> known = {"no-such-lesson"};
    std::string list = en.err.substr(start.size());
    list = list.substr(0, list.rfind(')'));
    for (size_t at = 0; at <= list.size();) {
        const size_t comma = std::min(list.find(", ", at), list.size());
        known.push_back(list.substr(at, comma - at));
        at = comma + 2;
    }
    refusal({"lessons", "show", "no-such-lesson"}, en.err.substr(10, en.err.size() - 11), known);
}

// cli_stream.cpp
TEST(CliErrorsBorn, StreamedResultThatCannotBeSaved)
{
    const std::string result = "/nonexistent/folder/run.shardlab-result.json";
    const CliRun en = runCommand(
        {"--lang", "en", "sim", test::scenario("balance-12-12.shardlab.json"), "--stream", "--result", result});
    EXPECT_NE(en.status, 0);
    if (en.err.find("could not save the result file " + result) == std::string::npos)
        GTEST_SKIP() << "refused before the stream: " << en.err;
    const CliRun zh = runCommand(
        {"--lang", "zh", "sim", test::scenario("balance-12-12.shardlab.json"), "--stream", "--result", result});
    EXPECT_EQ(zh.err.find("could not save"), std::string::npos) << zh.err;
    EXPECT_NE(zh.err.find("无法保存结果文件 " + result), std::string::npos) << zh.err;
}

// cli_common.cpp: live mode's advice replaced by a live-only command's simulated form stays born
TEST(CliErrorsBorn, SuggestInsteadKeepsTheMessage)
{
    const Error noGpu = badInput(Message("error.live.no_gpu_visible").with("command", "shardlab sim"));
    const Error said =
        suggestInstead(noGpu, Message("cli.error.instead_sweep").with("command", "shardlab bench --sim --preset ID"));
    EXPECT_EQ(said.message,
              "no CUDA GPU is visible to this process; live mode needs at least one NVIDIA GPU (instead, use "
              "`shardlab bench --sim --preset ID` (the same sweep, simulated))");
    expectBornInBothLanguages(said, {"shardlab bench --sim --preset ID"});

    const Error hidden = badInput(Message("error.live.no_gpu_visible_in")
                                      .with("variable", "CUDA_VISIBLE_DEVICES")
                                      .with("value", "7")
                                      .with("command", "shardlab sim"));
    const Error hiddenSaid =
        suggestInstead(hidden, Message("cli.error.instead_scenario").with("command", "shardlab sim FILE"));
    EXPECT_EQ(hiddenSaid.message,
              "no CUDA GPU is visible to this process (CUDA_VISIBLE_DEVICES=7); live mode needs at least "
              "one NVIDIA GPU (instead, use `shardlab sim FILE` (the same scenario, simulated))");
    expectBornInBothLanguages(hiddenSaid, {"CUDA_VISIBLE_DEVICES=7", "shardlab sim FILE"});

    const Error driver =
        badInput(Message("error.live.driver_too_old").with("version", "12.4").with("command", "shardlab sim"));
    const Error driverSaid = suggestInstead(
        driver, Message("cli.error.instead_report").with("command", "shardlab report").with("option", "--live"));
    EXPECT_EQ(driverSaid.message,
              "the NVIDIA driver is missing or too old for CUDA 12.4 (live mode needs an NVIDIA GPU and "
              "driver; instead, use `shardlab report` without --live (the simulated report))");
    expectBornInBothLanguages(driverSaid, {"shardlab report", "--live"});
    const Error fitSaid = suggestInstead(
        driver,
        Message("cli.error.instead_fit").with("command", "shardlab calibrate --measured FILE.json... --preset ID"));
    expectBornInBothLanguages(fitSaid, {"shardlab calibrate --measured FILE.json... --preset ID"});

    // an error without the advice is left as it was
    const Error other = badInput(Message("cli.error.no_cuda_gpu"));
    EXPECT_EQ(english(suggestInstead(other, Message("cli.error.instead_sweep").with("command", "x")).what),
              english(other.what));
}

// cli_profile_program.cpp machineOption(), cli_compare.cpp: an unknown preset
TEST(CliErrorsBorn, UnknownMachinePreset)
{
    auto machine = machineOption("no-such-machine");
    ASSERT_FALSE(machine);
    EXPECT_EQ(machine.error().message, "--machine: " + unknownPresetMessage("no-such-machine"));
    ASSERT_FALSE(machine.error().what.empty());
    const std::string zh = render(machine.error().what, Language::Chinese);
    EXPECT_EQ(zh.find("unknown preset"), std::string::npos) << zh;
    EXPECT_NE(zh.find("--machine"), std::string::npos) << zh;

    const CliRun en = runCommand({"--lang", "en", "compare", "--gpus", "2", "--preset", "no-such-machine"});
    EXPECT_EQ(en.err, "shardlab: " + unknownPresetMessage("no-such-machine") + "\n");
    const CliRun zhRun = runCommand({"--lang", "zh", "compare", "--gpus", "2", "--preset", "no-such-machine"});
    EXPECT_EQ(zhRun.err.find("unknown preset"), std::string::npos) << zhRun.err;
    EXPECT_NE(zhRun.err.find("no-such-machine"), std::string::npos) << zhRun.err;
}
