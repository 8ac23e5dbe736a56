#include "../../common/full_disk.h"
#include "../test_helpers.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/base/file_io.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/run_result_json.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace shardlab;
using namespace shardlab::test;

TEST(Exporters, JsonSummaryHasThePromisedKeys)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    const auto doc = nlohmann::json::parse(summaryJson(summarize(s, *run)));
    for (const char* k : {"mode", "ranks", "step_time_ms", "speedup", "efficiency", "straggler_rank", "bottleneck",
                          "fits", "per_rank", "collectives"})
        EXPECT_TRUE(doc.contains(k)) << k;
    EXPECT_EQ(doc["mode"], "sim");
    EXPECT_EQ(doc["straggler_rank"], 0);
    EXPECT_EQ(doc["bottleneck"], "wait");
    ASSERT_EQ(doc["per_rank"].size(), 4u);
    for (const char* k :
         {"rank", "device", "compute_ms", "comm_ms", "wait_ms", "peak_memory_bytes", "capacity_bytes", "fits"})
        EXPECT_TRUE(doc["per_rank"][1].contains(k)) << k;
    for (const char* k : {"name", "bytes", "time_ms", "algbw_gbps", "busbw_gbps"})
        EXPECT_TRUE(doc["collectives"][0].contains(k)) << k;
    EXPECT_NEAR(doc["per_rank"][3]["wait_ms"].get<double>(), 100.0, 1e-6);
}

TEST(Exporters, ChromeTraceHasAProcessPerRankAndFlowsPerCollective)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    const auto doc = nlohmann::json::parse(chromeTrace(s, *run));
    ASSERT_TRUE(doc.contains("traceEvents"));
    std::set<int> pids;
    int flowsStart = 0, flowsEnd = 0, waits = 0;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "X") {
            pids.insert(e["pid"].get<int>());
            if (e["cat"] == "wait")
                ++waits;
        }
        flowsStart += e["ph"] == "s";
        flowsEnd += e["ph"] == "f";
    }
    EXPECT_EQ(pids, (std::set<int>{0, 1, 2, 3}));
    EXPECT_EQ(flowsStart, 3); // one all-reduce per iteration
    EXPECT_EQ(flowsEnd, 3);
    EXPECT_EQ(waits, 9); // ranks 1..3 wait once per iteration
}

TEST(Exporters, CsvTablesHaveAHeaderAndARowEach)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    const Summary sum = summarize(s, *run);
    const std::string ranks = perRankCsv(sum);
    EXPECT_EQ(std::count(ranks.begin(), ranks.end(), '\n'), 5);
    EXPECT_EQ(ranks.rfind("rank,device,compute_ms", 0), 0u);
    const std::string spans = spansCsv(s, *run);
    EXPECT_EQ(static_cast<size_t>(std::count(spans.begin(), spans.end(), '\n')), run->spans.size() + 1);
}

TEST(Exporters, TableNamesTheStraggler)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    const std::string table = formatSummaryTable(s, summarize(s, *run));
    EXPECT_NE(table.find("<- straggler"), std::string::npos);
    EXPECT_NE(table.find("bottleneck wait"), std::string::npos);
}

// Issue 14: no speed-up figure where it means nothing, and the reason instead.
TEST(Exporters, NoSpeedupWithoutComputeOnOneGpuAndForAHang)
{
    // no compute: nothing to speed up
    Scenario s = splitScenario({4, 4}, 1e12, 1'000'000);
    s.program.erase(s.program.begin());
    auto run = simulate(s);
    ASSERT_TRUE(run);
    Summary sum = summarize(s, *run);
    EXPECT_FALSE(sum.hasSpeedup);
    EXPECT_NE(sum.speedupNote.find("no compute"), std::string::npos) << sum.speedupNote;
    std::string table = formatSummaryTable(s, sum);
    EXPECT_EQ(table.find("0.00x"), std::string::npos) << table;
    EXPECT_NE(table.find("speed-up - | efficiency -"), std::string::npos) << table;
    EXPECT_NE(table.find("No speed-up: the program has no compute"), std::string::npos) << table;
    auto doc = nlohmann::json::parse(summaryJson(sum));
    EXPECT_TRUE(doc["speedup"].is_null());
    EXPECT_TRUE(doc["efficiency"].is_null());
    EXPECT_FALSE(doc["hung"].get<bool>());

    // one GPU: nothing to compare with
    s = splitScenario({4}, 1e12, 1'000'000);
    run = simulate(s);
    ASSERT_TRUE(run);
    sum = summarize(s, *run);
    EXPECT_FALSE(sum.hasSpeedup);
    EXPECT_EQ(formatSummaryTable(s, sum).find("0.64x"), std::string::npos);

    // a hang: "hung": true, the hang report, bottleneck "hang", no speed-up
    s = splitScenario({6, 6}, 1.2e12, 1'000'000);
    s.iterations = 3;
    s.perturbations.mismatches = {{Mismatch::Type::WrongOp, 1, 1, 2, OpKind::AllGather, 0}};
    run = simulate(s);
    ASSERT_TRUE(run && run->hang);
    sum = summarize(s, *run);
    doc = nlohmann::json::parse(summaryJson(sum));
    EXPECT_TRUE(doc["hung"].get<bool>());
    EXPECT_EQ(doc["bottleneck"], "hang");
    EXPECT_TRUE(doc["speedup"].is_null());
    EXPECT_EQ(doc["hang"]["first_mismatch_rank"], 1);
    ASSERT_EQ(doc["hang"]["ranks"].size(), 2u);
    EXPECT_EQ(doc["hang"]["ranks"][0]["last_completed"], 1); // iterations 0 and 1 completed their all-reduce
}

TEST(Exporters, ComputeOverAnItemNobodyOwnsHasNoSpeedup)
{
    Scenario s = splitScenario({4, 4, 4, 4}, 1e12, 1'000'000);
    for (Shard& sh : s.workload.items[0].shards)
        sh.owners.clear();
    auto run = simulate(s);
    ASSERT_TRUE(run);
    const Summary sum = summarize(s, *run);
    EXPECT_FALSE(sum.hasSpeedup);
    EXPECT_LE(sum.efficiency, 1.0);
    EXPECT_NE(sum.speedupNote.find("compute step 'work' runs over 'data', which no rank owns"), std::string::npos)
        << sum.speedupNote;
    EXPECT_EQ(formatSummaryTable(s, sum).find("400%"), std::string::npos);
}

// Issue 14: the trace is streamed to its file event by event, and a long run's trace holds its
// first iterations.
namespace {

nlohmann::json recordsWithoutSpans(const RunResult& run)
{
    nlohmann::json j = detail::runResultToJson(run);
    j.erase("spans");
    return j;
}

} // namespace

TEST(Exporters, AStreamedTraceIsTheTraceAndCarriesEveryRecord)
{
    for (const char* file : {"straggler-12-6-4-2.shardlab.json", "hang-mismatched-collective.shardlab.json",
                             "default.shardlab.json", "oversubscription-unified-24gb.shardlab.json"}) {
        Scenario s = loadExample(file);
        s.iterations = std::min(s.iterations, 3);
        SimulationOptions o;
        o.watchdogMs = 100;
        auto run = simulate(s, o);
        ASSERT_TRUE(run.ok()) << file;
        const auto path = std::filesystem::temp_directory_path() / "shardlab-streamed-trace.json";
        ASSERT_TRUE(
            writeFileAtomicallyWith(path, [&](std::ostream& out) { return writeChromeTrace(out, s, *run); }).ok());
        const std::string text = fs_test::fileText(path);
        std::filesystem::remove(path);
        EXPECT_EQ(text, chromeTrace(s, *run)) << file;
        const auto doc = nlohmann::json::parse(text);
        EXPECT_EQ(doc["otherData"]["shardlab"]["run"], recordsWithoutSpans(*run)) << file;
        EXPECT_FALSE(doc["otherData"]["shardlab"].contains("trace_iterations"));
        size_t spans = 0, flows = 0;
        for (const auto& e : doc["traceEvents"]) {
            spans += e["ph"] == "X";
            flows += e["ph"] == "s" || e["ph"] == "t" || e["ph"] == "f";
        }
        EXPECT_EQ(spans, run->spans.size()) << file;
        size_t expectedFlows = 0;
        for (const CollectiveRecord& c : run->collectives)
            expectedFlows += c.group.size() >= 2 && c.durationUs() > 0 ? c.group.size() : 0;
        EXPECT_EQ(flows, expectedFlows) << file;
        // and reads back as the run it was
        auto back = parseChromeTrace(text);
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(back->run.collectives.size(), run->collectives.size());
    }
}

TEST(Exporters, APartialTraceHoldsExactlyTheFirstIterations)
{
    Scenario s = loadExample("default.shardlab.json");
    s.iterations = 5;
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    TraceOptions o;
    o.iterations = 2;
    const std::string text = chromeTrace(s, *run, o);
    const auto doc = nlohmann::json::parse(text);
    const auto& block = doc["otherData"]["shardlab"];
    EXPECT_EQ(block["trace_iterations"], (nlohmann::json{{"held", 2}, {"of", 5}}));
    EXPECT_EQ(block["run"]["iterations"].size(), 2u);
    EXPECT_EQ(block["notes"].back(), "this trace holds iterations 1-2 of the run's 5 (shardlab --trace-iterations)");
    std::set<int> iterations;
    size_t spans = 0;
    for (const auto& e : doc["traceEvents"])
        if (e["ph"] == "X") {
            iterations.insert(e["args"]["iteration"].get<int>());
            ++spans;
        }
    EXPECT_EQ(iterations, (std::set<int>{0, 1}));
    size_t expectedSpans = 0, expectedCollectives = 0;
    for (const Span& sp : run->spans)
        expectedSpans += sp.iteration < 2;
    for (const CollectiveRecord& c : run->collectives)
        expectedCollectives += c.iteration < 2;
    EXPECT_EQ(spans, expectedSpans);
    EXPECT_EQ(block["run"]["collectives"].size(), expectedCollectives);
    // It reads back as a run of two iterations whose spans name its own collectives.
    auto back = parseChromeTrace(text);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->run.iterations.size(), 2u);
    EXPECT_EQ(back->run.spans.size(), expectedSpans);
    for (const Span& sp : back->run.spans) {
        if (sp.collective >= 0) {
            EXPECT_EQ(back->run.collectives[static_cast<size_t>(sp.collective)].iteration, sp.iteration);
        }
    }
    // the same figures as the two-iteration run
    Scenario two = s;
    two.iterations = 2;
    auto twoRun = simulate(two);
    ASSERT_TRUE(twoRun.ok());
    EXPECT_NEAR(summarize(back->scenario, back->run).stepTimeMs, summarize(two, *twoRun).stepTimeMs, 1e-6);
    // asking for as many iterations as the run has, or more, is the whole trace
    o.iterations = 5;
    EXPECT_EQ(chromeTrace(s, *run, o), chromeTrace(s, *run));
    o.iterations = 50;
    EXPECT_EQ(chromeTrace(s, *run, o), chromeTrace(s, *run));
}

TEST(Exporters, TheDefaultTraceHoldsTheIterationsThatFitItsEvents)
{
    Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    s.iterations = 10;
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    // per iteration: 4 compute, 3 waits, 4 communication spans and 4 flow points = 15 events
    EXPECT_EQ(traceIterationsWithin(*run, 1'000'000), 10);
    EXPECT_EQ(traceIterationsWithin(*run, 150), 10);
    EXPECT_EQ(traceIterationsWithin(*run, 149), 9);
    EXPECT_EQ(traceIterationsWithin(*run, 30), 2);
    EXPECT_EQ(traceIterationsWithin(*run, 1), 1); // at least one
}

TEST(Exporters, SpansCsvStreamsTheSameTable)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    std::ostringstream out;
    ASSERT_TRUE(writeSpansCsv(out, s, *run).ok());
    const std::string text = out.str();
    EXPECT_EQ(text, spansCsv(s, *run));
    EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), run->spans.size() + 1);
}

// Issue 25: a name that a spreadsheet would run as a formula is written as text (OWASP).
TEST(Exporters, CsvFieldsThatWouldBeFormulasAreNeutralised)
{
    EXPECT_EQ(csvField("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    EXPECT_EQ(csvField("+cmd|' /C calc'!A0"), "\"'+cmd|' /C calc'!A0\"");
    EXPECT_EQ(csvField("-2+3"), "\"'-2+3\"");
    EXPECT_EQ(csvField("@SUM(A1:A9)"), "\"'@SUM(A1:A9)\"");
    EXPECT_EQ(csvField("\t=1"), "\"'\t=1\"");
    EXPECT_EQ(csvField("\r=1"), "\"'\r=1\"");
    // plain numbers and ordinary names stay as they were
    EXPECT_EQ(csvField("-1.5"), "-1.5");
    EXPECT_EQ(csvField("+3e-2"), "+3e-2");
    EXPECT_EQ(csvField("grads"), "grads");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    // in the tables the CLI and the app write
    Summary sum;
    RankBreakdown rb;
    rb.device = "=1+1";
    sum.perRank.push_back(rb);
    CollectiveFigures c;
    c.name = "@evil";
    sum.collectives.push_back(c);
    EXPECT_NE(perRankCsv(sum).find(",\"'=1+1\","), std::string::npos) << perRankCsv(sum);
    EXPECT_NE(collectivesCsv(sum).find("\n\"'@evil\","), std::string::npos) << collectivesCsv(sum);
}
