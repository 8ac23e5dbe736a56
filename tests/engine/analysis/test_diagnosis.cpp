// The handbook's rules: each fires on a scenario built to trigger it, with numbers from the run,
// and all stay silent on a balanced, compute-bound run.
#include "../analysis_helpers.h"

#include "shardlab/analysis/diagnosis.h"
#include "shardlab/analysis/diagnosis_format.h"
#include "shardlab/model/capacity.h"
#include "shardlab/io/exporters.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace shardlab;
using namespace shardlab::test;

namespace {

struct Diagnosed {
    RunResult run;
    Summary summary;
    std::vector<Finding> findings;
};

Diagnosed diagnoseScenario(const Scenario& s, const CostProfile& profile, const ScalingCurve* curve = nullptr)
{
    SimulationOptions so;
    so.profile = profile;
    auto run = simulate(s, so);
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
    Diagnosed d;
    d.run = *run;
    d.summary = summarize(s, d.run);
    DiagnosisContext ctx;
    ctx.profile = profile;
    ctx.scaling = curve;
    d.findings = diagnose(s, d.run, d.summary, ctx);
    return d;
}

const Finding* find(const std::vector<Finding>& fs, FindingRule rule)
{
    for (const Finding& f : fs)
        if (f.rule == rule)
            return &f;
    return nullptr;
}

const Check* check(const Finding& f, const std::string& what)
{
    for (const Check& c : f.checks)
        if (c.what == what)
            return &c;
    return nullptr;
}

} // namespace

TEST(Diagnosis, SilentOnABalancedComputeBoundRun)
{
    // 4 x 100 ms of compute and a 1 GB all-reduce of 15.618 ms (30 us + 15,000 us x (1 + 2 x 100 /
    // 850 / 6), test_cost_model.cpp): efficiency 400 / (4 x 115.618) = 86 %
    const Diagnosed d = diagnoseScenario(dataParallelBox(4, 4e12), unitProfile());
    EXPECT_NEAR(d.summary.efficiency, 400.0 / (4 * (100 + (30 + 15000 * (1 + 2 * 100 / 850.0 / 6)) / 1e3)), 1e-9);
    EXPECT_NEAR(d.summary.efficiency, 0.8649, 0.0001);
    EXPECT_TRUE(d.findings.empty()) << formatFindings(d.findings);
    EXPECT_NE(formatFindings(d.findings).find("No finding"), std::string::npos);
    const Scenario course = loadExample("default.shardlab.json");
    auto run = simulate(course);
    ASSERT_TRUE(run.ok());
    EXPECT_TRUE(diagnose(course, *run, summarize(course, *run)).empty());
}

TEST(Diagnosis, NoSpeedupCitesComputeShareSizeAndPath)
{
    // 100 ms of compute per rank and a 10 GB all-reduce of 30 us + 150,000 us x (1 + 2 x 100 / 850 /
    // 6) (the ring's receive-only last step, HBM 1000 GB/s) = 155.912 ms (unit profile, 100 GB/s):
    // step 255.912 ms, one GPU 400 ms, speed-up 1.56x, efficiency 39 %, communication 61 %
    const Diagnosed d = diagnoseScenario(dataParallelBox(4, 4e12, 10'000'000'000ULL), unitProfile());
    const Finding* f = find(d.findings, FindingRule::NoSpeedup);
    ASSERT_NE(f, nullptr) << formatFindings(d.findings);
    EXPECT_EQ(f->severity, Severity::Warning); // 1.6x is a speed-up, if a poor one
    EXPECT_NE(f->sentence.find("256 ms against 400 ms"), std::string::npos) << f->sentence;
    EXPECT_NE(f->sentence.find("1.56x (efficiency 39%)"), std::string::npos) << f->sentence;
    EXPECT_NE(f->sentence.find("Communication takes 61%"), std::string::npos) << f->sentence;
    EXPECT_NE(f->sentence.find("NVLink"), std::string::npos);
    ASSERT_NE(check(*f, "per-rank compute"), nullptr);
    EXPECT_NE(check(*f, "per-rank compute")->shows.find("each rank computes 100 ms"), std::string::npos);
    EXPECT_NE(check(*f, "collective share")->shows.find("communication 61%"), std::string::npos);
    ASSERT_NE(check(*f, "message size"), nullptr);
    EXPECT_NE(check(*f, "message size")->shows.find("10 GB per call (2.5 GB per rank"), std::string::npos)
        << check(*f, "message size")->shows;
    EXPECT_NE(check(*f, "message size")->shows.find("bandwidth-bound"), std::string::npos);
    EXPECT_NE(check(*f, "topology path")->shows.find("gpu"), std::string::npos);
    // evidence: every rank's timeline and the collective's bandwidth
    ASSERT_EQ(f->ranks.size(), 4u);
    EXPECT_NEAR(f->ranks[2].computeMs, 100.0, 1e-9);
    const double allReduceMs = (30 + 150000 * (1 + 2 * 100 / 850.0 / 6)) / 1e3;
    EXPECT_NEAR(allReduceMs, 155.912, 0.001);
    EXPECT_NEAR(f->ranks[2].commMs, allReduceMs, 1e-9);
    EXPECT_NEAR(f->ranks[2].workShare, 0.25, 1e-12);
    ASSERT_EQ(f->collectives.size(), 1u);
    EXPECT_NEAR(f->collectives[0].busbwGBps, 10e9 / (allReduceMs * 1e-3) / 1e9 * 1.5, 1e-9);
    EXPECT_EQ(*f->collectives[0].linkKind, LinkKind::NvLink);
    EXPECT_FALSE(f->collectives[0].latencyBound);
    EXPECT_TRUE(find(d.findings, FindingRule::SameRankWaitedFor) == nullptr);
}

TEST(Diagnosis, CourseFifthGpuIsAProblemWithItsScalingCurve)
{
    const Scenario five = loadExample("fifth-gpu-5.shardlab.json");
    ScalingOptions o;
    o.maxGpus = 8;
    auto curve = scalingCurve(five, o);
    ASSERT_TRUE(curve.ok());
    const Diagnosed d = diagnoseScenario(five, CostProfile::defaults(), &*curve);
    const Finding* f = find(d.findings, FindingRule::NoSpeedup);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Problem);
    EXPECT_EQ(f->scaling.size(), curve->points.size());
    ASSERT_NE(check(*f, "scaling curve"), nullptr);
    EXPECT_NE(check(*f, "scaling curve")->shows.find("From 4 to 5 GPUs"), std::string::npos);
    EXPECT_NE(check(*f, "topology path")->shows.find("cross-socket"), std::string::npos);
}

TEST(Diagnosis, LatencyBoundMessagesAreCalledSo)
{
    // 4 x 1 ms of compute and 64 all-reduces of 4 KB (bucketed): each call is pure latency
    Scenario s = dataParallelBox(4, 4e10, 256'000);
    s.program[1].buckets = 64;
    const Diagnosed d = diagnoseScenario(s, unitProfile());
    const Finding* f = find(d.findings, FindingRule::NoSpeedup);
    ASSERT_NE(f, nullptr) << formatFindings(d.findings);
    EXPECT_TRUE(f->collectives[0].latencyBound);
    EXPECT_NE(check(*f, "message size")->shows.find("latency-bound"), std::string::npos);
}

TEST(Diagnosis, SameRankWaitedForByImbalance)
{
    const Scenario s = loadExample("straggler-12-6-4-2.shardlab.json");
    const Diagnosed d = diagnoseScenario(s, CostProfile::defaults());
    const Finding* f = find(d.findings, FindingRule::SameRankWaitedFor);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Problem);
    EXPECT_EQ(*f->rank, 0);
    // compute 120/60/40/20 ms: the others wait 60-100 ms; rank 0 does 12/24 of the work
    EXPECT_NE(f->sentence.find("wait 60-100 ms"), std::string::npos) << f->sentence;
    EXPECT_NE(f->sentence.find("50% of the compute work"), std::string::npos) << f->sentence;
    EXPECT_NE(check(*f, "input distribution")->shows.find("12 GB of 24 GB"), std::string::npos);
    EXPECT_NE(check(*f, "shard sizes")->shows.find("rank 0 owns"), std::string::npos);
    EXPECT_NE(check(*f, "thermal throttling")->shows.find("no slowdown"), std::string::npos);
    ASSERT_NE(check(*f, "NUMA and link differences"), nullptr);
    ASSERT_EQ(f->ranks.size(), 4u);
    EXPECT_NEAR(f->ranks[3].waitMs, 100.0, 1e-6);
    EXPECT_NEAR(f->ranks[0].workShare, 0.5, 1e-9);
    // waiting, not communication, is what is lost: rule 1 stays out of it
    EXPECT_EQ(find(d.findings, FindingRule::NoSpeedup), nullptr);
}

TEST(Diagnosis, SameRankWaitedForBySlowdown)
{
    // balanced shards, but rank 2 runs at half speed: 200 ms against 100 ms
    Scenario s = dataParallelBox(4, 4e12, 100'000'000);
    s.perturbations.slowdown = {1, 1, 2, 1};
    const Diagnosed d = diagnoseScenario(s, unitProfile());
    const Finding* f = find(d.findings, FindingRule::SameRankWaitedFor);
    ASSERT_NE(f, nullptr) << formatFindings(d.findings);
    EXPECT_EQ(*f->rank, 2);
    EXPECT_NE(f->sentence.find("runs 2.00x slower"), std::string::npos) << f->sentence;
    EXPECT_NE(f->sentence.find("wait 100 ms"), std::string::npos) << f->sentence;
    EXPECT_NE(check(*f, "thermal throttling")->shows.find("slowdown factor 2.00 on rank 2"), std::string::npos);
    EXPECT_DOUBLE_EQ(f->ranks[2].slowdown, 2.0);
}

TEST(Diagnosis, CollectiveHangNamesTheMismatchAndEachRanksLastCollective)
{
    Scenario s = dataParallelBox(4, 4e11, 100'000'000);
    s.iterations = 2;
    s.perturbations.mismatches = {Mismatch{Mismatch::Type::WrongOp, 1, 1, 1, OpKind::AllGather, 0}};
    const Diagnosed d = diagnoseScenario(s, unitProfile());
    ASSERT_TRUE(d.run.hang.has_value());
    const Finding* f = find(d.findings, FindingRule::CollectiveHang);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Problem);
    EXPECT_EQ(*f->rank, 1);
    // issue 13: iterations and steps counted from 1, as on the timeline and in the program table
    EXPECT_NE(f->sentence.find("hangs in iteration 2: rank 1 called all_gather where the others called all_reduce"
                               " at gradient all-reduce (program step 2)"),
              std::string::npos)
        << f->sentence;
    // the first iteration completed one all-reduce on every rank: collective #0
    ASSERT_EQ(f->ranks.size(), 4u);
    for (const RankEvidence& e : f->ranks)
        EXPECT_EQ(e.lastCompleted, 0);
    EXPECT_NE(check(*f, "last completed collective")->shows.find("rank 3 #0"), std::string::npos);
    EXPECT_NE(check(*f, "a rank that left")->shows.find("no rank left"), std::string::npos);
    // a hung run is not judged for speed
    EXPECT_EQ(find(d.findings, FindingRule::NoSpeedup), nullptr);

    Scenario skip = s;
    skip.perturbations.mismatches = {Mismatch{Mismatch::Type::Skip, 2, 1, 0}};
    const Diagnosed ds = diagnoseScenario(skip, unitProfile());
    const Finding* fs = find(ds.findings, FindingRule::CollectiveHang);
    ASSERT_NE(fs, nullptr);
    EXPECT_NE(check(*fs, "a rank that left")->shows.find("rank 2 skipped gradient all-reduce (program step 2)"),
              std::string::npos)
        << check(*fs, "a rank that left")->shows;

    Scenario count = s;
    count.perturbations.mismatches = {Mismatch{Mismatch::Type::WrongCount, 3, 1, 0, OpKind::AllGather, 1000}};
    const Diagnosed dc = diagnoseScenario(count, unitProfile());
    const Finding* fc = find(dc.findings, FindingRule::CollectiveHang);
    ASSERT_NE(fc, nullptr);
    EXPECT_NE(check(*fc, "count and type")->shows.find("rank 3 passed 1 kB where the others passed 100 MB"),
              std::string::npos)
        << check(*fc, "count and type")->shows;
    EXPECT_EQ(f->evidenceNeeded.size(), 3u);
}

TEST(Diagnosis, Json)
{
    const Diagnosed d = diagnoseScenario(loadExample("straggler-12-6-4-2.shardlab.json"), CostProfile::defaults());
    const auto doc = nlohmann::json::parse(findingsJson(d.findings));
    ASSERT_EQ(doc["findings"].size(), 1u);
    const auto& f = doc["findings"][0];
    EXPECT_EQ(f["rule"], "same_rank_waited_for");
    EXPECT_EQ(f["severity"], "problem");
    EXPECT_EQ(f["rank"], 0);
    EXPECT_EQ(f["ranks"].size(), 4u);
    EXPECT_NEAR(f["ranks"][3]["wait_ms"].get<double>(), 100.0, 1e-6);
    EXPECT_FALSE(f["checks"].empty());
    EXPECT_EQ(nlohmann::json::parse(findingsJson({}))["findings"].size(), 0u);
}

// Issue 14: the course's capacity examples are findings: 24 GB replicated on 16 GB cards does not
// fit; with unified memory it pages every iteration. The ZeRO-3 placement of the same model fits.
TEST(Diagnosis, CapacityAndPagingAreFindings)
{
    const Scenario replicated = loadExample("capacity-replicate-24gb.shardlab.json");
    Diagnosed d = diagnoseScenario(replicated, CostProfile::defaults());
    const Finding* cap = find(d.findings, FindingRule::CapacityExceeded);
    ASSERT_TRUE(cap) << formatFindings(d.findings);
    EXPECT_EQ(cap->severity, Severity::Problem);
    EXPECT_NE(cap->sentence.find("owns 24 GB on a 16 GB GPU (8 GB too much)"), std::string::npos) << cap->sentence;
    const Check* owned = check(*cap, "what each rank owns against what its GPU holds");
    ASSERT_TRUE(owned);
    EXPECT_NE(owned->shows.find("rank 3 24 GB of 16 GB"), std::string::npos) << owned->shows;
    EXPECT_EQ(find(d.findings, FindingRule::NoSpeedup), nullptr);
    // a job that cannot run has no speed-up (it printed 0.10x): the reason instead
    EXPECT_FALSE(d.summary.hasSpeedup);
    EXPECT_NE(d.summary.speedupNote.find("stops with out-of-memory"), std::string::npos) << d.summary.speedupNote;

    const Scenario unified = loadExample("oversubscription-unified-24gb.shardlab.json");
    d = diagnoseScenario(unified, CostProfile::defaults());
    const Finding* paging = find(d.findings, FindingRule::Paging);
    ASSERT_TRUE(paging) << formatFindings(d.findings);
    EXPECT_NE(paging->sentence.find("ms of every iteration"), std::string::npos) << paging->sentence;
    EXPECT_EQ(find(d.findings, FindingRule::CapacityExceeded), nullptr); // it runs, slowly

    const Scenario zero3 = loadExample("capacity-zero3-24gb.shardlab.json");
    d = diagnoseScenario(zero3, CostProfile::defaults());
    EXPECT_EQ(find(d.findings, FindingRule::CapacityExceeded), nullptr);
    EXPECT_EQ(find(d.findings, FindingRule::Paging), nullptr);
    EXPECT_EQ(findingsJson(d.findings).find("capacity_exceeded"), std::string::npos);
}

// Issue 14: "fits" ignored collective buffers (a 24 GB peak on a 16 GB card said "yes"). Each rank
// owns 4 GB of 16 GB, then an all-reduce of 20 GB (no item, so nothing of it is owned) needs a
// 20 GB result buffer: peak 4 + 20 = 24 GB, 8 GB too much. Owned and peak are shown apart; the
// peak decides "fits" in the capacity report, the summary, its table and JSON, and the diagnosis.
TEST(Diagnosis, APeakOverTheCapacityDoesNotFitEvenWhenWhatIsOwnedDoes)
{
    const Scenario s = splitScenario({4, 4}, 1e12, 20'000'000'000ULL);
    const CapacityReport cap = capacityOf(s);
    const RankMemory& rm = cap.ranks[0];
    EXPECT_EQ(rm.owned, 4'000'000'000ULL);
    EXPECT_EQ(rm.transient, 20'000'000'000ULL);
    EXPECT_EQ(rm.peak(), 24'000'000'000ULL);
    EXPECT_TRUE(rm.ownedFits());
    EXPECT_FALSE(rm.fits());
    EXPECT_EQ(rm.peakExcess(), 8'000'000'000ULL);
    ASSERT_FALSE(cap.warnings.empty());
    EXPECT_NE(cap.warnings[0].find("brings its peak to 24 GB on a 16 GB GPU (8 GB too much)"), std::string::npos)
        << cap.warnings[0];

    Diagnosed d = diagnoseScenario(s, CostProfile::defaults());
    ASSERT_EQ(d.run.peakMemory.size(), 2u);
    EXPECT_EQ(d.run.peakMemory[0], 24'000'000'000ULL);
    EXPECT_EQ(d.summary.perRank[0].owned, 4'000'000'000ULL);
    EXPECT_EQ(d.summary.perRank[0].peakMemory, 24'000'000'000ULL);
    EXPECT_FALSE(d.summary.perRank[0].fits);
    EXPECT_FALSE(d.summary.fits);
    EXPECT_EQ(d.summary.bottleneck, Bottleneck::Capacity);
    EXPECT_NE(d.summary.sentence.find("brings its peak to 24 GB"), std::string::npos) << d.summary.sentence;

    const std::string table = formatSummaryTable(s, d.summary);
    EXPECT_NE(table.find("owned"), std::string::npos) << table;
    EXPECT_NE(table.find("4 GB      24 GB      16 GB    NO"), std::string::npos) << table;
    const auto json = nlohmann::json::parse(summaryJson(d.summary));
    EXPECT_FALSE(json["fits"].get<bool>());
    EXPECT_EQ(json["per_rank"][0]["owned_bytes"], 4'000'000'000ULL);
    EXPECT_EQ(json["per_rank"][0]["peak_memory_bytes"], 24'000'000'000ULL);
    EXPECT_NE(perRankCsv(d.summary).find(",24000000000,16000000000,false,0,4000000000\n"), std::string::npos)
        << perRankCsv(d.summary);

    const Finding* f = find(d.findings, FindingRule::CapacityExceeded);
    ASSERT_TRUE(f) << formatFindings(d.findings);
    EXPECT_NE(
        f->sentence.find("rank 0 owns 4 GB and receives 20 GB more, a peak of 24 GB on a 16 GB GPU (8 GB too much)"),
        std::string::npos)
        << f->sentence;
    const Check* peak = check(*f, "peak with the largest collective buffer");
    ASSERT_TRUE(peak);
    EXPECT_EQ(peak->shows, "rank 0 24 GB, rank 1 24 GB");

    // bucketed in 4, each bucket's buffer is 5 GB: peak 9 GB, which fits
    Scenario bucketed = s;
    bucketed.program[1].buckets = 4;
    EXPECT_EQ(capacityOf(bucketed).ranks[0].peak(), 9'000'000'000ULL);
    EXPECT_TRUE(summarize(bucketed, diagnoseScenario(bucketed, CostProfile::defaults()).run).fits);
}

// The course's ZeRO-3 example: each card owns 6 GB (a quarter of 24 GB); the table shows that and,
// apart, the 6.75 GB peak with the all-gathered buffer.
TEST(Diagnosis, TheZero3ExampleShowsOwnedAndPeakApart)
{
    const Scenario s = loadExample("capacity-zero3-24gb.shardlab.json");
    Diagnosed d = diagnoseScenario(s, CostProfile::defaults());
    EXPECT_EQ(d.summary.perRank[0].owned, 6'000'000'000ULL);
    EXPECT_EQ(d.summary.perRank[0].peakMemory, 6'750'000'000ULL);
    EXPECT_TRUE(d.summary.fits);
    const std::string table = formatSummaryTable(s, d.summary);
    EXPECT_NE(table.find("6 GB    6.75 GB      16 GB   yes"), std::string::npos) << table;
}
