// A profiled program's steps (profile_steps.h): the step finder on hand-made call sequences.
#include "shardlab/profile/profile_steps.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace shardlab {
namespace {

// Calls written as letters: 'A' a 1 MiB all-reduce, 'B' a 4 MiB all-reduce, 'C' an all-gather,
// 'R' a broadcast from rank 0, 'S' the same broadcast from rank 1, 'x' an all-reduce on another
// communicator.
std::vector<CollectiveKey> calls(const std::string& letters)
{
    std::vector<CollectiveKey> out;
    for (char c : letters) {
        switch (c) {
        case 'A': out.push_back({OpKind::AllReduce, 1u << 20, -1, 1}); break;
        case 'B': out.push_back({OpKind::AllReduce, 4u << 20, -1, 1}); break;
        case 'C': out.push_back({OpKind::AllGather, 1u << 20, -1, 1}); break;
        case 'R': out.push_back({OpKind::Broadcast, 1u << 20, 0, 1}); break;
        case 'S': out.push_back({OpKind::Broadcast, 1u << 20, 1, 1}); break;
        case 'x': out.push_back({OpKind::AllReduce, 1u << 20, -1, 2}); break;
        default: ADD_FAILURE() << "no call '" << c << "'";
        }
    }
    return out;
}

StepPattern steps(size_t prefix, size_t period, size_t count, size_t tail = 0) { return {prefix, period, count, tail}; }

TEST(ProfileSteps, ACleanPeriod)
{
    EXPECT_EQ(findSteps(calls("ABCABCABCABC"), false), steps(0, 3, 4));
}

TEST(ProfileSteps, APeriodOfOneCall)
{
    EXPECT_EQ(findSteps(calls("AAAAA"), false), steps(0, 1, 5));
}

TEST(ProfileSteps, ASetUpPrefixThenThePeriod)
{
    // A broadcast of the weights, then three steps of two all-reduces.
    EXPECT_EQ(findSteps(calls("RABABAB"), false), steps(1, 2, 3));
    // Two set-up calls, one of them the step's own kind.
    EXPECT_EQ(findSteps(calls("RCABABABAB"), false), steps(2, 2, 4));
}

TEST(ProfileSteps, ATruncatedLastStepOnlyWhereTheRecordsEndEarly)
{
    EXPECT_EQ(findSteps(calls("ABCABCABCAB"), true), steps(0, 3, 3, 2));
    EXPECT_EQ(findSteps(calls("RABCABCABCA"), true), steps(1, 3, 3, 1));
    // Records that end where the program ended: no incomplete step; the longest suffix of whole
    // repetitions is then "CAB" three times after a set-up "AB" (a step is known only up to where
    // it starts, profile_steps.h).
    EXPECT_EQ(findSteps(calls("ABCABCABCAB"), false), steps(2, 3, 3));
    EXPECT_EQ(findSteps(calls("ABCABCAB"), false), std::nullopt); // no 3 whole repetitions at its end
}

TEST(ProfileSteps, NoPeriodOrTooFewRepetitions)
{
    EXPECT_EQ(findSteps(calls(""), false), std::nullopt);
    EXPECT_EQ(findSteps(calls("ABC"), false), std::nullopt);
    EXPECT_EQ(findSteps(calls("ABCCBA"), false), std::nullopt);
    EXPECT_EQ(findSteps(calls("ABAB"), false), std::nullopt); // 2 repetitions: not enough
    // Ends with something else (a final all-gather): not a step under the rule.
    EXPECT_EQ(findSteps(calls("ABABABC"), false), std::nullopt);
}

TEST(ProfileSteps, AShorterFalsePeriodIsNotChosen)
{
    // 'AAB' repeated: periods 1 and 2 fit its beginning, not the whole.
    EXPECT_EQ(findSteps(calls("AABAABAAB"), false), steps(0, 3, 3));
    // The same call with another root, size or communicator is another call.
    EXPECT_EQ(findSteps(calls("RSRSRS"), false), steps(0, 2, 3));
    EXPECT_EQ(findSteps(calls("AxAxAx"), false), steps(0, 2, 3));
    EXPECT_EQ(findSteps(calls("ABABAB"), false), steps(0, 2, 3));
    // A step that begins as a shorter one would ("ABAB..."): period 4.
    EXPECT_EQ(findSteps(calls("ABACABACABAC"), false), steps(0, 4, 3));
    // The longest repeating part wins over a shorter period near the end.
    EXPECT_EQ(findSteps(calls("ABBBBABBBBABBBB"), false), steps(0, 5, 3));
}

TEST(ProfileSteps, AMillionCallsAreQuick)
{
    // 1,000,000 calls: a set-up broadcast, then 8 bucketed all-reduces (one of another size) a step.
    std::vector<CollectiveKey> many = calls("R");
    const std::vector<CollectiveKey> step = calls("AAAAAAAB");
    while (many.size() + step.size() <= 1'000'001)
        many.insert(many.end(), step.begin(), step.end());
    const auto found = findSteps(many, false);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(*found, steps(1, 8, (many.size() - 1) / 8));
}

} // namespace
} // namespace shardlab
