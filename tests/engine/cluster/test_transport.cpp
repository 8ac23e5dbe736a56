// The steps built on Transport (transport.h) over an in-process job: broadcast, gather of
// variable sizes, barrier, and what a missing rank looks like.
#include "shardlab/cluster/in_process_job.h"

#include "../on_every_rank.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <thread>

using namespace shardlab;

namespace {
using test::onEveryRank;
Bytes8 bytes(size_t n, int seed)
{
    Bytes8 b(n);
    for (size_t i = 0; i < n; ++i)
        b[i] = static_cast<std::uint8_t>(i + static_cast<size_t>(seed) * 13);
    return b;
}
} // namespace

TEST(Transport, BroadcastGatherBarrier)
{
    InProcessJob job(4);
    std::vector<Bytes8> got(4);
    std::vector<std::vector<Bytes8>> gathered(4);
    std::vector<bool> passed(4, false);
    onEveryRank(4, [&](int r) {
        Transport& t = job.transport(r);
        auto b = broadcastBytes(t, r == 1 ? bytes(128, 1) : Bytes8{}, 1, Tag::Decision, deadlineIn(10'000), "id");
        ASSERT_TRUE(b.ok()) << b.error().message;
        got[static_cast<size_t>(r)] = *b;
        auto g = gatherBytes(t, bytes(static_cast<size_t>(r) * 100, r), 0, Tag::Part, deadlineIn(10'000), "part");
        ASSERT_TRUE(g.ok()) << g.error().message;
        gathered[static_cast<size_t>(r)] = *g;
        passed[static_cast<size_t>(r)] = barrier(t, deadlineIn(10'000)).ok();
    });
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(got[static_cast<size_t>(r)], bytes(128, 1));
        EXPECT_TRUE(passed[static_cast<size_t>(r)]);
    }
    ASSERT_EQ(gathered[0].size(), 4u);
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(gathered[0][static_cast<size_t>(r)], bytes(static_cast<size_t>(r) * 100, r));
    EXPECT_TRUE(gathered[2].empty());
}

TEST(Transport, MissingRanksAreNamed)
{
    InProcessJob job(5);
    job.kill(2);
    job.kill(4);
    Result<std::vector<Bytes8>> rootView = std::vector<Bytes8>{};
    onEveryRank(5, [&](int r) {
        if (r == 2 || r == 4)
            return;
        auto g = gatherBytes(job.transport(r), {1}, 0, Tag::Part, deadlineIn(300), "part of the run");
        if (r == 0)
            rootView = std::move(g);
    });
    ASSERT_FALSE(rootView.ok());
    EXPECT_NE(rootView.error().message.find("nothing came from ranks 2, 4 (died, hung or stuck elsewhere)"),
              std::string::npos)
        << rootView.error().message;
    auto b = broadcastBytes(job.transport(3), {}, 0, Tag::Decision, deadlineIn(100), "go/no-go");
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().message.find("rank 3 waited 0.1 s for the go/no-go from rank 0"), std::string::npos)
        << b.error().message;
    EXPECT_FALSE(barrier(job.transport(0), deadlineIn(100)).ok());
}

TEST(Transport, AbortReachesEveryRank)
{
    InProcessJob job(3);
    Result<std::optional<TransportMessage>> waiting = std::optional<TransportMessage>{};
    std::thread t([&] { waiting = job.transport(2).receive(0, Tag::Final, deadlineIn(30'000)); });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    job.transport(1).abort(3);
    t.join();
    ASSERT_FALSE(waiting.ok());
    EXPECT_NE(waiting.error().message.find("aborted by rank 1 (exit status 3)"), std::string::npos);
    EXPECT_EQ(job.aborted(), (std::optional<std::pair<int, int>>{{1, 3}}));
    EXPECT_FALSE(job.transport(0).send(1, Tag::Final, {}).ok());
}

TEST(Transport, DoublesTravelExactly)
{
    Bytes8 b;
    for (double v : {0.0, -1.5, 1e300, 123456789.123456789, std::nextafter(1.0, 2.0)})
        putDouble(b, v);
    EXPECT_EQ(b.size(), 40u);
    EXPECT_EQ(getDouble(b, 24), 123456789.123456789);
    EXPECT_EQ(getDouble(b, 32), std::nextafter(1.0, 2.0));
    EXPECT_EQ(getDouble(b, 36), 0.0); // out of range
}
