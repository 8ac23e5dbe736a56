// `shardlab sim FILE --stream` and FILE `-`, `topo --json`: the stream the app reads is the run
// `shardlab sim` makes, a bad scenario arrives as an error line with exit status 2, and --stream
// refuses --json (both would be standard output).
#include "cli_test_helpers.h"

#include "shardlab/base/file_io.h"
#include "shardlab/base/version.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

using namespace shardlab;
using namespace shardlab::cli;
using shardlab::test::CliRun;
using shardlab::test::runCommand;
using shardlab::test::scenario;

namespace {
// Runs with `input` as standard input, restored afterwards.
CliRun runWithInput(std::vector<std::string> args, const std::string& input)
{
    std::istringstream in(input);
    setScenarioInput(in);
    CliRun r = runCommand(std::move(args));
    setScenarioInput(std::cin);
    return r;
}
} // namespace

TEST(CliStream, SimStreamIsTheRunSimMakes)
{
    const CliRun r = runCommand({"sim", scenario("straggler-12-6-4-2.shardlab.json"), "--stream"});
    ASSERT_EQ(r.status, kExitOk) << r.err;
    auto read = readRunStream(r.out);
    ASSERT_TRUE(read) << read.error().message;
    auto s = loadScenario(scenario("straggler-12-6-4-2.shardlab.json"));
    ASSERT_TRUE(s);
    auto local = simulate(*s);
    ASSERT_TRUE(local);
    EXPECT_EQ(serializeRunResult(*read), serializeRunResult(*local));
}

TEST(CliStream, TheScenarioCanComeFromStandardInput)
{
    auto text = readUserFile(scenario("default.shardlab.json"), verbatim("a scenario"), kMaxRunFileBytes);
    ASSERT_TRUE(text);
    const CliRun r = runWithInput({"sim", "--stream", "-", "--iterations", "3"}, *text);
    ASSERT_EQ(r.status, kExitOk) << r.err;
    StreamHeader header;
    auto read = readRunStream(r.out, "<cli>", &header);
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_EQ(read->iterations.size(), 3u);
    EXPECT_EQ(header.scenario.iterations, 3);
}

TEST(CliStream, ABadScenarioIsAnErrorLineAndExitTwo)
{
    const CliRun r = runWithInput({"sim", "--stream", "-"}, "{\"shardlab\": 1, \"name\": 5}");
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("<standard input>"), std::string::npos) << r.err;
    auto read = readRunStream(r.out);
    ASSERT_FALSE(read);
    // no header was written before the scenario was read: the error is the only line
    EXPECT_NE(r.out.find("\"type\":\"error\""), std::string::npos) << r.out;
}

TEST(CliStream, StreamAndJsonAreRefusedTogether)
{
    const CliRun r = runCommand({"sim", scenario("default.shardlab.json"), "--stream", "--json"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("--stream"), std::string::npos) << r.err;
}

TEST(CliStream, TopoJsonNamesVersionsAndTheTopology)
{
    const CliRun r = runCommand({"topo", "--preset", "h200-nv18-4", "--json"});
    ASSERT_EQ(r.status, kExitOk) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("shardlab_version"), kVersion);
    EXPECT_EQ(doc.at("stream_format"), kStreamFormatVersion);
    EXPECT_EQ(doc.at("topology").at("gpus").size(), 4u);
    EXPECT_TRUE(doc.at("error").is_null());
}
