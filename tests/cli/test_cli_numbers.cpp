// Issue 25's wrong answers with exit status 0, at the command line: the scenario files
// (tests/cli/hostile/) are refused with exit status 2 and a message that names what is wrong, in
// English and in Chinese; what the CLI prints from a user's names never reaches the terminal as a
// control (terminal_text.h).

#include <gtest/gtest.h>

#include <sstream>

using namespace shardlab::cli;

using shardlab::test::CliRun;
using shardlab::test::runCommand;

namespace {

std::string hostile(const char* name) { return std::string(SHARDLAB_SCENARIO_DIR) + "/../../tests/cli/hostile/" + name; }

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
        const std::string zh = refusedInBothLanguages({command, hostile("gpus-on-node-1-switch-on-node-0.shardlab.json")},
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
    refusedInBothLanguages({"sim", hostile("link-bandwidth-1e-305.shardlab.json")},
                           "$.topology.links[0].bandwidth: out of range (expected a bandwidth per direction: GB/s as a number, "
                           "or a string such as \"25 GB/s\" or \"400 Gb/s\", from 1 MB/s to 100 TB/s)");
}

TEST(CliNumbers, AKeyGivenTwiceAndADelayOnAMissingIterationAreRefusedNamingThePath)
{
    refusedInBothLanguages({"sim", hostile("gpu-memory-given-twice.shardlab.json")}, "$.topology.gpus[2].memory: given twice");
    refusedInBothLanguages({"sim", hostile("delay-on-iteration-5-of-3.shardlab.json")},
                           "$.perturbations.delays[0].iteration: 5 is not an iteration of the scenario, which runs 3 "
                           "(expected 0..2, or -1 for every iteration)");
}

TEST(CliNumbers, CompareRefusesFewerBytesThanRanks)
{
    refusedInBothLanguages({"compare", "--gpus", "3", "--preset", "h200-nvswitch-8", "--bytes", "1"},
                           "--bytes: 1 B is fewer bytes than the 3 ranks, so reduce-scatter would leave some ranks a slice "
                           "of 0 B (expected at least 3 B: one byte per rank)");
    // one byte per rank compares, and sends no "0 B"
    const CliRun ok = runCommand({"compare", "--gpus", "3", "--preset", "h200-nvswitch-8", "--bytes", "3", "--lang", "en"});
    EXPECT_EQ(ok.status, kExitOk) << ok.err;
    EXPECT_EQ(ok.out.find(" 0 B"), std::string::npos) << ok.out;
}

