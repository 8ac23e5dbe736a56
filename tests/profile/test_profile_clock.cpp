// The GPU -> host clock of a profiled rank (profile_clock.h): the error it states covers every
// kernel-start bracket, not only the two its line goes through, so a timer that jumps forward or
// drifts unsteadily is not reported as aligned to a fraction of a microsecond.
#include "profile_records.h"

#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_clock.h"

#include <gtest/gtest.h>

namespace shardlab {
namespace {

using test::RecordText;

// Four brackets 2 ms apart, 100 ns wide, the GPU reading in the middle of each (plus `offset`);
// from the third on the timer reads `jumpNs` more.
std::vector<ClockSample> brackets(double offset, double jumpNs)
{
    std::vector<ClockSample> s;
    for (int k = 0; k < 4; ++k) {
        const double t = 1e6 + 2e6 * k;
        s.push_back({t, t + 100, t + 50 + offset + (k >= 2 ? jumpNs : 0)});
    }
    return s;
}

TEST(ProfileClock, TheBoundCoversEveryBracket)
{
    // A steady clock: half the narrowest bracket, as before.
    const ClockMap steady = gpuClockFromBrackets(brackets(5e9, 0));
    EXPECT_NEAR(steady.errorNs(), 50, 1e-6);

    // The timer jumps 178 ms forward between the second and third collective. The line through
    // the first and third brackets (4 ms of host time for 182 ms of GPU time) puts the second's
    // and fourth's readings 43,956 ns after the first's and third's, 1.956 ms before their own
    // brackets begin: the bound is the line's own 50 ns plus that, instead of 50 ns.
    const std::vector<ClockSample> jumped = brackets(5e9, 178e6);
    const ClockMap map = gpuClockFromBrackets(jumped);
    ASSERT_TRUE(map.valid());
    EXPECT_NEAR(map.errorNs(), 50 + (2'000'000 - 50 - 4e6 * 2e6 / 182e6), 1e-3);
    for (const ClockSample& s : jumped) {
        const double host = map.toHostNs(s.gpuNs);
        EXPECT_GE(host, s.hostBeforeNs - map.errorNs());
        EXPECT_LE(host, s.hostAfterNs + map.errorNs());
    }
}

TEST(ProfileClock, TheRunSaysTheBoundThatCoversEveryBracket)
{
    // Rank 1's GPU timer jumps 178 ms forward before its third all-reduce (a jump back is refused
    // by the reader, test_profile_reader.cpp).
    RecordText f("h", 1);
    f.comm(0, "00000000000000aa", 0, 2).comm(1, "00000000000000aa", 1, 2);
    for (int k = 0; k < 4; ++k) {
        const double t = 1e6 + 2e6 * k;
        const double jump = k >= 2 ? 178e6 : 0;
        f.coll(10 + 2 * k, 0, k, "AllReduce", 256, t, t + 100, 5e9 + t + 50, 5e9 + t + 10050);
        f.coll(11 + 2 * k, 1, k, "AllReduce", 256, t, t + 100, 7e9 + t + 50 + jump, 7e9 + t + 10050 + jump);
    }
    auto file = parseProfileText(f.text, "r.nccl-profile.jsonl");
    ASSERT_TRUE(file) << file.error().message;
    auto built = buildProfiledRun({*file});
    ASSERT_TRUE(built) << built.error().message;
    EXPECT_NE(english(built->run.clockNote).find("residual error <= 1956.04 us"), std::string::npos)
        << english(built->run.clockNote);
}

} // namespace
} // namespace shardlab
