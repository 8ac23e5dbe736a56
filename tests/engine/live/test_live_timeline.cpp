// From measured stamps to spans and collective records (shardlab/live_timeline.h).
#include "../test_helpers.h"

#include "shardlab/cluster/trace_merge.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/live/live_timeline.h"

#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

using namespace shardlab;

namespace {
const Span* find(const RunResult& r, int rank, SpanKind kind)
{
    for (const Span& s : r.spans)
        if (s.rank == rank && s.kind == kind)
            return &s;
    return nullptr;
}
} // namespace

TEST(LiveTimeline, TheLastArrivalStartsTheCollectiveAndOthersWait)
{
    // rank 1 computes 30 us, rank 0 10 us; the all-reduce ends at 45 on rank 0 and 46 on rank 1
    std::vector<LivePhase> phases = {{0, 0, SpanKind::Compute, SpanDetail::None, 0, 0, 0, -1, 0, 10},
                                     {1, 0, SpanKind::Compute, SpanDetail::None, 0, 0, 0, -1, 0, 30}};
    LiveCollective c;
    c.op = 1;
    c.kind = OpKind::AllReduce;
    c.bytes = 1 << 20;
    c.group = {0, 1};
    c.streams = {0, 0};
    c.arrivalUs = {10, 30};
    c.endUs = {45, 46};
    RunResult run;
    assembleTimeline(run, phases, {c}, 1.0);
    ASSERT_EQ(run.collectives.size(), 1u);
    const CollectiveRecord& rec = run.collectives[0];
    EXPECT_DOUBLE_EQ(rec.startUs, 30);
    EXPECT_DOUBLE_EQ(rec.endUs, 46);
    EXPECT_EQ(rec.lastArrival, 1);
    EXPECT_EQ(rec.arrivalUs, (std::vector<double>{10, 30}));
    const Span* wait = find(run, 0, SpanKind::Wait);
    ASSERT_NE(wait, nullptr);
    EXPECT_DOUBLE_EQ(wait->beginUs, 10);
    EXPECT_DOUBLE_EQ(wait->endUs, 30);
    EXPECT_EQ(wait->waitedFor, 1);
    EXPECT_EQ(find(run, 1, SpanKind::Wait), nullptr);
    const Span* comm = find(run, 0, SpanKind::Comm);
    ASSERT_NE(comm, nullptr);
    EXPECT_DOUBLE_EQ(comm->beginUs, 30);
    EXPECT_DOUBLE_EQ(comm->endUs, 45);
    EXPECT_EQ(comm->collective, 0);
    EXPECT_DOUBLE_EQ(find(run, 1, SpanKind::Compute)->durationUs(), 30);
}

TEST(LiveTimeline, ArrivalsWithinTheClockErrorAreSimultaneous)
{
    LiveCollective c;
    c.group = {0, 1, 2};
    c.streams = {1, 1, 1};
    c.arrivalUs = {100, 100.8, 100.3};
    c.endUs = {120, 120, 120};
    RunResult run;
    assembleTimeline(run, {}, {c}, 1.0);
    EXPECT_EQ(run.collectives[0].lastArrival, -1);
    EXPECT_DOUBLE_EQ(run.collectives[0].startUs, 100.8);
    // the small waits are still drawn, on the communication stream, naming nobody
    const Span* wait = find(run, 0, SpanKind::Wait);
    ASSERT_NE(wait, nullptr);
    EXPECT_EQ(wait->stream, 1);
    EXPECT_EQ(wait->waitedFor, -1);
}

TEST(LiveTimeline, ExposedCommunicationPointsAtItsCollective)
{
    LiveCollective c;
    c.group = {0};
    c.streams = {1};
    c.arrivalUs = {5};
    c.endUs = {50};
    std::vector<LivePhase> phases = {{0, 0, SpanKind::Comm, SpanDetail::None, 2, 0, 0, 0, 40, 50}};
    RunResult run;
    run.collectives.resize(3); // records from earlier: indices shift
    assembleTimeline(run, phases, {c}, 1.0);
    const Span* exposed = nullptr;
    for (const Span& s : run.spans)
        if (s.stream == 0 && s.kind == SpanKind::Comm)
            exposed = &s;
    ASSERT_NE(exposed, nullptr);
    EXPECT_EQ(exposed->collective, 3);
}

TEST(LiveTimeline, HangReportNamesTheRankThatDiffers)
{
    const std::vector<LivePendingCall> stuck = {{0, true, OpKind::AllReduce, 4096, 1},
                                                {1, false, OpKind::AllReduce, 4096, 1},
                                                {2, true, OpKind::AllReduce, 4096, 1}};
    const HangReport h = explainLiveHang(
        {3, 2, 3}, {"blocked in all_reduce #4", "finished iteration 1 and left", "blocked"}, stuck, 1, 2000);
    EXPECT_EQ(h.firstMismatchRank, 1);
    EXPECT_EQ(h.lastCompleted, (std::vector<int>{3, 2, 3}));
    EXPECT_NE(h.explanation.find("2000 ms"), std::string::npos) << h.explanation;
    EXPECT_NE(h.explanation.find("rank 1 is the first that differs"), std::string::npos) << h.explanation;
    EXPECT_EQ(english(h.explanationMessage()), h.explanation);
    // worded in Chinese too, with the same figures; a pending text without a Message is quoted as it is
    const std::string zh = render(h.explanationMessage(), Language::Chinese);
    EXPECT_NE(zh.find("2000 ms"), std::string::npos) << zh;
    EXPECT_NE(zh.find("Rank 1 是第一个与其他成员不一致的（finished iteration 1 and left）"), std::string::npos) << zh;
    const HangReport worded =
        explainLiveHang({3, 2, 3}, {"a", "finished iteration 2 and left", "c"}, stuck, 1, 2000,
                        {verbatim("a"), Message("hang.pending.left").with("iteration", 2), verbatim("c")});
    EXPECT_EQ(worded.explanation,
              "the watchdog aborted the run in iteration 2 after a collective made no progress for 2000 ms; "
              "rank 1 is the first that differs (finished iteration 2 and left)");
    const std::string zhWorded = render(worded.explanationMessage(), Language::Chinese);
    EXPECT_EQ(untranslatedWords(zhWorded), std::vector<std::string>{}) << zhWorded;
    EXPECT_NE(zhWorded.find("已完成第 2 次迭代并退出"), std::string::npos) << zhWorded;
    EXPECT_EQ(render(worded.pendingMessage(1), Language::Chinese), "已完成第 2 次迭代并退出");

    const std::vector<LivePendingCall> wrongOp = {{0, true, OpKind::AllReduce, 4096, 1},
                                                  {1, true, OpKind::AllReduce, 4096, 1},
                                                  {2, true, OpKind::AllGather, 4096, 1}};
    EXPECT_EQ(explainLiveHang({0, 0, 0}, {"a", "b", "c"}, wrongOp, 0, 10).firstMismatchRank, 2);
    EXPECT_EQ(explainLiveHang({0, 0}, {"a", "b"}, {}, 0, 10).firstMismatchRank, -1);
}

TEST(LiveTimeline, ARankPartKeepsItsOwnArrivalAndOneCommSpan)
{
    // Rank 1's part of the first test's all-reduce: rank 0's arrival and end are another process's.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    LiveCollective c;
    c.op = 1;
    c.kind = OpKind::AllReduce;
    c.bytes = 1 << 20;
    c.group = {0, 1};
    c.streams = {0, 1};
    c.arrivalUs = {nan, 30};
    c.endUs = {nan, 46};
    c.wrong = 2;
    LiveCollective notMine = c; // a collective no member of this process measured
    notMine.arrivalUs = {nan, nan};
    RunResult run;
    run.ranks = 2;
    assembleRankPart(run, {{1, 0, SpanKind::Compute, SpanDetail::None, 0, 0, 0, -1, 0, 30}}, {c, notMine});
    ASSERT_EQ(run.collectives.size(), 1u);
    const CollectiveRecord& rec = run.collectives[0];
    EXPECT_DOUBLE_EQ(rec.startUs, 30);
    EXPECT_DOUBLE_EQ(rec.endUs, 46);
    EXPECT_EQ(rec.lastArrival, -1);
    EXPECT_TRUE(std::isnan(rec.arrivalUs[0]));
    EXPECT_EQ(rec.wrongElements, 2);
    const Span* comm = find(run, 1, SpanKind::Comm);
    ASSERT_NE(comm, nullptr);
    EXPECT_DOUBLE_EQ(comm->beginUs, 30);
    EXPECT_DOUBLE_EQ(comm->endUs, 46);
    EXPECT_EQ(comm->stream, 1);
    EXPECT_EQ(comm->collective, 0);
    EXPECT_EQ(find(run, 1, SpanKind::Wait), nullptr) << "a part cannot know whom it waited for";
    EXPECT_EQ(find(run, 0, SpanKind::Comm), nullptr);
}

TEST(LiveTimeline, MergedRankPartsEqualTheSingleProcessTimeline)
{
    // The same measurements assembled once whole and once as two processes' parts, then merged at
    // rank 0 (clocks already aligned): the same records and spans.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<LivePhase> phases = {{0, 0, SpanKind::Compute, SpanDetail::None, 0, 0, 0, -1, 0, 10},
                                     {1, 0, SpanKind::Compute, SpanDetail::None, 0, 0, 0, -1, 0, 30},
                                     {0, 0, SpanKind::Compute, SpanDetail::None, 0, 0, 0, -1, 46, 60},
                                     {1, 0, SpanKind::Compute, SpanDetail::None, 0, 0, 0, -1, 47, 52}};
    std::vector<LiveCollective> colls(2);
    for (int i = 0; i < 2; ++i) {
        colls[static_cast<size_t>(i)].op = 1;
        colls[static_cast<size_t>(i)].sequence = i;
        colls[static_cast<size_t>(i)].group = {0, 1};
        colls[static_cast<size_t>(i)].streams = {0, 0};
    }
    colls[0].arrivalUs = {10, 30};
    colls[0].endUs = {45, 46};
    colls[1].arrivalUs = {60, 52};
    colls[1].endUs = {80, 81};
    RunResult whole;
    whole.mode = RunMode::Live;
    whole.ranks = 2;
    assembleTimeline(whole, phases, colls, 1.0);
    std::vector<RankPart> parts;
    for (int r = 0; r < 2; ++r) {
        RankPart p;
        p.ranks = {r};
        p.clock = exactClock(0);
        p.run.mode = RunMode::Live;
        p.run.ranks = 2;
        std::vector<LivePhase> mine;
        for (const LivePhase& ph : phases)
            if (ph.rank == r)
                mine.push_back(ph);
        std::vector<LiveCollective> seen = colls;
        for (LiveCollective& c : seen) {
            c.arrivalUs[static_cast<size_t>(1 - r)] = nan;
            c.endUs[static_cast<size_t>(1 - r)] = nan;
        }
        assembleRankPart(p.run, mine, seen);
        parts.push_back(p);
    }
    MergeOptions mo;
    mo.tieUs = 1.0;
    mo.startAtZero = false;
    auto merged = mergeRankParts(parts, mo);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    ASSERT_EQ(merged->collectives.size(), whole.collectives.size());
    for (size_t i = 0; i < whole.collectives.size(); ++i) {
        EXPECT_DOUBLE_EQ(merged->collectives[i].startUs, whole.collectives[i].startUs);
        EXPECT_DOUBLE_EQ(merged->collectives[i].endUs, whole.collectives[i].endUs);
        EXPECT_EQ(merged->collectives[i].lastArrival, whole.collectives[i].lastArrival);
    }
    ASSERT_EQ(merged->spans.size(), whole.spans.size());
    for (size_t i = 0; i < whole.spans.size(); ++i) {
        const Span &a = merged->spans[i], &b = whole.spans[i];
        EXPECT_EQ(a.rank, b.rank);
        EXPECT_EQ(a.kind, b.kind) << i;
        EXPECT_DOUBLE_EQ(a.beginUs, b.beginUs) << i;
        EXPECT_DOUBLE_EQ(a.endUs, b.endUs) << i;
        EXPECT_EQ(a.waitedFor, b.waitedFor) << i;
    }
}

namespace {

// Three iterations of two ranks measured on one clock: compute, an all-reduce (rank 1 arrives
// last, later by less each time), and rank 0's compute stream waiting 1 us for the
// communication stream after it (exposed communication, pointing at the collective).
struct Measured {
    std::vector<LivePhase> phases;
    std::vector<LiveCollective> collectives;
    std::vector<IterationMark> marks;
};

Measured threeIterationsOfTwoRanks()
{
    Measured m;
    for (int it = 0; it < 3; ++it) {
        const double base = 100.0 * it;
        const int c = static_cast<int>(m.collectives.size());
        m.phases.push_back({0, 0, SpanKind::Compute, SpanDetail::None, 0, it, 0, -1, base, base + 10});
        m.phases.push_back({1, 0, SpanKind::Compute, SpanDetail::None, 0, it, 0, -1, base, base + 30 - 5 * it});
        m.phases.push_back({0, 0, SpanKind::Comm, SpanDetail::None, 1, it, 0, c, base + 46, base + 47});
        LiveCollective coll;
        coll.op = 1;
        coll.iteration = it;
        coll.sequence = it;
        coll.bytes = 1 << 20;
        coll.group = {0, 1};
        coll.streams = {1, 1};
        coll.arrivalUs = {base + 10, base + 30 - 5 * it};
        coll.endUs = {base + 45, base + 46};
        m.collectives.push_back(coll);
        m.marks.push_back({base, base + 47});
    }
    return m;
}

// The entries of iteration `it`, with phases pointing into that iteration's collectives.
Measured iterationOf(const Measured& all, int it)
{
    Measured m;
    std::vector<int> index(all.collectives.size(), -1);
    for (size_t i = 0; i < all.collectives.size(); ++i)
        if (all.collectives[i].iteration == it) {
            index[i] = static_cast<int>(m.collectives.size());
            m.collectives.push_back(all.collectives[i]);
        }
    for (LivePhase p : all.phases)
        if (p.iteration == it) {
            p.collective = p.collective >= 0 ? index[static_cast<size_t>(p.collective)] : -1;
            m.phases.push_back(p);
        }
    return m;
}

} // namespace

TEST(LiveTimeline, IterationByIterationIsTheWholeRunEntryForEntry)
{
    const Measured all = threeIterationsOfTwoRanks();
    RunResult whole;
    whole.mode = RunMode::Live;
    whole.ranks = 2;
    assembleTimeline(whole, all.phases, all.collectives, 1.0);
    RunResult stepwise = whole;
    stepwise.spans.clear();
    stepwise.collectives.clear();
    for (int it = 0; it < 3; ++it) {
        const Measured one = iterationOf(all, it);
        appendTimeline(stepwise, one.phases, one.collectives, 1.0);
    }
    EXPECT_EQ(serializeRunResult(stepwise), serializeRunResult(whole));
    // iteration by iteration: rank 0's spans of iteration 0 come before rank 1's, and both before iteration 1's
    ASSERT_EQ(whole.collectives.size(), 3u);
    for (size_t i = 1; i < whole.spans.size(); ++i)
        EXPECT_LE(whole.spans[i - 1].iteration, whole.spans[i].iteration) << i;
    // the exposed communication of iteration 2 points at iteration 2's record
    int exposed = 0;
    for (const Span& s : whole.spans)
        if (s.stream == 0 && s.kind == SpanKind::Comm) {
            ASSERT_GE(s.collective, 0);
            EXPECT_EQ(whole.collectives[static_cast<size_t>(s.collective)].iteration, s.iteration);
            ++exposed;
        }
    EXPECT_EQ(exposed, 3);
    // rank 1 was last each time, by 20, 15 and 10 us: above the 1 us tie
    for (int it = 0; it < 3; ++it)
        EXPECT_EQ(whole.collectives[static_cast<size_t>(it)].lastArrival, 1);
    EXPECT_DOUBLE_EQ(whole.collectives[2].startUs, 220);
}

TEST(LiveTimeline, ChunksSentAsIterationsCompleteAreTheFinalRun)
{
    // What `shardlab live --stream` does: each iteration appended and sent as it completes, then
    // the finished run's result line; the reader's run is the finished run, and nothing of it is
    // sent again at the end.
    const Measured all = threeIterationsOfTwoRanks();
    Scenario scenario = test::loadExample("lab-two-gpu-all-reduce.shardlab.json");
    scenario.iterations = 3;
    std::ostringstream out;
    RunStreamWriter writer(out);
    StreamHeader header;
    header.mode = RunMode::Live;
    header.scenario = scenario;
    ASSERT_TRUE(writer.header(header));
    RunResult soFar;
    soFar.mode = RunMode::Live;
    soFar.ranks = 2;
    for (int it = 0; it < 3; ++it) {
        const Measured one = iterationOf(all, it);
        appendTimeline(soFar, one.phases, one.collectives, 1.0);
        soFar.iterations.push_back(all.marks[static_cast<size_t>(it)]);
        ASSERT_TRUE(writer.chunk(soFar, it + 1, 3));
    }
    RunResult finished;
    finished.mode = RunMode::Live;
    finished.ranks = 2;
    assembleTimeline(finished, all.phases, all.collectives, 1.0);
    finished.iterations = all.marks;
    finished.devices = {"GPU 0", "GPU 1"};
    finished.peakMemory = {1 << 20, 1 << 20};
    finished.clockNote = verbatim("test clock");
    ASSERT_TRUE(writer.result(finished));
    std::istringstream lines(out.str());
    std::string line;
    int chunks = 0, total = 0;
    while (std::getline(lines, line)) {
        ++total;
        chunks += line.find("\"type\":\"chunk\"") != std::string::npos ? 1 : 0;
    }
    EXPECT_EQ(chunks, 3);
    EXPECT_EQ(total, 5); // header, three chunks, result
    auto read = readRunStream(out.str());
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(serializeRunResult(*read), serializeRunResult(finished));
}
