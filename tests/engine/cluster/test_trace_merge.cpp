// Trace merge (trace_merge.h): a simulated run split into per-process parts on different clocks
// and merged back must be the run it came from; and the merge's checks.
#include "../rank_parts.h"
#include "../test_helpers.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/io/exporters.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

using namespace shardlab;
using shardlab::test::partOf;
using shardlab::test::simulated;

namespace {

std::vector<RankPart> split(const RunResult& whole, const std::vector<double>& offsets)
{
    std::vector<RankPart> parts;
    for (int r = 0; r < whole.ranks; ++r)
        parts.push_back(partOf(whole, r, offsets[static_cast<size_t>(r) % offsets.size()]));
    return parts;
}

std::vector<Span> sorted(std::vector<Span> spans)
{
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
        return std::tie(a.rank, a.beginUs, a.stream, a.kind) < std::tie(b.rank, b.beginUs, b.stream, b.kind);
    });
    return spans;
}

const CollectiveRecord* find(const RunResult& run, const std::vector<int>& group, int sequence)
{
    for (const CollectiveRecord& c : run.collectives)
        if (c.group == group && c.sequence == sequence)
            return &c;
    return nullptr;
}

// Everything the merge promises to restore, field by field.
void expectSameRun(const RunResult& merged, const RunResult& whole)
{
    ASSERT_EQ(merged.ranks, whole.ranks);
    EXPECT_EQ(merged.devices, whole.devices);
    EXPECT_EQ(merged.peakMemory, whole.peakMemory);
    ASSERT_EQ(merged.collectives.size(), whole.collectives.size());
    for (const CollectiveRecord& w : whole.collectives) {
        const CollectiveRecord* m = find(merged, w.group, w.sequence);
        ASSERT_NE(m, nullptr) << "sequence " << w.sequence;
        EXPECT_EQ(m->kind, w.kind);
        EXPECT_EQ(m->op, w.op);
        EXPECT_EQ(m->bytes, w.bytes);
        EXPECT_EQ(m->lastArrival, w.lastArrival) << "sequence " << w.sequence;
        EXPECT_NEAR(m->startUs, w.startUs, 1e-6);
        EXPECT_NEAR(m->endUs, w.endUs, 1e-6);
        for (size_t k = 0; k < w.arrivalUs.size(); ++k)
            EXPECT_NEAR(m->arrivalUs[k], w.arrivalUs[k], 1e-6);
    }
    const auto ms = sorted(merged.spans), ws = sorted(whole.spans);
    ASSERT_EQ(ms.size(), ws.size());
    for (size_t i = 0; i < ms.size(); ++i) {
        EXPECT_EQ(ms[i].rank, ws[i].rank) << i;
        EXPECT_EQ(ms[i].kind, ws[i].kind) << i << " rank " << ws[i].rank << " at " << ws[i].beginUs;
        EXPECT_EQ(ms[i].stream, ws[i].stream) << i;
        EXPECT_NEAR(ms[i].beginUs, ws[i].beginUs, 1e-6) << i;
        EXPECT_NEAR(ms[i].endUs, ws[i].endUs, 1e-6) << i;
        EXPECT_EQ(ms[i].op, ws[i].op) << i;
        EXPECT_EQ(ms[i].iteration, ws[i].iteration) << i;
        EXPECT_EQ(ms[i].waitedFor, ws[i].waitedFor) << i;
        if (ws[i].collective >= 0) {
            ASSERT_GE(ms[i].collective, 0);
            const CollectiveRecord& wc = whole.collectives[static_cast<size_t>(ws[i].collective)];
            const CollectiveRecord& mc = merged.collectives[static_cast<size_t>(ms[i].collective)];
            EXPECT_EQ(std::tie(wc.group, wc.sequence), std::tie(mc.group, mc.sequence)) << i;
        }
    }
    ASSERT_EQ(merged.iterations.size(), whole.iterations.size());
    for (size_t i = 0; i < whole.iterations.size(); ++i) {
        EXPECT_NEAR(merged.iterations[i].beginUs, whole.iterations[i].beginUs, 1e-6);
        EXPECT_NEAR(merged.iterations[i].endUs, whole.iterations[i].endUs, 1e-6);
    }
}

MergeOptions exact()
{
    MergeOptions o;
    o.tieUs = 1e-9; // the simulator's own tie
    o.startAtZero = false;
    return o;
}

} // namespace

TEST(TraceMerge, StragglerRunComesBackWhole)
{
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    const RunResult whole = simulated(s);
    ASSERT_FALSE(whole.collectives.empty());
    auto merged = mergeRankParts(split(whole, {0, 1.5e9, -3.25e6, 777.125}), exact());
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    expectSameRun(*merged, whole);
    // The figures users see are the same.
    const Summary a = summarize(s, whole), b = summarize(s, *merged);
    EXPECT_NEAR(a.stepTimeMs, b.stepTimeMs, 1e-9);
    EXPECT_EQ(a.straggler, b.straggler);
    EXPECT_EQ(a.bottleneck, b.bottleneck);
    for (size_t r = 0; r < a.perRank.size(); ++r) {
        EXPECT_NEAR(a.perRank[r].waitMs, b.perRank[r].waitMs, 1e-9);
        EXPECT_NEAR(a.perRank[r].commMs, b.perRank[r].commMs, 1e-9);
    }
    ASSERT_EQ(a.collectives.size(), b.collectives.size());
    for (size_t i = 0; i < a.collectives.size(); ++i)
        EXPECT_NEAR(a.collectives[i].busbwGBps, b.collectives[i].busbwGBps, 1e-6);
}

// A process's notes (its live plan scaled the collectives, its watchdog was raised) reach the
// merged run, each once: the merged figures are measured at those sizes too.
TEST(TraceMerge, EveryProcesssNotesReachTheMergedRunOnce)
{
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    const RunResult whole = simulated(s);
    std::vector<RankPart> parts = split(whole, {0, 1.5e9, -3.25e6, 777.125});
    const Message scaled = Message("live.note.watchdog_raised").with("deadline", "10 s");
    const Message other = verbatim("a note of rank 2 alone");
    parts[0].run.notes = {scaled};
    parts[1].run.notes = {scaled};
    parts[2].run.notes = {other, scaled};
    auto merged = mergeRankParts(std::move(parts), exact());
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    EXPECT_EQ(merged->notes, (std::vector<Message>{scaled, other}));
}

TEST(TraceMerge, OverlappedBucketsComeBackWhole)
{
    // Bucketed all-reduce on the communication stream while the backward pass computes.
    const Scenario s = test::loadExample("default.shardlab.json");
    const RunResult whole = simulated(s);
    auto merged = mergeRankParts(split(whole, {0, -42.5, 1e7, 3}), exact());
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    expectSameRun(*merged, whole);
}

TEST(TraceMerge, StartsAtZeroAndTheTraceIsTheSame)
{
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    const RunResult whole = simulated(s);
    MergeOptions o = exact();
    o.startAtZero = true;
    auto merged = mergeRankParts(split(whole, {5e6, 6e6, 7e6, 8e6}), o);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    double first = 1e300;
    for (const Span& sp : merged->spans)
        first = std::min(first, sp.beginUs);
    EXPECT_DOUBLE_EQ(first, 0);
    // The simulated run starts at 0 too: the same spans (as CSV rows) and as many trace events.
    auto lines = [](const std::string& t) {
        std::vector<std::string> v;
        size_t p = 0;
        for (size_t q; (q = t.find('\n', p)) != std::string::npos; p = q + 1)
            v.push_back(t.substr(p, q - p));
        std::sort(v.begin(), v.end());
        return v;
    };
    EXPECT_EQ(lines(spansCsv(s, *merged)), lines(spansCsv(s, whole)));
    EXPECT_EQ(lines(chromeTrace(s, *merged)).size(), lines(chromeTrace(s, whole)).size());
}

TEST(TraceMerge, ClockErrorBelowTheTieNamesNobody)
{
    // Two ranks arriving 0.4 us apart with clocks known only to within 1 us: nobody was last.
    RunResult whole;
    whole.ranks = 2;
    whole.devices = {"G", "G"};
    CollectiveRecord c;
    c.group = {0, 1};
    c.arrivalUs = {100.0, 100.4};
    c.startUs = 100.4;
    c.endUs = 150;
    c.lastArrival = 1;
    whole.collectives.push_back(c);
    whole.spans.push_back(
        {.rank = 0, .kind = SpanKind::Wait, .beginUs = 100, .endUs = 100.4, .collective = 0, .waitedFor = 1});
    whole.spans.push_back({.rank = 0, .kind = SpanKind::Comm, .beginUs = 100.4, .endUs = 150, .collective = 0});
    whole.spans.push_back({.rank = 1, .kind = SpanKind::Comm, .beginUs = 100.4, .endUs = 150, .collective = 0});
    whole.iterations.push_back({0, 150});
    MergeOptions o;
    o.tieUs = 1.0;
    auto merged = mergeRankParts(split(whole, {0, 10}), o);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    EXPECT_EQ(merged->collectives[0].lastArrival, -1);
    for (const Span& sp : merged->spans)
        EXPECT_NE(sp.kind, SpanKind::Wait);
    // With exact clocks the 0.4 us wait is real.
    auto sharp = mergeRankParts(split(whole, {0, 10}), exact());
    ASSERT_TRUE(sharp.ok());
    EXPECT_EQ(sharp->collectives[0].lastArrival, 1);
}

TEST(TraceMerge, RecordsThatDisagreeAreAnError)
{
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    auto parts = split(simulated(s), {0});
    parts[2].run.collectives[0].bytes += 1;
    auto merged = mergeRankParts(parts, exact());
    ASSERT_FALSE(merged.ok());
    EXPECT_NE(merged.error().message.find("the ranks disagree about collective #0"), std::string::npos)
        << merged.error().message;
    EXPECT_NE(merged.error().message.find("rank 2 recorded"), std::string::npos);
    // Both sides named by their rank (issue 30: it said "one process recorded").
    EXPECT_NE(merged.error().message.find(": rank 0 recorded all_reduce #0"), std::string::npos)
        << merged.error().message;
}

TEST(TraceMerge, AMissingRecordOrRankIsAnError)
{
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    auto parts = split(simulated(s), {0});
    auto lastGone = parts;
    lastGone[3].run.collectives.pop_back();
    std::erase_if(lastGone[3].run.spans, [&](const Span& sp) {
        return sp.collective == static_cast<int>(lastGone[3].run.collectives.size());
    });
    auto merged = mergeRankParts(lastGone, exact());
    ASSERT_FALSE(merged.ok());
    EXPECT_NE(merged.error().message.find("rank 3 has no record of"), std::string::npos) << merged.error().message;

    auto noRank = parts;
    noRank.pop_back();
    merged = mergeRankParts(noRank, exact());
    ASSERT_FALSE(merged.ok());
    EXPECT_NE(merged.error().message.find("no process sent the part of rank 3"), std::string::npos);

    auto twice = parts;
    twice[1].ranks = {0};
    EXPECT_FALSE(mergeRankParts(twice, exact()).ok());

    auto foreign = parts;
    foreign[1].run.spans.push_back({.rank = 2, .kind = SpanKind::Compute, .beginUs = 0, .endUs = 1});
    merged = mergeRankParts(foreign, exact());
    ASSERT_FALSE(merged.ok());
    EXPECT_NE(merged.error().message.find("sent a span of rank 2"), std::string::npos) << merged.error().message;
}

TEST(TraceMerge, HangReportsAreCombined)
{
    // Rank 1 stopped after its first collective; the others report a hang at the second.
    RunResult whole;
    whole.ranks = 3;
    whole.devices = {"G", "G", "G"};
    CollectiveRecord c;
    c.group = {0, 1, 2};
    c.arrivalUs = {10, 12, 11};
    c.startUs = 12;
    c.endUs = 20;
    c.lastArrival = 1;
    whole.collectives.push_back(c);
    whole.iterations.push_back({0, 20});
    auto parts = split(whole, {0, 0, 0});
    // ranks 0 and 2 also recorded collective #1, which rank 1 never reached
    for (int r : {0, 2}) {
        CollectiveRecord next = parts[static_cast<size_t>(r)].run.collectives[0];
        next.sequence = 1;
        next.arrivalUs[static_cast<size_t>(r)] = 30;
        parts[static_cast<size_t>(r)].run.collectives.push_back(next);
        HangReport h;
        h.lastCompleted = {-1, -1, -1};
        h.pending = {"", "", ""};
        h.lastCompleted[static_cast<size_t>(r)] = 1;
        h.pending[static_cast<size_t>(r)] = "in all_reduce #2";
        h.explanation = "the watchdog fired";
        parts[static_cast<size_t>(r)].run.hang = h;
    }
    HangReport h1;
    h1.lastCompleted = {-1, 0, -1};
    h1.pending = {"", "computing", ""};
    h1.explanation = "the watchdog fired";
    parts[1].run.hang = h1;
    auto merged = mergeRankParts(parts, exact());
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    ASSERT_TRUE(merged->hang.has_value());
    EXPECT_EQ(merged->hang->lastCompleted, (std::vector<int>{1, 0, 1}));
    EXPECT_EQ(merged->hang->pending[1], "computing");
    EXPECT_EQ(merged->hang->firstMismatchRank, 1);
    EXPECT_NE(merged->hang->explanation.find("rank 1 is behind"), std::string::npos) << merged->hang->explanation;
    // the merged report is worded in Chinese: the merge's own sentence, and each process's English
    // where it had no Message ("the watchdog fired", an older part)
    EXPECT_EQ(english(merged->hang->explanationMessage()), merged->hang->explanation);
    const std::string zh = render(merged->hang->explanationMessage(), Language::Chinese);
    EXPECT_NE(zh.find("Rank 1 落后了"), std::string::npos) << zh;
    EXPECT_NE(zh.find("the watchdog fired"), std::string::npos) << zh;
    EXPECT_EQ(merged->collectives.size(), 1u); // the incomplete one cannot be drawn
}
