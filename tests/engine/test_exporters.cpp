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
