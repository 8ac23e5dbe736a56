// Record files -> RunResult: clock alignment, matching across ranks, wait attribution, compute,
// busbw, a rank that stopped early, a mismatched collective and a missing rank, against figures
// worked out by hand from the records (profile_records.h).
#include "profile_records.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/io/exporters.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_clock.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace shardlab {
namespace {

using test::RecordText;

constexpr std::uint64_t kCount = 1048576; // floats: 4,194,304 bytes

// Two ranks of communicator aa. Host times (ns): every bracket is 100 ns wide ([t, t + 100]) and
// the GPU reading is taken as its midpoint, so rank 0's GPU timer reads 5e9 ns ahead of its host,
// rank 1's 7e9. On the host clock:
//   #0: both arrive at 1,050 and end at 101,050 (a tie: nobody waited);
//   rank 0 computes 100 us, rank 1 150 us;
//   #1: rank 0 arrives at 201,050, rank 1 at 251,050 (last); both end at 301,050.
// Host times of rank 1 may be moved by `hostShift` (another host whose clock reads that much ahead).
std::vector<ProfileFile> twoRanks(double hostShift = 0, const std::string& host1 = "h", bool rank1Stops = false,
                                  const std::string& rank1Second = "AllReduce")
{
    RecordText f0("h", 100);
    f0.comm(0, "00000000000000aa", 0, 2)
        .coll(1, 0, 0, "AllReduce", kCount, 1000, 1100, 5e9 + 1050, 5e9 + 101050)
        .coll(3, 0, 1, "AllReduce", kCount, 201000, 201100, 5e9 + 201050, 5e9 + 301050);
    RecordText f1(host1, 101, hostShift, 1e18);
    f1.comm(0, "00000000000000aa", 1, 2)
        .coll(1, 0, 0, "AllReduce", kCount, 1000 + hostShift, 1100 + hostShift, 7e9 + 1050, 7e9 + 101050);
    if (!rank1Stops)
        f1.coll(3, 0, 1, rank1Second, kCount, 251000 + hostShift, 251100 + hostShift, 7e9 + 251050, 7e9 + 301050);
    auto a = parseProfileText(f0.text, "rank0.nccl-profile.jsonl");
    auto b = parseProfileText(f1.text, "rank1.nccl-profile.jsonl");
    EXPECT_TRUE(a) << a.error().message;
    EXPECT_TRUE(b) << b.error().message;
    return {*a, *b};
}

double sumOf(const RunResult& run, int rank, SpanKind kind)
{
    double us = 0;
    for (const Span& s : run.spans)
        if (s.rank == rank && s.kind == kind)
            us += s.durationUs();
    return us;
}

TEST(ProfileClock, BracketsGiveTheOffsetAndHalfTheNarrowestWidth)
{
    ProfiledOp a, b;
    a.hostNs = 1000;
    a.kernel = {{0, 1'700'000'000'000'001'050ull, std::nullopt, 1100}};
    b.hostNs = 5000;
    b.kernel = {{0, 1'700'000'000'000'005'020ull, std::nullopt, 5040}};
    const std::uint64_t base = earliestGpuReading({&a, &b});
    EXPECT_EQ(base, 1'700'000'000'000'001'050ull);
    const ClockMap map = gpuClockFromBrackets(kernelBrackets({&a, &b}, base));
    ASSERT_TRUE(map.valid());
    // The first half's bracket [1000, 1100] puts reading 1,050 (after the base: 0) at 1,050; the
    // readings are 3,970 ns apart (< 1 ms): one offset, so 5,020 after it -> 1,050 + 3,970 = 5,020.
    EXPECT_NEAR(map.toHostNs(sinceBase(1'700'000'000'000'005'020ull, base)), 5020, 1e-6);
    // The larger of the two halves' bounds: 100/2 and 40/2.
    EXPECT_NEAR(map.errorNs(), 50, 1e-6);
}

TEST(ProfileClock, HostsAreJoinedThroughTheirSystemClocks)
{
    ProfileFile ref, other;
    ref.host = "a";
    ref.startNs = 1000;
    ref.startRealNs = 1e9;
    other.host = "b";
    other.startNs = 9000;
    other.startRealNs = 1e9 + 3000; // 3,000 ns later in real time, 8,000 ns later on its monotonic clock
    const ProcessClockFit fit = hostClockFit(other, ref);
    // other - ref = (9000 - (1e9 + 3000)) - (1000 - 1e9) = 5000 ns = 5 us
    EXPECT_NEAR(fit.before.offsetUs, 5.0, 1e-9);
    EXPECT_NEAR(fit.toRoot(20.0), 15.0, 1e-9);
    other.host = "a";
    EXPECT_EQ(hostClockFit(other, ref).before.offsetUs, 0.0);
}

TEST(ProfileBuild, WaitsComputeAndLastArrivalFromTwoRanks)
{
    auto built = buildProfiledRun(twoRanks());
    ASSERT_TRUE(built) << built.error().message;
    const RunResult& run = built->run;
    EXPECT_EQ(run.mode, RunMode::Live);
    EXPECT_EQ(run.ranks, 2);
    ASSERT_EQ(run.collectives.size(), 2u);
    // Shifted to start at the first arrival (1,050 ns): #0 at 0, #1 at 250 us.
    EXPECT_EQ(run.collectives[0].lastArrival, -1); // a tie
    EXPECT_EQ(run.collectives[1].lastArrival, 1);
    EXPECT_NEAR(run.collectives[1].startUs, 250.0, 1e-6);
    EXPECT_NEAR(run.collectives[1].endUs, 300.0, 1e-6);
    EXPECT_NEAR(sumOf(run, 0, SpanKind::Wait), 50.0, 1e-6);
    EXPECT_NEAR(sumOf(run, 1, SpanKind::Wait), 0.0, 1e-6);
    EXPECT_NEAR(sumOf(run, 0, SpanKind::Compute), 100.0, 1e-6);
    EXPECT_NEAR(sumOf(run, 1, SpanKind::Compute), 150.0, 1e-6);
    EXPECT_NEAR(sumOf(run, 0, SpanKind::Comm), 150.0, 1e-6);
    EXPECT_NEAR(sumOf(run, 1, SpanKind::Comm), 150.0, 1e-6);
    for (const Span& s : run.spans)
        if (s.kind == SpanKind::Wait) {
            EXPECT_EQ(s.waitedFor, 1);
        }
    EXPECT_EQ(built->launch, "2 processes on 1 host");
    EXPECT_NE(english(run.clockNote).find("residual error <= 0.05 us"), std::string::npos) << english(run.clockNote);

    const Summary sum = summarize(built->scenario, run);
    EXPECT_NEAR(sum.stepTimeMs, 0.3, 1e-9);
    ASSERT_TRUE(sum.straggler.has_value());
    EXPECT_EQ(*sum.straggler, 1);
    ASSERT_EQ(sum.collectives.size(), 2u);
    // #1: 4,194,304 bytes in 50 us = 83.886 GB/s; all-reduce of 2: busbw = algbw x 2(2-1)/2.
    const CollectiveFigures& c1 = sum.collectives[1];
    EXPECT_EQ(c1.bytes, 4194304u);
    EXPECT_NEAR(c1.algbwGBps, 4194304 / 50e-6 / 1e9, 1e-6);
    EXPECT_NEAR(c1.busbwGBps, 4194304 / 50e-6 / 1e9, 1e-6);
    EXPECT_NEAR(sum.collectives[0].algbwGBps, 4194304 / 100e-6 / 1e9, 1e-6);
    // Only seen on these GPUs: no one-GPU time, so no speed-up; buffers not seen, so no memory.
    EXPECT_EQ(built->scenario.strategy, kObservedStrategy);
    EXPECT_FALSE(sum.hasSpeedup);
    EXPECT_EQ(sum.speedupNoteMessage.id, "summary.no_speedup.observed");
    EXPECT_FALSE(sum.memoryKnown);
    EXPECT_FALSE(sum.oneGpuKnown);
    const std::string table = formatSummaryTable(built->scenario, sum);
    EXPECT_EQ(table.find(" 0 B "), std::string::npos) << table;
    EXPECT_NE(table.find("one GPU - ms | speed-up - | efficiency -"), std::string::npos) << table;
    EXPECT_TRUE(nlohmann::json::parse(summaryJson(sum))["one_gpu_ms"].is_null());
}

TEST(ProfileBuild, AnotherHostsClockIsMovedOntoRankZeros)
{
    // Rank 1 on host g whose monotonic clock reads 3 us ahead of h's for the same real time: its
    // host times are 3,000 ns later, and the run is the same.
    auto built = buildProfiledRun(twoRanks(3000, "g"));
    ASSERT_TRUE(built) << built.error().message;
    EXPECT_NEAR(built->run.collectives[1].startUs, 250.0, 1e-6);
    EXPECT_NEAR(sumOf(built->run, 0, SpanKind::Wait), 50.0, 1e-6);
    EXPECT_EQ(built->launch, "2 processes on 2 hosts");
    EXPECT_NE(english(built->run.clockNote).find("system clocks"), std::string::npos);
}

TEST(ProfileBuild, ARankThatStoppedEarlyLeavesAHangReport)
{
    auto built = buildProfiledRun(twoRanks(0, "h", true));
    ASSERT_TRUE(built) << built.error().message;
    const RunResult& run = built->run;
    ASSERT_EQ(run.collectives.size(), 1u); // #1 never completed on rank 1
    ASSERT_TRUE(run.hang.has_value());
    EXPECT_EQ(run.hang->lastCompleted[1], 0);
    EXPECT_NE(run.hang->pending[1].find("record ends"), std::string::npos);
    bool noted = false;
    for (const std::string& n : english(run.notes))
        noted = noted || n.find("end early") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST(ProfileBuild, AMismatchedCollectiveIsNamed)
{
    auto built = buildProfiledRun(twoRanks(0, "h", false, "AllGather"));
    ASSERT_FALSE(built);
    // Each rank and its process named, with what each recorded (issue 30).
    EXPECT_NE(built.error().message.find(
                  "the ranks disagree about AllReduce #1 of communicator 00000000000000aa (ranks 0,1): "
                  "rank 0 (h pid 100) recorded AllReduce #1, 1048576 x ncclFloat32; rank 1 (h pid 101) has "
                  "no record of it, and its next call there is AllGather #1, 1048576 x ncclFloat32"),
              std::string::npos)
        << built.error().message;
}

// The straggler is the rank whose late arrivals cost the others the most waiting, as waited: a
// broadcast's root that NCCL lets go at once does not wait for a late receiver (issue 30: a
// pipeline's sends, DDP's buffer broadcasts). Both ranks' GPU timers read their host clock
// (brackets of 100 ns, the reading at the midpoint), in ns:
//   broadcast #0 (root 0): rank 0 arrives at 1,050 and is done at 2,050; rank 1 arrives at 101,050
//     (last, 100 us after rank 0) and ends at 102,050: rank 0 waited 1 us, not 100;
//   all-reduce #0: rank 1 arrives at 250,050, rank 0 at 300,050 (last): rank 1 waits 50 us.
// Rank 0's lateness cost 50 us of waiting, rank 1's 1 us: rank 0 is the straggler (the gap
// between the arrivals named rank 1: 100 us against 50).
TEST(ProfileBuild, TheStragglerIsWhoseLatenessWasWaitedFor)
{
    RecordText f0("h", 100), f1("h", 101);
    f0.comm(0, "00000000000000dd", 0, 2)
        .coll(1, 0, 0, "Broadcast", kCount, 1000, 1100, 1050, 2050)
        .coll(3, 0, 0, "AllReduce", kCount, 300000, 300100, 300050, 400050);
    f1.comm(0, "00000000000000dd", 1, 2)
        .coll(1, 0, 0, "Broadcast", kCount, 101000, 101100, 101050, 102050)
        .coll(3, 0, 0, "AllReduce", kCount, 250000, 250100, 250050, 400050);
    auto built = buildProfiledRun({*parseProfileText(f0.text, "a"), *parseProfileText(f1.text, "b")});
    ASSERT_TRUE(built) << built.error().message;
    const RunResult& run = built->run;
    ASSERT_EQ(run.collectives.size(), 2u);
    EXPECT_EQ(run.collectives[0].lastArrival, 1);
    EXPECT_EQ(run.collectives[1].lastArrival, 0);
    EXPECT_NEAR(sumOf(run, 0, SpanKind::Wait), 1.0, 1e-6);
    EXPECT_NEAR(sumOf(run, 1, SpanKind::Wait), 50.0, 1e-6);
    const Summary sum = summarize(built->scenario, run);
    ASSERT_TRUE(sum.straggler.has_value());
    EXPECT_EQ(*sum.straggler, 0);
}

TEST(ProfileBuild, AMissingRankIsNamed)
{
    auto files = twoRanks();
    files.pop_back();
    auto built = buildProfiledRun(files);
    ASSERT_FALSE(built);
    EXPECT_NE(built.error().message.find("rank 1 of the 2-rank communicator 00000000000000aa left no record"),
              std::string::npos)
        << built.error().message;
}

TEST(ProfileBuild, OneRankCommunicatorsAreExplained)
{
    RecordText f("h", 1);
    f.comm(0, "00000000000000bb", 0, 1);
    auto file = parseProfileText(f.text, "one.nccl-profile.jsonl");
    ASSERT_TRUE(file);
    auto built = buildProfiledRun({*file});
    ASSERT_FALSE(built);
    EXPECT_NE(built.error().message.find("one rank"), std::string::npos) << built.error().message;
}

TEST(ProfileBuild, SizesFollowNcclTests)
{
    // All-gather's count is each rank's piece: nccl-tests' size is the gathered whole.
    RecordText f0("h", 1), f1("h", 2);
    f0.comm(0, "00000000000000cc", 0, 2).coll(1, 0, 0, "AllGather", 1000, 1000, 1100, 1050, 11050, "ncclBfloat16");
    f1.comm(0, "00000000000000cc", 1, 2).coll(1, 0, 0, "AllGather", 1000, 1000, 1100, 1050, 11050, "ncclBfloat16");
    auto built = buildProfiledRun({*parseProfileText(f0.text, "a"), *parseProfileText(f1.text, "b")});
    ASSERT_TRUE(built) << built.error().message;
    EXPECT_EQ(built->run.collectives[0].bytes, 4000u); // 1000 x 2 bytes x 2 ranks
    EXPECT_EQ(built->run.collectives[0].kind, OpKind::AllGather);
}

TEST(ProfileBuild, TheFuzzCorpusSampleIsAWholeProfile)
{
    // One process, two ranks, one channel each: each rank's only bracket places its GPU reading
    // at the bracket's midpoint. A send whose receive was not recorded is not drawn: the run
    // notes that records end early.
    auto file =
        readProfileFile(std::string(SHARDLAB_SOURCE_DIR) + "/tests/fuzz/corpus-profile/two-ranks.nccl-profile.jsonl");
    ASSERT_TRUE(file) << file.error().message;
    auto built = buildProfiledRun({*file});
    ASSERT_TRUE(built) << built.error().message;
    ASSERT_EQ(built->run.collectives.size(), 1u);
    // rank 0 arrives at 1,050 (bracket [1000, 1100]); rank 1 at 20,550 (bracket [20000, 21100],
    // +-550 ns: the tie), 19.5 us later.
    EXPECT_EQ(built->run.collectives[0].lastArrival, 1);
    EXPECT_NEAR(built->run.collectives[0].arrivalUs[1] - built->run.collectives[0].arrivalUs[0], 19.5, 1e-6);
    ASSERT_EQ(built->run.notes.size(), 1u);
    EXPECT_NE(english(built->run.notes[0]).find("end early"), std::string::npos) << english(built->run.notes[0]);
}

} // namespace
} // namespace shardlab
