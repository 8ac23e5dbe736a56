// Issue 25's wrong answers with exit status 0, at the command line: the scenario files
// (tests/cli/hostile/) are refused with exit status 2 and a message that names what is wrong, in
// English and in Chinese; what the CLI prints from a user's names never reaches the terminal as a
// control (terminal_text.h).
#include "cli_test_helpers.h"
#include "terminal_text.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace shardlab::cli;

using shardlab::test::CliRun;
using shardlab::test::runCommand;

namespace {

std::string hostile(const char* name)
{
    return std::string(SHARDLAB_SCENARIO_DIR) + "/../../tests/cli/hostile/" + name;
}

// Refused with exit status 2, on standard error only, with `english` in English and something else in Chinese.
std::string refusedInBothLanguages(std::vector<std::string> args, const std::string& english)
{
    SCOPED_TRACE(args.front() + " " + args.back());
    args.push_back("--lang");
    args.push_back("en");
    const CliRun en = runCommand(args);
    EXPECT_EQ(en.status, kExitBadInput) << en.out << en.err;
    EXPECT_EQ(en.out, "");
    EXPECT_NE(en.err.find(english), std::string::npos) << en.err;
    args.back() = "zh";
    const CliRun zh = runCommand(args);
    EXPECT_EQ(zh.status, kExitBadInput) << zh.out << zh.err;
    EXPECT_EQ(zh.err.find(english), std::string::npos) << zh.err;
    EXPECT_EQ(zh.err.find("[error."), std::string::npos) << zh.err;
    EXPECT_EQ(zh.err.find("[cli."), std::string::npos) << zh.err;
    return zh.err;
}

} // namespace

TEST(CliNumbers, GpusOnNode1WithTheirSwitchOnNode0AreRefusedNotPricedAtZero)
{
    for (const char* command : {"sim", "diagnose"}) {
        const std::string zh =
            refusedInBothLanguages({command, hostile("gpus-on-node-1-switch-on-node-0.shardlab.json")},
                                   "$.topology.links[0]: joins GPU 'gpu0' of node 1 to switch 'pcie0' of node 0");
        EXPECT_NE(zh.find("gpu0"), std::string::npos) << zh;
        EXPECT_NE(zh.find("pcie0"), std::string::npos) << zh;
    }
}

TEST(CliNumbers, ANetworkSwitchOnANodeThatDoesNotExistIsRefused)
{
    for (const char* command : {"sim", "diagnose"})
        refusedInBothLanguages({command, hostile("network-switch-on-node-5.shardlab.json")},
                               "$.topology.switches[2].node: switch 'net0' is on node 5, which has no GPU");
}

TEST(CliNumbers, ALinkOf1eMinus305GBpsIsRefusedWithItsRange)
{
    refusedInBothLanguages(
        {"sim", hostile("link-bandwidth-1e-305.shardlab.json")},
        "$.topology.links[0].bandwidth: out of range (expected a bandwidth per direction: GB/s as a number, "
        "or a string such as \"25 GB/s\" or \"400 Gb/s\", from 1 MB/s to 100 TB/s)");
}

TEST(CliNumbers, AKeyGivenTwiceAndADelayOnAMissingIterationAreRefusedNamingThePath)
{
    refusedInBothLanguages({"sim", hostile("gpu-memory-given-twice.shardlab.json")},
                           "$.topology.gpus[2].memory: given twice");
    refusedInBothLanguages({"sim", hostile("delay-on-iteration-5-of-3.shardlab.json")},
                           "$.perturbations.delays[0].iteration: 5 is not an iteration of the scenario, which runs 3 "
                           "(expected 0..2, or -1 for every iteration)");
}

TEST(CliNumbers, CompareRefusesFewerBytesThanRanks)
{
    refusedInBothLanguages(
        {"compare", "--gpus", "3", "--preset", "h200-nvswitch-8", "--bytes", "1"},
        "--bytes: 1 B is fewer bytes than the 3 ranks, so reduce-scatter would leave some ranks a slice "
        "of 0 B (expected at least 3 B: one byte per rank)");
    // one byte per rank compares, and sends no "0 B"
    const CliRun ok =
        runCommand({"compare", "--gpus", "3", "--preset", "h200-nvswitch-8", "--bytes", "3", "--lang", "en"});
    EXPECT_EQ(ok.status, kExitOk) << ok.err;
    EXPECT_EQ(ok.out.find(" 0 B"), std::string::npos) << ok.out;
}

TEST(CliNumbers, ANonFiniteAnswerIsRefusedAsNotAFiniteNumberNotAsMissing)
{
    for (const char* answer : {"-inf", "-Infinity", "inf", "nan", "-nan"}) {
        const CliRun r = runCommand({"lessons", "check", "speedup-1-6x", answer, "--lang", "en"});
        EXPECT_EQ(r.status, kExitBadInput) << answer << ": " << r.out << r.err;
        EXPECT_NE(r.err.find(std::string("'") + answer + "' is not a finite number (expected a number"),
                  std::string::npos)
            << answer << ": " << r.err;
        EXPECT_EQ(r.err.find("required"), std::string::npos) << r.err;
    }
    // after the answer an option still reads as one
    const CliRun q = runCommand({"lessons", "check", "speedup-1-6x", "-inf", "-q", "1", "--lang", "zh"});
    EXPECT_EQ(q.status, kExitBadInput) << q.err;
    EXPECT_NE(q.err.find("不是有限的数"), std::string::npos) << q.err;
}

TEST(CliNumbers, BidiAndC1ControlsInNamesReachTheTerminalEscaped)
{
    const CliRun r = runCommand({"sim", hostile("rtl-override-in-names.shardlab.json"), "--lang", "en"});
    ASSERT_EQ(r.status, kExitOk) << r.err;
    EXPECT_EQ(r.out.find("\xe2\x80\xae"), std::string::npos); // U+202E never raw
    EXPECT_EQ(r.out.find("\xc2\x85"), std::string::npos);     // nor U+0085
    EXPECT_NE(r.out.find("evil \\u202egnp.exe\\u202c and \\u0085"), std::string::npos) << r.out;
    // a character cut between two writes is escaped all the same, and other UTF-8 passes
    std::ostringstream target;
    {
        EscapedStream out(target);
        out << "a\xe2" << std::flush;
        out << "\x80";
        out << "\xae"
            << "b \xe4\xb8\x80 \xe2\x81\xa7 \x1b \x9b"
               "1m";
    }
    EXPECT_EQ(target.str(), "a\\u202eb \xe4\xb8\x80 \\u2067 \\x1b \\x9b1m");
}
