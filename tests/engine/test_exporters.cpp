#include "test_helpers.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/io/exporters.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace shardlab;
using namespace shardlab::test;

TEST(Exporters, JsonSummaryHasThePromisedKeys)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(s);
    ASSERT_TRUE(run.ok());
    const auto doc = nlohmann::json::parse(summaryJson(summarize(s, *run)));
    for (const char* k : {"mode", "ranks", "step_time_ms", "speedup", "efficiency", "straggler_rank", "bottleneck", "fits",
                          "per_rank", "collectives"})
        EXPECT_TRUE(doc.contains(k)) << k;
    EXPECT_EQ(doc["mode"], "sim");
    EXPECT_EQ(doc["straggler_rank"], 0);
    EXPECT_EQ(doc["bottleneck"], "wait");
    ASSERT_EQ(doc["per_rank"].size(), 4u);
    for (const char* k : {"rank", "device", "compute_ms", "comm_ms", "wait_ms", "peak_memory_bytes", "capacity_bytes", "fits"})
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
    EXPECT_EQ(waits, 9);      // ranks 1..3 wait once per iteration
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
