// RunResult serialisation (run_result_io.h) and result files (result_file.h): lossless round
// trips, and bad input named by its JSON path.
#include "../rank_parts.h"
#include "../test_helpers.h"

#include "shardlab/io/result_file.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace shardlab;

namespace {

// Field-by-field equality, NaN equal to NaN (arrivals a process did not see).
void expectIdentical(const RunResult& a, const RunResult& b)
{
    EXPECT_EQ(a.mode, b.mode);
    EXPECT_EQ(a.ranks, b.ranks);
    EXPECT_EQ(a.devices, b.devices);
    EXPECT_EQ(english(a.clockNote), english(b.clockNote));
    EXPECT_EQ(a.clockNote.id, b.clockNote.id);
    ASSERT_EQ(a.spans.size(), b.spans.size());
    for (size_t i = 0; i < a.spans.size(); ++i) {
        const Span &x = a.spans[i], &y = b.spans[i];
        EXPECT_TRUE(x.rank == y.rank && x.stream == y.stream && x.kind == y.kind && x.beginUs == y.beginUs
                    && x.endUs == y.endUs && x.op == y.op && x.iteration == y.iteration && x.bucket == y.bucket
                    && x.collective == y.collective && x.waitedFor == y.waitedFor && x.detail == y.detail)
            << "span " << i;
    }
    ASSERT_EQ(a.collectives.size(), b.collectives.size());
    for (size_t i = 0; i < a.collectives.size(); ++i) {
        const CollectiveRecord &x = a.collectives[i], &y = b.collectives[i];
        EXPECT_TRUE(x.op == y.op && x.iteration == y.iteration && x.bucket == y.bucket && x.sequence == y.sequence
                    && x.kind == y.kind && x.bytes == y.bytes && x.group == y.group && x.startUs == y.startUs
                    && x.endUs == y.endUs && x.lastArrival == y.lastArrival && x.algorithm == y.algorithm
                    && x.protocol == y.protocol && x.wrongElements == y.wrongElements)
            << "collective " << i;
        ASSERT_EQ(x.arrivalUs.size(), y.arrivalUs.size());
        for (size_t k = 0; k < x.arrivalUs.size(); ++k)
            EXPECT_TRUE(x.arrivalUs[k] == y.arrivalUs[k] || (std::isnan(x.arrivalUs[k]) && std::isnan(y.arrivalUs[k])));
    }
    ASSERT_EQ(a.iterations.size(), b.iterations.size());
    for (size_t i = 0; i < a.iterations.size(); ++i)
        EXPECT_TRUE(a.iterations[i].beginUs == b.iterations[i].beginUs
                    && a.iterations[i].endUs == b.iterations[i].endUs);
    EXPECT_EQ(a.peakMemory, b.peakMemory);
    EXPECT_EQ(a.pagingUs, b.pagingUs);
    ASSERT_EQ(a.hang.has_value(), b.hang.has_value());
    if (a.hang) {
        EXPECT_EQ(a.hang->lastCompleted, b.hang->lastCompleted);
        EXPECT_EQ(a.hang->pending, b.hang->pending);
        EXPECT_EQ(a.hang->firstMismatchRank, b.hang->firstMismatchRank);
        EXPECT_EQ(a.hang->explanation, b.hang->explanation);
    }
}

RunResult sample()
{
    auto run = simulate(test::loadExample("default.shardlab.json"));
    EXPECT_TRUE(run.ok());
    RunResult r = *run;
    r.mode = RunMode::Live;
    r.clockNote = verbatim("aligned; error <= 1.5 us");
    // awkward doubles survive exactly
    r.spans.front().beginUs = 0.1 + 0.2;
    r.spans.front().endUs = 1e9 + 1.0 / 3.0;
    r.collectives.front().wrongElements = 3;
    r.spans.back().detail = SpanDetail::InjectedDelay;
    HangReport h;
    h.lastCompleted = {4, 3, 4, 4};
    h.pending = {"a", "b \"quoted\"", "c", "d"};
    h.firstMismatchRank = 1;
    h.explanation = "rank 1 is behind";
    r.hang = h;
    return r;
}

std::string tempPath(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

} // namespace

TEST(RunResultIo, JsonRoundTripIsLossless)
{
    const RunResult r = sample();
    auto back = parseRunResult(serializeRunResult(r));
    ASSERT_TRUE(back.ok()) << back.error().message;
    expectIdentical(r, *back);
}

TEST(RunResultIo, BinaryRoundTripKeepsUnseenArrivals)
{
    // A rank part: arrivals of the other members are NaN.
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    const RunResult part = test::partOf(*simulate(s), 2, 123.456).run;
    ASSERT_TRUE(std::isnan(part.collectives.front().arrivalUs.front()));
    const Bytes8 bytes = encodeRunResult(part);
    auto back = decodeRunResult(bytes);
    ASSERT_TRUE(back.ok()) << back.error().message;
    expectIdentical(part, *back);
    // and as text, where they are null
    auto text = parseRunResult(serializeRunResult(part));
    ASSERT_TRUE(text.ok());
    expectIdentical(part, *text);
    EXPECT_NE(serializeRunResult(part).find("null"), std::string::npos);
}

TEST(RunResultIo, BadInputIsNamedByPath)
{
    nlohmann::json doc = nlohmann::json::parse(serializeRunResult(sample()));
    doc["spans"][2][3] = "soon";
    auto r = parseRunResult(doc.dump(), "x.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "x.json: $.spans[2][3]: found a string (expected a number)");
    doc = nlohmann::json::parse(serializeRunResult(sample()));
    doc["collectives"][0]["kind"] = "compute";
    r = parseRunResult(doc.dump(), "x.json");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("$.collectives[0].kind: 'compute'"), std::string::npos) << r.error().message;
    doc = nlohmann::json::parse(serializeRunResult(sample()));
    doc.erase("iterations");
    r = parseRunResult(doc.dump(), "x.json");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("$.iterations: missing"), std::string::npos) << r.error().message;
    EXPECT_FALSE(parseRunResult("{", "x.json").ok());
    EXPECT_FALSE(decodeRunResult(Bytes8{1, 2, 3}).ok());
    EXPECT_FALSE(decodeRunResult(Bytes8{}).ok());
}

TEST(RunResultIo, RunMustFitTheScenario)
{
    const Scenario s = test::loadExample("default.shardlab.json");
    RunResult r = *simulate(s);
    EXPECT_TRUE(checkRunAgainstScenario(r, s).ok());
    RunResult badOp = r;
    badOp.spans[0].op = 99;
    EXPECT_NE(checkRunAgainstScenario(badOp, s).error().message.find("spans[0]: step 99"), std::string::npos);
    RunResult badColl = r;
    badColl.spans[0].collective = static_cast<int>(r.collectives.size());
    EXPECT_FALSE(checkRunAgainstScenario(badColl, s).ok());
    RunResult badGroup = r;
    badGroup.collectives[0].arrivalUs.pop_back();
    EXPECT_FALSE(checkRunAgainstScenario(badGroup, s).ok());
    RunResult badRanks = r;
    badRanks.ranks = 5;
    EXPECT_FALSE(checkRunAgainstScenario(badRanks, s).ok());
}

TEST(ResultFile, SaveAndLoad)
{
    ResultFile f;
    f.scenario = test::loadExample("default.shardlab.json");
    f.run = sample();
    f.run.hang.reset();
    f.createdBy = "ShardLab test";
    f.launch = "Open MPI (mpirun), 4 processes on 2 hosts";
    f.machine = f.scenario.topology;
    const std::string path = tempPath("shardlab-test.shardlab-result.json");
    ASSERT_TRUE(saveResult(f, path).ok());
    auto back = loadResult(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->scenario, f.scenario);
    EXPECT_EQ(back->createdBy, f.createdBy);
    EXPECT_EQ(back->launch, f.launch);
    ASSERT_TRUE(back->machine.has_value());
    EXPECT_EQ(*back->machine, *f.machine);
    expectIdentical(back->run, f.run);
    const auto doc = nlohmann::json::parse(serializeResult(f));
    EXPECT_EQ(doc["shardlab_result"], 1);
    EXPECT_EQ(doc["mode"], "live");
    EXPECT_EQ(doc["clock"], "aligned; error <= 1.5 us");
    std::filesystem::remove(path);
}

TEST(ResultFile, AnIncompleteMachineIsLeftOut)
{
    ResultFile f;
    f.scenario = test::loadExample("default.shardlab.json");
    f.run = *simulate(f.scenario);
    Topology m = f.scenario.topology;
    m.gpus[0].tflops = 0; // unknown without NVML: not reloadable, so not written
    f.machine = m;
    auto back = parseResult(serializeResult(f));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_FALSE(back->machine.has_value());
}

TEST(ResultFile, BadFilesAreExplained)
{
    ResultFile f;
    f.scenario = test::loadExample("default.shardlab.json");
    f.run = *simulate(f.scenario);
    auto doc = nlohmann::json::parse(serializeResult(f));
    auto expectError = [](const nlohmann::json& d, const std::string& part) {
        auto r = parseResult(d.dump(), "r.json");
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
    };
    auto d = doc;
    d["shardlab_result"] = 2;
    expectError(d, "format version 2");
    d = doc;
    d["mode"] = "live";
    expectError(d, "$.mode");
    d = doc;
    d["run"]["spans"][0][5] = 42; // a step the scenario does not have
    expectError(d, "$.run: spans[0]: step 42");
    d = doc;
    d["scenario"]["topology"] = {{"preset", "nope"}};
    expectError(d, "$.topology.preset");
    EXPECT_FALSE(loadResult(tempPath("shardlab-no-such-result.json")).ok());
}
