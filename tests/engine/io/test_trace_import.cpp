// Reading back the Chrome traces that chromeTrace() writes (trace_import.h): a round trip gives the
// same scenario and run (times to the nanosecond the trace prints), a trace without ShardLab's
// block is rebuilt against a scenario, and bad traces are named by file and JSON path.
#include "../test_helpers.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/file_kind.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace shardlab;
using namespace shardlab::test;

namespace {

constexpr double kPrinted = 1.5e-3; // the trace prints ts and dur to 1 ns; an end is ts + dur

void expectSameSpans(const RunResult& a, const RunResult& b)
{
    ASSERT_EQ(a.spans.size(), b.spans.size());
    for (size_t i = 0; i < a.spans.size(); ++i) {
        const Span &x = a.spans[i], &y = b.spans[i];
        EXPECT_TRUE(x.rank == y.rank && x.stream == y.stream && x.kind == y.kind && x.op == y.op
                    && x.iteration == y.iteration && x.bucket == y.bucket && x.collective == y.collective
                    && x.waitedFor == y.waitedFor && x.detail == y.detail)
            << "span " << i;
        EXPECT_NEAR(x.beginUs, y.beginUs, kPrinted) << "span " << i;
        EXPECT_NEAR(x.endUs, y.endUs, kPrinted) << "span " << i;
    }
}

// The straggler example with bucketed all-reduces and an injected delay: every span field is used.
Scenario richScenario()
{
    Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    for (Op& op : s.program)
        if (op.kind != OpKind::Compute)
            op.buckets = 4;
    s.perturbations.delays.push_back({2, 0, 1, 3.5});
    return s;
}

std::string withoutShardLabBlock(const std::string& trace)
{
    auto doc = nlohmann::json::parse(trace);
    doc["otherData"].erase("shardlab");
    return doc.dump();
}

std::filesystem::path tempFile(const std::string& name)
{
    return std::filesystem::temp_directory_path() / ("shardlab-test-trace-import-" + name);
}

} // namespace

TEST(TraceImport, RoundTripGivesTheSameScenarioAndRun)
{
    const Scenario s = richScenario();
    const RunResult run = simulated(s);
    auto back = parseChromeTrace(chromeTrace(s, run), "t.json");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_TRUE(back->scenarioFromTrace);
    EXPECT_EQ(back->scenario, s);
    const RunResult& r = back->run;
    EXPECT_EQ(r.mode, run.mode);
    EXPECT_EQ(r.ranks, run.ranks);
    EXPECT_EQ(r.devices, run.devices);
    EXPECT_EQ(english(r.clockNote), english(run.clockNote));
    expectSameSpans(run, r);
    bool sawBucket = false, sawDelay = false;
    for (const Span& sp : r.spans) {
        sawBucket = sawBucket || sp.bucket == 3;
        sawDelay = sawDelay || sp.detail == SpanDetail::InjectedDelay;
    }
    EXPECT_TRUE(sawBucket);
    EXPECT_TRUE(sawDelay);
    // the records other than spans are carried exactly
    ASSERT_EQ(r.collectives.size(), run.collectives.size());
    for (size_t i = 0; i < r.collectives.size(); ++i) {
        const CollectiveRecord &x = run.collectives[i], &y = r.collectives[i];
        EXPECT_TRUE(x.op == y.op && x.sequence == y.sequence && x.kind == y.kind && x.bytes == y.bytes
                    && x.group == y.group && x.arrivalUs == y.arrivalUs && x.startUs == y.startUs && x.endUs == y.endUs
                    && x.lastArrival == y.lastArrival && x.algorithm == y.algorithm && x.protocol == y.protocol)
            << "collective " << i;
    }
    EXPECT_EQ(r.peakMemory, run.peakMemory);
    ASSERT_EQ(r.iterations.size(), run.iterations.size());
    EXPECT_EQ(r.iterations.back().endUs, run.iterations.back().endUs);
    // and the figures users see are the same
    const Summary a = summarize(s, run), b = summarize(back->scenario, r);
    EXPECT_NEAR(a.stepTimeMs, b.stepTimeMs, 1e-6);
    EXPECT_EQ(a.straggler, b.straggler);
    EXPECT_EQ(a.sentence, b.sentence);
}

TEST(TraceImport, AHungRunKeepsItsFlightRecord)
{
    const Scenario s = loadExample("hang-mismatched-collective.shardlab.json");
    RunResult run = simulated(s);
    ASSERT_TRUE(run.hang);
    run.notes.push_back(verbatim("a note with \"quotes\""));
    auto back = parseChromeTrace(chromeTrace(s, run));
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_TRUE(back->run.hang);
    EXPECT_EQ(back->run.hang->lastCompleted, run.hang->lastCompleted);
    EXPECT_EQ(back->run.hang->pending, run.hang->pending);
    EXPECT_EQ(back->run.hang->firstMismatchRank, 2);
    EXPECT_EQ(back->run.hang->explanation, run.hang->explanation);
    EXPECT_EQ(english(back->run.notes), english(run.notes));
}

TEST(TraceImport, ATraceWithoutItsScenarioIsRebuiltAgainstOne)
{
    const Scenario s = richScenario();
    const RunResult run = simulated(s);
    const std::string bare = withoutShardLabBlock(chromeTrace(s, run));

    auto refused = parseChromeTrace(bare, "old.json");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("old.json: $.otherData.shardlab: missing"), std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("open the scenario it was made from"), std::string::npos);

    auto back = parseChromeTrace(bare, "old.json", &s);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_FALSE(back->scenarioFromTrace);
    expectSameSpans(run, back->run);
    EXPECT_EQ(back->run.devices, run.devices);
    ASSERT_EQ(back->run.collectives.size(), run.collectives.size());
    for (size_t i = 0; i < run.collectives.size(); ++i) {
        const CollectiveRecord &x = run.collectives[i], &y = back->run.collectives[i];
        EXPECT_EQ(y.op, x.op);
        EXPECT_EQ(y.iteration, x.iteration);
        EXPECT_EQ(y.bucket, x.bucket);
        EXPECT_EQ(y.sequence, x.sequence);
        EXPECT_EQ(y.kind, x.kind);
        EXPECT_EQ(y.bytes, x.bytes);
        EXPECT_EQ(y.group, x.group);
        EXPECT_EQ(y.lastArrival, x.lastArrival);
        EXPECT_NEAR(y.startUs, x.startUs, kPrinted);
        EXPECT_NEAR(y.endUs, x.endUs, kPrinted);
        ASSERT_EQ(y.arrivalUs.size(), x.arrivalUs.size());
        for (size_t k = 0; k < x.arrivalUs.size(); ++k)
            EXPECT_NEAR(y.arrivalUs[k], x.arrivalUs[k], kPrinted) << "collective " << i << " member " << k;
    }
    ASSERT_FALSE(back->run.notes.empty());
    EXPECT_NE(english(back->run.notes.back()).find("not known"), std::string::npos);
    // the straggler and its waits are the same
    const Summary a = summarize(s, run), b = summarize(s, back->run);
    EXPECT_EQ(a.straggler, b.straggler);
    for (size_t r = 0; r < a.perRank.size(); ++r)
        EXPECT_NEAR(a.perRank[r].waitMs, b.perRank[r].waitMs, 1e-5);
}

TEST(TraceImport, ATraceThatDoesNotFitTheScenarioIsRefused)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    const std::string bare = withoutShardLabBlock(chromeTrace(s, simulated(s)));
    const Scenario two = loadExample("lab-two-gpu-all-reduce.shardlab.json");
    auto r = parseChromeTrace(bare, "x.json", &two);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("the trace has 4 ranks but the open scenario"), std::string::npos)
        << r.error().message;
}

TEST(TraceImport, BadTracesAreNamedByFileAndPath)
{
    auto notJson = parseChromeTrace("{\"traceEvents\": [", "a.json");
    ASSERT_FALSE(notJson.ok());
    EXPECT_EQ(notJson.error().kind, ErrorKind::BadInput);
    EXPECT_NE(notJson.error().message.find("a.json: $: not valid JSON"), std::string::npos);

    auto noEvents = parseChromeTrace("{\"otherData\": {}}", "b.json");
    ASSERT_FALSE(noEvents.ok());
    EXPECT_NE(noEvents.error().message.find("b.json: $.traceEvents: missing"), std::string::npos);

    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto doc = nlohmann::json::parse(chromeTrace(s, simulated(s)));
    size_t x = 0;
    while (doc["traceEvents"][x]["ph"] != "X")
        ++x;
    doc["traceEvents"][x]["ts"] = "soon";
    auto badTs = parseChromeTrace(doc.dump(), "c.json");
    ASSERT_FALSE(badTs.ok());
    EXPECT_NE(badTs.error().message.find("c.json: $.traceEvents[" + std::to_string(x) + "].ts: found a string"),
              std::string::npos)
        << badTs.error().message;

    doc = nlohmann::json::parse(chromeTrace(s, simulated(s)));
    doc["otherData"]["shardlab"]["trace_format"] = 7;
    auto newer = parseChromeTrace(doc.dump(), "d.json");
    ASSERT_FALSE(newer.ok());
    EXPECT_NE(newer.error().message.find("d.json: $.otherData.shardlab.trace_format: version 7"), std::string::npos);

    doc = nlohmann::json::parse(chromeTrace(s, simulated(s)));
    doc["otherData"]["shardlab"]["run"]["collectives"][0]["op"] = 99;
    auto unfit = parseChromeTrace(doc.dump(), "e.json");
    ASSERT_FALSE(unfit.ok());
    EXPECT_NE(unfit.error().message.find("e.json: collectives[0]: step 99"), std::string::npos)
        << unfit.error().message;

    auto missing = loadChromeTrace("/nonexistent/t.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("/nonexistent/t.json: no such file"), std::string::npos);
}

TEST(TraceImport, FileKindsAreToldApart)
{
    EXPECT_EQ(fileKindOf("r.shardlab-result.json", ""), FileKind::Result);
    EXPECT_EQ(fileKindOf("s.shardlab.json", "{}"), FileKind::Scenario);
    EXPECT_EQ(fileKindOf("t.json", "  {\"displayTimeUnit\":\"ms\",\"otherData\":{\"shardlab\":1}"), FileKind::Trace);
    EXPECT_EQ(fileKindOf("t.json", "{\"traceEvents\": []}"), FileKind::Trace);
    EXPECT_EQ(fileKindOf("r.json", "{\n \"clock\": \"\",\n \"created_by\": \"x\",\n \"launch\": \"y\""),
              FileKind::Result);
    EXPECT_EQ(fileKindOf("s.json", "{ \"shardlab\": 1, \"name\": \"x\" }"), FileKind::Scenario);
    EXPECT_EQ(fileKindOf("n.json", "{ \"hello\": 1 }"), FileKind::Unknown);

    // and the files ShardLab writes, under names that do not say what they are
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    const RunResult run = simulated(s);
    const auto trace = tempFile("trace.json"), result = tempFile("result.json"), scenario = tempFile("scenario.json");
    std::ofstream(trace) << chromeTrace(s, run);
    ResultFile rf;
    rf.scenario = s;
    rf.run = run;
    rf.createdBy = "test";
    rf.launch = "simulation";
    ASSERT_TRUE(saveResult(rf, result).ok());
    ASSERT_TRUE(saveScenario(s, scenario).ok());
    EXPECT_EQ(fileKindOf(trace), FileKind::Trace);
    EXPECT_EQ(fileKindOf(result), FileKind::Result);
    EXPECT_EQ(fileKindOf(scenario), FileKind::Scenario);
    auto loaded = loadChromeTrace(trace);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->scenario, s);
    for (const auto& p : {trace, result, scenario})
        std::filesystem::remove(p);
}
