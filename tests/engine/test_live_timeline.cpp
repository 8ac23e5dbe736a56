// From measured stamps to spans and collective records (shardlab/live_timeline.h).
#include "shardlab/live_timeline.h"

#include <gtest/gtest.h>

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
    const HangReport h = explainLiveHang({3, 2, 3}, {"blocked in all_reduce #4", "finished iteration 1 and left", "blocked"},
                                         stuck, 1, 2000);
    EXPECT_EQ(h.firstMismatchRank, 1);
    EXPECT_EQ(h.lastCompleted, (std::vector<int>{3, 2, 3}));
    EXPECT_NE(h.explanation.find("2000 ms"), std::string::npos) << h.explanation;
    EXPECT_NE(h.explanation.find("rank 1 is the first that differs"), std::string::npos) << h.explanation;

    const std::vector<LivePendingCall> wrongOp = {{0, true, OpKind::AllReduce, 4096, 1},
                                                  {1, true, OpKind::AllReduce, 4096, 1},
                                                  {2, true, OpKind::AllGather, 4096, 1}};
    EXPECT_EQ(explainLiveHang({0, 0, 0}, {"a", "b", "c"}, wrongOp, 0, 10).firstMismatchRank, 2);
    EXPECT_EQ(explainLiveHang({0, 0}, {"a", "b"}, {}, 0, 10).firstMismatchRank, -1);
}
