// The SSH target's checks and ssh's argument list (shardlab/cluster/ssh_target.h), over hostile
// input: every Unicode space before an option (`\u00a0-oProxyCommand=...`), options in every field
// (`-E FILE`, a leading '-'), shell characters in paths and launchers; and the quoting of the remote
// command, read back by the real /bin/sh.
#include "shardlab/cluster/ssh_target.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

using namespace shardlab;

namespace {

// UTF-8 of one code point.
std::string utf8(char32_t c)
{
    std::string s;
    if (c < 0x80) {
        s += static_cast<char>(c);
    } else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

// Every White_Space character of Unicode, the controls a text field can hold, and the invisible
// ones (zero widths, bidi controls, the byte order mark, a Hangul filler).
const std::vector<char32_t> kInvisible = {
    0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x20,   0x85,   0xA0,   0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
    0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0x00,
    0x1B,   0x7F,   0x9B,   0xAD,   0x200B, 0x200D, 0x200E, 0x202E, 0x2066, 0x2060, 0xFEFF, 0x3164, 0xE0041,
};

std::string hex(char32_t c)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(c));
    return buf;
}

SshTarget benign()
{
    SshTarget t;
    t.destination = {"alice", "gpu1.example.org", 2222};
    return t;
}

// What /bin/sh makes of `line`: the words printf receives, one per line.
std::string shellWords(const std::string& line)
{
    std::string out;
    FILE* p = ::popen(line.c_str(), "r");
    if (!p)
        return "popen failed";
    std::array<char, 256> buf{};
    while (size_t n = std::fread(buf.data(), 1, buf.size(), p))
        out.append(buf.data(), n);
    ::pclose(p);
    return out;
}

} // namespace

TEST(SshTarget, EveryUnicodeSpaceOrInvisibleCharacterBeforeAnOptionIsRefusedInTheHost)
{
    for (char32_t c : kInvisible) {
        SCOPED_TRACE(hex(c));
        const std::string host = utf8(c) + "-oProxyCommand=touch /tmp/shardlab-pwned";
        auto d = parseSshDestination(host);
        ASSERT_FALSE(d);
        EXPECT_EQ(d.error().kind, ErrorKind::BadInput);
        EXPECT_EQ(d.error().message.rfind("the host '", 0), 0u) << d.error().message;
        EXPECT_NE(d.error().message.find(hex(c) + " at character 1"), std::string::npos) << d.error().message;
        // shown escaped: nothing invisible reaches the message
        if (c != 0x20) {
            EXPECT_EQ(d.error().message.find(utf8(c)), std::string::npos);
        }
        // inside and after a name too, and in the user
        EXPECT_FALSE(parseSshDestination("lab" + utf8(c) + "gpu"));
        EXPECT_FALSE(parseSshDestination("lab-gpu" + utf8(c)));
        EXPECT_FALSE(parseSshDestination("al" + utf8(c) + "ice@lab-gpu"));
        // and in every text field (where U+0020 is the one space allowed)
        if (c == 0x20)
            continue;
        SshTarget t = benign();
        EXPECT_FALSE(sshArguments(t, "shardlab" + utf8(c) + "live --stream -"));
        t.configFile = "cfg" + utf8(c);
        EXPECT_FALSE(sshArguments(t, "shardlab live --stream -"));
        EXPECT_FALSE(remoteCommandLine({"bin/shardlab" + utf8(c), ""}, {"sim"}));
        EXPECT_FALSE(remoteCommandLine({"shardlab", "srun" + utf8(c) + "-N1"}, {"sim"}));
    }
}

TEST(SshTarget, NoFieldMayBeginWithADash)
{
    const std::string dash = "begins with '-', which ssh would read as an option";
    auto expectDash = [&](const Error& e, const std::string& field) {
        EXPECT_EQ(e.message.rfind(field + " '", 0), 0u) << e.message;
        EXPECT_NE(e.message.find(dash), std::string::npos) << e.message;
    };
    for (const char* option : {"-oProxyCommand=touch /tmp/x", "-E /tmp/append-here", "-E", "-F/tmp/cfg", "-"}) {
        SCOPED_TRACE(option);
        auto host = parseSshDestination(option);
        ASSERT_FALSE(host);
        expectDash(host.error(), "the host");
        auto user = parseSshDestination(std::string(option) + "@gpu1");
        ASSERT_FALSE(user);
        EXPECT_EQ(user.error().message.rfind("the user '", 0), 0u) << user.error().message;
        auto jump = parseSshDestination(option, SshRole::Jump);
        ASSERT_FALSE(jump);
        EXPECT_EQ(jump.error().message.rfind("the jump host '", 0), 0u) << jump.error().message;
        auto command = sshArguments(benign(), option);
        ASSERT_FALSE(command);
        expectDash(command.error(), "the remote command");
        auto shardlab = remoteCommandLine({option, ""}, {"sim"});
        ASSERT_FALSE(shardlab);
        expectDash(shardlab.error(), "the remote ShardLab");
        auto launcher = remoteCommandLine({"shardlab", option}, {"sim"});
        ASSERT_FALSE(launcher);
        expectDash(launcher.error(), "the launcher");
        SshTarget t = benign();
        t.configFile = option;
        auto config = sshArguments(t, "shardlab live --stream -");
        ASSERT_FALSE(config);
        expectDash(config.error(), "the ssh config file");
        // a target made in code is checked as well as a parsed one
        t = benign();
        t.destination.host = option;
        ASSERT_FALSE(sshArguments(t, "shardlab live --stream -"));
        t = benign();
        t.jump = SshDestination{"", option, 0};
        ASSERT_FALSE(sshArguments(t, "shardlab live --stream -"));
    }
    auto port = parseSshDestination("gpu1:-22");
    ASSERT_FALSE(port);
    EXPECT_EQ(port.error().message, "the port '-22' is not a port (expected 1 to 65535)");
}

TEST(SshTarget, HostsAndUsersAreNamesWithoutShellOrSshConfigCharacters)
{
    for (const char* host : {"gpu1;touch x", "$(id)",  "`id`",       "gpu%h",    "gpu1'",    "a\"b", "a|b", "a&b",
                             "a/b",          "a,b",    "gpu1@",      "a@b@c",    "[gpu1]",   "[::1", "::1", "[::1]x",
                             "gpu1:",        "gpu1:0", "gpu1:65536", "gpu1:22a", "gpu1:+22", "中文"}) {
        SCOPED_TRACE(host);
        auto d = parseSshDestination(host);
        ASSERT_FALSE(d);
        EXPECT_EQ(d.error().kind, ErrorKind::BadInput);
    }
    auto semicolon = parseSshDestination("gpu1;touch x");
    EXPECT_EQ(
        semicolon.error().message,
        "the host 'gpu1;touch x' has ';' (U+003B) at character 5 (expected letters, digits, '.', '-' and '_': a host "
        "name or an alias of ~/.ssh/config, or an IPv6 address in brackets)");
    auto nbsp = parseSshDestination("\xc2\xa0-oProxyCommand=x");
    EXPECT_EQ(nbsp.error().message, "the host '\\u00a0-oProxyCommand=x' has U+00A0 at character 1 (expected letters, "
                                    "digits, '.', '-' and '_': a host name or an alias of ~/.ssh/config, or an IPv6 "
                                    "address in brackets)");
    EXPECT_EQ(parseSshDestination("").error().message, "the host is empty");
    EXPECT_EQ(parseSshDestination("@gpu1").error().message, "the user is empty");
    EXPECT_EQ(parseSshDestination("alice@").error().message, "the host is empty");
    EXPECT_EQ(parseSshDestination("\xff").error().message, "the host is not valid UTF-8 (at byte 1)");
    EXPECT_FALSE(parseSshDestination("lab-gpu:2222", SshRole::Destination, false)); // the app's port is its own field
}

TEST(SshTarget, BenignDestinationsReadBack)
{
    for (const char* text : {"lab-gpu", "alice@gpu1.example.org", "alice@gpu1:2222", "gpu_1.lab:22", "[::1]",
                             "bob@[fe80::1]:2022", "10.0.0.7"}) {
        SCOPED_TRACE(text);
        auto d = parseSshDestination(text);
        ASSERT_TRUE(d) << d.error().message;
        EXPECT_EQ(sshDestinationText(*d), text);
    }
    auto d = parseSshDestination("alice@gpu1:2222");
    EXPECT_EQ(d->user, "alice");
    EXPECT_EQ(d->host, "gpu1");
    EXPECT_EQ(d->port, 2222);
    EXPECT_EQ(parseSshDestination("bob@[fe80::1]:2022")->host, "fe80::1");
}

TEST(SshTarget, TheArgumentsEndOptionsBeforeTheDestination)
{
    SshTarget t = benign();
    t.jump = SshDestination{"bob", "gate.example.org", 22};
    t.configFile = "/home/alice/.ssh/lab config";
    t.programOptions = {"-i", "/tmp/key"};
    auto args = sshArguments(t, "srun -N1 shardlab live --stream -");
    ASSERT_TRUE(args) << args.error().message;
    const std::vector<std::string> expected{"-o",
                                            "BatchMode=yes",
                                            "-o",
                                            "ConnectTimeout=20",
                                            "-o",
                                            "ServerAliveInterval=15",
                                            "-T",
                                            "-p",
                                            "2222",
                                            "-J",
                                            "bob@gate.example.org:22",
                                            "-F",
                                            "/home/alice/.ssh/lab config",
                                            "-i",
                                            "/tmp/key",
                                            "--",
                                            "alice@gpu1.example.org",
                                            "srun -N1 shardlab live --stream -"};
    EXPECT_EQ(*args, expected);
    // no user, no port: ssh's own choice
    SshTarget alias;
    alias.destination.host = "lab-gpu";
    args = sshArguments(alias, "shardlab topo --json");
    ASSERT_TRUE(args);
    EXPECT_EQ(args->size(), 10u);
    EXPECT_EQ((*args)[7], "--");
    EXPECT_EQ((*args)[8], "lab-gpu");
    // a port out of range made in code
    alias.destination.port = 70000;
    EXPECT_EQ(sshArguments(alias, "x").error().message, "the port '70000' is not a port (expected 1 to 65535)");
    // a command with spaces at its ends is refused, not trimmed
    EXPECT_EQ(checkRemoteCommand("shardlab live --stream - ").error().message,
              "the remote command 'shardlab live --stream - ' begins or ends with a space");
    EXPECT_EQ(checkRemoteCommand("").error().message, "the remote command is empty");
    EXPECT_EQ(checkRemoteCommand(std::string(5000, 'a')).error().message,
              "the remote command is 5000 bytes long (expected at most 4096)");
}

TEST(SshTarget, PathsAndLaunchersAreQuotedForTheRemoteShell)
{
    EXPECT_EQ(shellQuoted("shardlab"), "shardlab");
    EXPECT_EQ(shellQuoted("/opt/shardlab/bin/shardlab"), "/opt/shardlab/bin/shardlab");
    EXPECT_EQ(shellQuoted("my folder"), "'my folder'");
    EXPECT_EQ(shellQuoted("it's"), "'it'\\''s'");
    EXPECT_EQ(shellQuoted("A=b"), "'A=b'"); // not an assignment
    EXPECT_EQ(shellQuoted("~/bin/shardlab"), "'~/bin/shardlab'");
    EXPECT_EQ(shellQuoted(""), "''");
    auto line = remoteCommandLine({"/opt/x'; touch /tmp/pwned; echo '", "srun -N1  --gpus-per-node=8"},
                                  {"sim", "--stream", "-"});
    ASSERT_TRUE(line) << line.error().message;
    EXPECT_EQ(*line, "srun -N1 '--gpus-per-node=8' '/opt/x'\\''; touch /tmp/pwned; echo '\\''' sim --stream -");
}

// The real shell reads each hostile word back as one word, unchanged: nothing runs.
TEST(SshTarget, TheShellReadsEveryQuotedWordBackAsItWas)
{
    const std::vector<std::string> words = {"a'b",
                                            "$(touch /tmp/shardlab-pwned)",
                                            "`id`",
                                            "a;b",
                                            "a|b",
                                            "a&&b",
                                            "a b",
                                            "*",
                                            "~",
                                            "$HOME",
                                            "\"q\"",
                                            "a\\b",
                                            "!x",
                                            "#c",
                                            "{a,b}",
                                            "中文/路径",
                                            "it's a 'test'",
                                            "x>y",
                                            "-E"};
    auto line = remoteCommandLine({"printf", ""}, [&] {
        std::vector<std::string> args{"[%s]\\n"};
        args.insert(args.end(), words.begin(), words.end());
        return args;
    }());
    ASSERT_TRUE(line) << line.error().message;
    std::string expected;
    for (const std::string& w : words)
        expected += "[" + w + "]\n";
    EXPECT_EQ(shellWords(*line), expected);
    // a launcher's words are words too: `env` runs printf with them
    line = remoteCommandLine({"[%s]\\n", "env printf"}, {"$(id)", "a;b"});
    ASSERT_TRUE(line);
    EXPECT_EQ(shellWords(*line), "[$(id)]\n[a;b]\n");
}
