// The lab report of the course's practical: its model (lab_report.h) and its HTML (report_html.h),
// from simulated runs and from a runner that stands in for live mode.
#include "shardlab/report/lab_report.h"
#include "shardlab/report/report_html.h"
#include "shardlab/sim/simulator.h"
#include "../test_helpers.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::test;

namespace {
bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
// The report keeps its sentences as Messages; these tests read their English wording.
bool contains(const Message& m, const std::string& what) { return contains(english(m), what); }
} // namespace

TEST(LabReport, DefaultSizesSpanTwoDecadesAndStayDistinct)
{
    EXPECT_EQ(defaultReportSizes(100'000'000), (std::vector<Bytes>{1'562'500, 12'500'000, 100'000'000, 400'000'000}));
    // 8 bytes: 8/64 rounds to 0 and 8/8 = 1 would repeat; larger multiples fill in
    EXPECT_EQ(defaultReportSizes(8), (std::vector<Bytes>{1, 8, 32, 128}));
    EXPECT_GE(defaultReportSizes(1).size(), 3u);
}

TEST(LabReport, ScalingTouchesCollectivesOnly)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    const Scenario t = withCollectivesScaled(s, 0.5);
    EXPECT_EQ(*t.program[1].bytes, 50'000'000u); // gradients: 100 MB
    EXPECT_FALSE(t.program[0].bytes.has_value());
    EXPECT_EQ(t.program[0].flops, s.program[0].flops);
}

TEST(LabReport, StragglerReportHasEverySectionAndNamesRankZero)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto r = buildLabReport(s);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->mode, RunMode::Simulated);
    EXPECT_TRUE(contains(r->modeSentence, "Simulated"));

    // per-rank output: every rank verified on the fill pattern, 4 ranks sum to 10 + 4 (j mod 16)/16
    ASSERT_EQ(r->ranks.size(), 4u);
    for (const RankOutput& o : r->ranks) {
        EXPECT_TRUE(o.verified) << o.rank;
        EXPECT_EQ(o.checkedElements, 256u);
        EXPECT_EQ(o.wrongElements, 0u);
        EXPECT_DOUBLE_EQ(o.localInput[1], o.rank + 1 + 1.0 / 16);
        EXPECT_DOUBLE_EQ(o.localResult[1], 10.0 + 4.0 / 16);
    }
    EXPECT_TRUE(contains(r->ranks[0].owns, "data: 12 GB of 24 GB"));
    EXPECT_TRUE(contains(r->ranks[3].owns, "gradients: 100 MB (replicated)"));

    // topology: PCIe through a host bridge, not one fast domain
    EXPECT_FALSE(r->topology.fastDomain);
    EXPECT_EQ(r->topology.slowestPath, PathClass::Phb);
    EXPECT_TRUE(contains(r->topology.sentence, "do not share a fast interconnect domain"));
    EXPECT_TRUE(contains(topoMatrixText(r->topology.topology, Language::English), "GPU0"));

    // timing: four sizes; compute is the same (mean of 120/60/40/20 = 60 ms) and so is the wait
    // (mean of 0/60/80/100 = 60 ms); the collective grows with the size
    ASSERT_EQ(r->timing.size(), 4u);
    for (size_t i = 0; i < r->timing.size(); ++i) {
        const TimingRow& t = r->timing[i];
        EXPECT_NEAR(t.computeMs, 60.0, 1e-6);
        EXPECT_NEAR(t.waitMs, 60.0, 1e-6);
        EXPECT_NEAR(t.stepMs, 120.0 + t.collectiveMs, 1e-6);
        if (i > 0) {
            EXPECT_GT(t.bytes, r->timing[i - 1].bytes);
            EXPECT_GT(t.collectiveMs, r->timing[i - 1].collectiveMs);
        }
    }
    EXPECT_EQ(r->timing[2].bytes, 100'000'000u);
    EXPECT_NEAR(r->timing[2].collectiveTimeMs, r->run.collectives[0].durationUs() / 1e3, 1e-9);

    // the limiting segment
    EXPECT_EQ(r->limitingSegment, "wait");
    EXPECT_TRUE(contains(r->limitingSentence, "the straggler is rank 0")) << english(r->limitingSentence);
    EXPECT_TRUE(contains(r->limitingSentence, "Rank 0 holds 12 GB of 24 GB"));

    // all-reduce against reduce-scatter + all-gather: same traffic, S + S/n peak against 2S
    ASSERT_TRUE(r->comparison.has_value());
    EXPECT_EQ(r->comparison->allReduce.peakPerRank, 200'000'000u);
    EXPECT_EQ(r->comparison->reduceScatterAllGather.peakPerRank, 125'000'000u);
    EXPECT_EQ(r->comparison->allReduce.sentPerRank, r->comparison->reduceScatterAllGather.sentPerRank);
    EXPECT_EQ(english(r->comparisonTimeSource), "the cost model");

    const std::string html = labReportHtml(*r);
    for (const std::string& id : labReportSectionIds())
        EXPECT_TRUE(contains(html, "id=\"" + id + "\"")) << id;
    EXPECT_TRUE(contains(html, "Simulated run"));
    EXPECT_TRUE(contains(html, "1. Per-rank output"));
    EXPECT_TRUE(contains(html, "nvidia-smi topo -m"));
    EXPECT_TRUE(contains(html, "3. Timing at 4 message sizes"));
    EXPECT_TRUE(contains(html, "Limiting segment: wait."));
    EXPECT_TRUE(contains(html, "the straggler is rank 0"));
    EXPECT_TRUE(contains(html, "5. All-reduce against reduce-scatter + all-gather"));
    EXPECT_EQ(labReportFigures(*r).size(), 5u);
    // self-contained: inline SVG, no external references
    EXPECT_TRUE(contains(html, "<svg xmlns="));
    EXPECT_FALSE(contains(html, "src=\"http"));
    EXPECT_FALSE(contains(html, "<script"));
}

TEST(LabReport, TheLabScenarioRunsOnOneNvlinkDomain)
{
    const Scenario s = loadExample("lab-two-gpu-all-reduce.shardlab.json");
    LabReportOptions options;
    options.sizes = {1 << 20, 16 << 20, 256 << 20};
    auto r = buildLabReport(s, options);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->ranks.size(), 2u);
    EXPECT_TRUE(r->topology.fastDomain);
    EXPECT_TRUE(contains(r->topology.sentence, "NV18"));
    // two ranks: 1 + 2 = 3 plus 2 (j mod 16)/16
    EXPECT_DOUBLE_EQ(r->ranks[1].localResult[0], 3.0);
    EXPECT_DOUBLE_EQ(r->ranks[1].localResult[2], 3.25);
    ASSERT_EQ(r->timing.size(), 3u);
    EXPECT_EQ(r->timing[0].bytes, Bytes{1} << 20);
}

TEST(LabReport, LiveRunsAreVerifiedByTheirWrongCounts)
{
    // A runner standing in for runLive(): simulated timings, marked live, one wrong element on
    // the first collective; the pair and reduce-scatter variants run too.
    int runs = 0;
    LabReportOptions options;
    options.mode = RunMode::Live;
    options.runner = [&runs](const Scenario& sc) -> Result<RunResult> {
        auto run = simulate(sc);
        if (!run)
            return run;
        run->mode = RunMode::Live;
        run->clockNote = verbatim("test clock");
        if (!run->collectives.empty())
            run->collectives[0].wrongElements = 3;
        ++runs;
        return run;
    };
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    auto r = buildLabReport(s, options);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(runs, 1 + 3 + 2); // the base run, three more sizes, two comparison variants
    EXPECT_EQ(r->mode, RunMode::Live);
    for (const RankOutput& o : r->ranks) {
        EXPECT_FALSE(o.verified);
        EXPECT_EQ(o.wrongElements, 3u);
        EXPECT_EQ(o.checkedCollectives, 3); // one all-reduce per iteration
        EXPECT_TRUE(contains(o.verification, "3 wrong elements in 3 collective calls"));
    }
    EXPECT_EQ(english(r->comparisonTimeSource), "measured on this machine");
    EXPECT_NEAR(r->comparison->allReduce.timeUs, r->run.collectives[0].durationUs(), 1e-6);
    const std::string html = labReportHtml(*r);
    EXPECT_TRUE(contains(html, "Live run (measured)"));
    EXPECT_TRUE(contains(html, "FAIL"));
}

// A run of ranks that shared one GPU (`live --share-gpu`) says so in the report's notes, first.
TEST(LabReport, ARunOfRanksSharingOneGpuIsMarked)
{
    LabReportOptions options;
    options.mode = RunMode::Live;
    options.runner = [](const Scenario& sc) -> Result<RunResult> {
        auto run = simulate(sc);
        if (!run)
            return run;
        run->mode = RunMode::Live;
        run->sharedGpu = 4;
        return run;
    };
    auto r = buildLabReport(loadExample("straggler-12-6-4-2.shardlab.json"), options);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_FALSE(r->notes.empty());
    EXPECT_EQ(english(r->notes.front()),
              "4 ranks shared one GPU: results and waits are real, times are not those of 4 GPUs");
    EXPECT_TRUE(contains(labReportHtml(*r), "4 ranks shared one GPU"));
    options.runner = [](const Scenario& sc) -> Result<RunResult> { return simulate(sc); };
    auto plain = buildLabReport(loadExample("straggler-12-6-4-2.shardlab.json"), options);
    ASSERT_TRUE(plain.ok());
    for (const Message& n : plain->notes)
        EXPECT_FALSE(contains(english(n), "shared one GPU"));
}

TEST(LabReport, RunFailuresAreErrorsAndHangsAreReported)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    LabReportOptions failing;
    failing.runner = [](const Scenario&) -> Result<RunResult> { return runFailed(verbatim("GPU 1 fell off the bus")); };
    auto f = buildLabReport(s, failing);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().kind, ErrorKind::RunFailed);
    EXPECT_TRUE(contains(f.error().message, "fell off the bus"));

    auto hung = buildLabReport(loadExample("hang-mismatched-collective.shardlab.json"));
    ASSERT_TRUE(hung.ok()) << hung.error().message;
    ASSERT_TRUE(hung->run.hang.has_value());
    EXPECT_TRUE(contains(hung->notes.front(), "The run hung"));
    EXPECT_TRUE(contains(hung->ranks[2].verification, "not verified"));
    EXPECT_TRUE(contains(labReportHtml(*hung), "<span class=\"bad\">the run hung</span>"));
}

TEST(LabReport, ScenariosWithoutACollectiveStillGetAReport)
{
    Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    s.program.pop_back();
    auto r = buildLabReport(s);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_FALSE(r->hasCollective);
    EXPECT_EQ(r->timing.size(), 1u);
    EXPECT_FALSE(r->comparison.has_value());
    EXPECT_TRUE(contains(r->notes.front(), "no collective"));
    EXPECT_TRUE(contains(labReportHtml(*r), "No comparison"));
}

TEST(LabReport, MoreGpusThanAReportCoversAreRefusedBeforeAnyRun)
{
    // the report lists every pair of GPUs: past kMaxReportGpus it says so instead of running
    Scenario s;
    s.name = "big";
    s.topology = nvswitchBox(kMaxReportGpus + 1);
    LabReportOptions o;
    o.runner = [](const Scenario&) -> Result<RunResult> {
        ADD_FAILURE() << "a run started";
        return runFailed(verbatim("no"));
    };
    auto r = buildLabReport(s, o);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message,
              "$.topology.gpus: 1025 GPUs (expected at most 1024 for a lab report, which lists the path "
              "between every pair of GPUs; sim, diagnose and scale take up to 65536)");
}
