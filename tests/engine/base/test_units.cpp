#include "shardlab/base/units.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/base/display_width.h"
#include "shardlab/io/exporters.h"
#include "shardlab/sim/simulator.h"
#include "../test_helpers.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace shardlab;

TEST(Units, SiAndIecSizes)
{
    EXPECT_EQ(*parseSize("16 GB"), 16'000'000'000ULL);
    EXPECT_EQ(*parseSize("16GiB"), 16ULL << 30);
    EXPECT_EQ(*parseSize("512 MB"), 512'000'000ULL);
    EXPECT_EQ(*parseSize("1.5 GB"), 1'500'000'000ULL);
    EXPECT_EQ(*parseSize("4096"), 4096ULL);
    EXPECT_EQ(*parseSize(" 8 B "), 8ULL);
    EXPECT_EQ(*parseSize("2 KiB"), 2048ULL);
}

TEST(Units, BadSizesNameTheProblem)
{
    auto neg = parseSize("-1 GB");
    ASSERT_FALSE(neg);
    EXPECT_NE(neg.error().message.find("negative"), std::string::npos);
    auto unit = parseSize("3 parsecs");
    ASSERT_FALSE(unit);
    EXPECT_NE(unit.error().message.find("unknown unit"), std::string::npos);
    EXPECT_FALSE(parseSize("2 EB"));
    EXPECT_FALSE(parseSize("1e30"));  // absurd
    EXPECT_FALSE(parseSize("0.5 B")); // not whole bytes
    EXPECT_FALSE(parseSize(""));
    EXPECT_FALSE(parseSize("GB"));
}

TEST(Units, BenchSizesAreBinaryLikeNcclTests)
{
    EXPECT_EQ(*parseBenchSize("8"), 8ULL);
    EXPECT_EQ(*parseBenchSize("8B"), 8ULL);
    EXPECT_EQ(*parseBenchSize("64K"), 65536ULL);
    EXPECT_EQ(*parseBenchSize("1M"), 1048576ULL);
    EXPECT_EQ(*parseBenchSize("1MB"), 1048576ULL);
    EXPECT_EQ(*parseBenchSize("4G"), 4ULL << 30);
    EXPECT_EQ(*parseBenchSize("1GB"), 1ULL << 30);
    EXPECT_FALSE(parseBenchSize("1X"));
}

TEST(Units, Bandwidths)
{
    EXPECT_DOUBLE_EQ(*parseBandwidth("25 GB/s"), 25.0);
    EXPECT_DOUBLE_EQ(*parseBandwidth("400 Gb/s"), 50.0);
    EXPECT_DOUBLE_EQ(*parseBandwidth("12"), 12.0);
    EXPECT_DOUBLE_EQ(*parseBandwidth("4.8 TB/s"), 4800.0);
    EXPECT_FALSE(parseBandwidth("fast"));
}

TEST(Units, Formatting)
{
    EXPECT_EQ(formatBytes(24'000'000'000ULL), "24 GB");
    EXPECT_EQ(formatBytes(1'500'000'000ULL), "1.5 GB");
    EXPECT_EQ(formatBytes(8), "8 B");
    EXPECT_EQ(formatBinaryBytes(1ULL << 30), "1 GiB");
    EXPECT_EQ(formatMicros(1500), "1.50 ms");
    EXPECT_EQ(formatMicros(12.5), "12.5 us");
}

TEST(Units, FlopsAndBandwidthText)
{
    EXPECT_DOUBLE_EQ(*parseFlops("1.68 TFLOP"), 1.68e12);
    EXPECT_DOUBLE_EQ(*parseFlops("500 GFLOP"), 5e11);
    EXPECT_DOUBLE_EQ(*parseFlops("2e12"), 2e12);
    EXPECT_DOUBLE_EQ(*parseFlops("0"), 0.0);
    EXPECT_FALSE(parseFlops("-1 TFLOP").ok());
    EXPECT_FALSE(parseFlops("4 TB").ok());
    EXPECT_NE(parseFlops("4 TB").error().message.find("unknown unit 'TB'"), std::string::npos);
    EXPECT_FALSE(parseFlops("lots").ok());
    EXPECT_EQ(formatFlops(1.68e12), "1.68 TFLOP");
    EXPECT_EQ(formatFlops(5e11), "500 GFLOP");
    EXPECT_EQ(formatFlops(0), "0 FLOP");
    EXPECT_EQ(formatFlops(3.36e15), "3.36 PFLOP");
    EXPECT_EQ(formatBandwidth(450), "450 GB/s");
    EXPECT_EQ(formatBandwidth(15.75), "15.8 GB/s");
    EXPECT_EQ(formatBandwidth(62.4), "62.4 GB/s");
    EXPECT_EQ(formatBandwidth(0.5), "0.5 GB/s");
}

// Issue 29: one percentage, one spelling: a card, the sentence and a table said "2.6 %" and "3 %"
// for one efficiency. One decimal below 10 %, none from there.
TEST(Units, PercentagesAreWrittenOneWay)
{
    EXPECT_EQ(formatPercent(0.026), "2.6%");
    EXPECT_EQ(formatPercent(0.006), "0.6%");
    EXPECT_EQ(formatPercent(0.0995), "10%"); // 9.95 rounds to 10: no "10.0%"
    EXPECT_EQ(formatPercent(0.0994), "9.9%");
    EXPECT_EQ(formatPercent(0.925), "92%"); // printf rounds 92.5 to even
    EXPECT_EQ(formatPercent(0.0), "0%");
    EXPECT_EQ(formatPercent(1.0), "100%");
}

// Issue 14: CJK names broke the column alignment of the tables (padding counted bytes).
TEST(DisplayWidth, CountsColumnsNotBytes)
{
    EXPECT_EQ(displayWidth("GPU"), 3u);
    EXPECT_EQ(displayWidth("\xe6\x98\xbe\xe5\x8d\xa1"), 4u); // 显卡: two wide characters
    EXPECT_EQ(displayWidth("e\xcc\x81"), 1u);                // e + combining acute
    EXPECT_EQ(displayWidth("\xff"), 1u);                     // not UTF-8: one column
    EXPECT_EQ(fitToWidth("ab", 4), "ab  ");
    EXPECT_EQ(fitToWidth("\xe6\x98\xbe\xe5\x8d\xa1\xe5\x90\x8d", 5),
              "\xe6\x98\xbe\xe5\x8d\xa1 "); // cut at a whole character
    EXPECT_EQ(displayWidth(fitToWidth("\xe6\x98\xbe\xe5\x8d\xa1\xe5\x90\x8d", 5)), 5u);
}

TEST(DisplayWidth, TheRankTableLinesUpWithChineseDeviceNames)
{
    Scenario s = test::splitScenario({1, 1}, 1e12, 1'000'000);
    s.topology.gpus[0].name = "\xe6\x95\x99\xe5\xad\xa6\xe7\x94\xa8\xe6\x98\xbe\xe5\x8d\xa1"; // 教学用显卡
    s.topology.gpus[1].name = "H200";
    auto run = simulate(s, {});
    ASSERT_TRUE(run.ok());
    std::istringstream table(formatSummaryTable(s, summarize(s, *run)));
    std::string line;
    std::vector<size_t> computeEnds; // display column where "compute ms" ends, on the header and each rank
    while (std::getline(table, line)) {
        if (line.rfind("rank", 0) == 0 || line.rfind("   0", 0) == 0 || line.rfind("   1", 0) == 0) {
            const size_t field = line.rfind("rank", 0) == 0 ? line.find("compute ms") + 10 : line.find(".000") + 4;
            computeEnds.push_back(displayWidth(line.substr(0, field)));
        }
    }
    ASSERT_EQ(computeEnds.size(), 3u);
    EXPECT_EQ(computeEnds[0], computeEnds[1]);
    EXPECT_EQ(computeEnds[0], computeEnds[2]);
}
