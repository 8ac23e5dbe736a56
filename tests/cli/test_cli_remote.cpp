// `shardlab sim|live --on [USER@]HOST[:PORT]` (cli_remote.cpp) against an sshd of the test's own
// (tests/common/local_sshd.h) whose "remote" ShardLab is the built `shardlab`: hostile targets are
// refused before ssh starts (the ssh program is a wrapper that leaves a mark when it runs), with a
// message naming the field; a benign `sim --on` prints what the local run prints; a path with
// shell characters reaches the remote shell as one quoted word. No timing: each run is waited for.
#include "cli_test_helpers.h"

#include "../common/local_sshd.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

using namespace shardlab;
using shardlab::test::runCommand;

namespace {

namespace fs = std::filesystem;

class CliRemote : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = fs::temp_directory_path() / ("shardlab-cli-remote-" + std::to_string(::getpid()));
        fs::create_directories(s_dir);
        // the ssh program: leaves a mark, then is the real ssh
        const fs::path wrapper = s_dir / "ssh-wrapper.sh";
        std::ofstream(wrapper) << "#!/bin/sh\ntouch '" << (s_dir / "ssh-started").string() << "'\nexec ssh \"$@\"\n";
        fs::permissions(wrapper, fs::perms::owner_all);
        ::setenv("SHARDLAB_SSH", wrapper.c_str(), 1);
        s_sshd = new test::PlainLocalSshd;
        if (!s_sshd->start(&s_why)) {
            delete s_sshd;
            s_sshd = nullptr;
        }
    }
    static void TearDownTestSuite()
    {
        delete s_sshd;
        s_sshd = nullptr;
        ::unsetenv("SHARDLAB_SSH");
        std::error_code ec;
        fs::remove_all(s_dir, ec);
    }
    void SetUp() override { fs::remove(s_dir / "ssh-started"); }
    static bool sshStarted() { return fs::exists(s_dir / "ssh-started"); }

    static inline fs::path s_dir;
    static inline test::PlainLocalSshd* s_sshd = nullptr;
    static inline std::string s_why;
};

} // namespace

TEST_F(CliRemote, HostileTargetsAreRefusedBeforeSshStartsNamingTheField)
{
    const std::string file = test::scenario("default.shardlab.json");
    struct Case {
        std::vector<std::string> options;
        std::string says;
    };
    const std::vector<Case> cases = {
        {{"--on=\xc2\xa0-oProxyCommand=touch /tmp/shardlab-pwned"}, "--on: the host '\\u00a0-oProxyCommand"},
        {{"--on=\xe2\x80\x83-oProxyCommand=x"}, "has U+2003 at character 1"},
        {{"--on=\xe3\x80\x80-oProxyCommand=x"}, "has U+3000 at character 1"},
        {{"--on=\xc2\x85-oProxyCommand=x"}, "has U+0085 at character 1"},
        {{"--on=\xe2\x80\xa8-oProxyCommand=x"}, "has U+2028 at character 1"},
        {{"--on=-oProxyCommand=touch /tmp/shardlab-pwned"},
         "--on: the host '-oProxyCommand=touch /tmp/shardlab-pwned' begins with '-'"},
        {{"--on=-E"}, "--on: the host '-E' begins with '-'"},
        {{"--on=-E@gpu1"}, "--on: the user '-E' begins with '-'"},
        {{"--on=gpu1:-22"}, "--on: the port '-22' is not a port"},
        {{"--on=gpu1;touch x"}, "has ';' (U+003B) at character 5"},
        {{"--on=lab-gpu", "--jump=-oProxyCommand=x"}, "--jump: the jump host '-oProxyCommand=x' begins with '-'"},
        {{"--on=lab-gpu", "--remote-shardlab=-E /tmp/x"}, "the remote ShardLab '-E /tmp/x' begins with '-'"},
        {{"--on=lab-gpu", "--remote-shardlab=bin/shard\xe2\x80\xa8lab"},
         "the remote ShardLab 'bin/shard\\u2028lab' has U+2028"},
        {{"--on=lab-gpu", "--launcher=-oProxyCommand=x srun"}, "the launcher '-oProxyCommand=x srun' begins with '-'"},
        {{"--on=lab-gpu", "--launcher=srun\xc2\xa0-N1"}, "the launcher 'srun\\u00a0-N1' has U+00A0"},
        {{"--on=lab-gpu", "--ssh-config=-E/tmp/x"}, "the ssh config file '-E/tmp/x' begins with '-'"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.options.front() + (c.options.size() > 1 ? " " + c.options.back() : ""));
        std::vector<std::string> args{"sim"};
        args.insert(args.end(), c.options.begin(), c.options.end());
        args.push_back(file);
        const auto r = runCommand(args);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_FALSE(sshStarted());
    }
    // live too, and in Chinese
    const auto live = runCommand({"live", "--on=\xc2\xa0-oProxyCommand=x", file});
    EXPECT_EQ(live.status, 2);
    EXPECT_NE(live.err.find("the host"), std::string::npos) << live.err;
    const auto zh = runCommand({"--lang", "zh", "sim", "--on=-E@gpu1", file});
    EXPECT_EQ(zh.status, 2);
    EXPECT_NE(zh.err.find("用户名“-E”以“-”开头，ssh 会把它当作选项"), std::string::npos) << zh.err;
    EXPECT_FALSE(sshStarted());
    // --on and --stream do not go together
    const auto both = runCommand({"sim", "--on", "lab-gpu", "--stream", file});
    EXPECT_EQ(both.status, 2);
    EXPECT_NE(both.err.find("--on and --stream cannot be used together"), std::string::npos) << both.err;
}

TEST_F(CliRemote, ABenignSimOnPrintsWhatTheLocalRunPrints)
{
    if (!s_sshd)
        GTEST_SKIP() << s_why;
    const std::string file = test::scenario("straggler-12-6-4-2.shardlab.json");
    const std::string result = (s_dir / "remote.shardlab-result.json").string();
    const auto remote =
        runCommand({"sim", "--on", test::PlainLocalSshd::kAlias, "--ssh-config", s_sshd->path("ssh_config"),
                    "--remote-shardlab", SHARDLAB_CLI, "--json", "--result", result, file});
    ASSERT_EQ(remote.status, 0) << remote.err;
    EXPECT_TRUE(sshStarted());
    const auto local = runCommand({"sim", "--json", file});
    ASSERT_EQ(local.status, 0) << local.err;
    EXPECT_EQ(remote.out, local.out);
    EXPECT_TRUE(fs::exists(result));
    // the table too
    const auto table = runCommand({"sim", "--on", test::PlainLocalSshd::kAlias, "--ssh-config",
                                   s_sshd->path("ssh_config"), "--remote-shardlab", SHARDLAB_CLI, file});
    ASSERT_EQ(table.status, 0) << table.err;
    EXPECT_EQ(table.out, runCommand({"sim", file}).out);
}

TEST_F(CliRemote, APathWithShellCharactersIsOneWordThere)
{
    if (!s_sshd)
        GTEST_SKIP() << s_why;
    const fs::path mark = s_dir / "injected";
    const std::string path = "/nonexistent/x'; touch " + mark.string() + "; echo '$(touch " + mark.string() + ")";
    const auto r = runCommand({"sim", "--on", test::PlainLocalSshd::kAlias, "--ssh-config", s_sshd->path("ssh_config"),
                               "--remote-shardlab", path, test::scenario("default.shardlab.json")});
    EXPECT_EQ(r.status, 3) << r.err;
    EXPECT_TRUE(sshStarted());
    EXPECT_NE(r.err.find("the command was not found on " + std::string(test::PlainLocalSshd::kAlias)),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(mark));
    // the launcher's words too
    const auto l = runCommand({"sim", "--on", test::PlainLocalSshd::kAlias, "--ssh-config", s_sshd->path("ssh_config"),
                               "--launcher", "env;touch " + mark.string(), "--remote-shardlab", SHARDLAB_CLI,
                               test::scenario("default.shardlab.json")});
    EXPECT_NE(l.status, 0);
    EXPECT_FALSE(fs::exists(mark));
}

TEST_F(CliRemote, AnUnreachableHostSaysSo)
{
    if (!s_sshd)
        GTEST_SKIP() << s_why;
    const fs::path config = s_dir / "closed_config";
    std::ofstream(config)
        << "Host closed\n  HostName 127.0.0.1\n  Port 1\n  BatchMode yes\n  StrictHostKeyChecking no\n"
           "  UserKnownHostsFile /dev/null\n";
    const auto r =
        runCommand({"sim", "--on", "closed", "--ssh-config", config.string(), test::scenario("default.shardlab.json")});
    EXPECT_EQ(r.status, 3);
    EXPECT_NE(r.err.find("ssh could not connect to closed (exit status 255)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("closed said: "), std::string::npos) << r.err;
}
