// The socket mesh of `shardlab live --share-gpu` (socket_mesh.h): the Transport's promises (tags,
// order, any peer, large messages, the steps built on it) over real local sockets, a peer that
// ends in order or dies, and the variable that hands a process its ends.
#include "shardlab/cluster/socket_mesh.h"

#include "../on_every_rank.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

using namespace shardlab;

namespace {

std::vector<std::unique_ptr<Transport>> meshOf(int n)
{
    auto mesh = makeSocketMesh(n);
    EXPECT_TRUE(mesh) << mesh.error().message;
    std::vector<std::unique_ptr<Transport>> out;
    for (int r = 0; r < n; ++r)
        out.push_back(socketMeshTransport(r, mesh->fds[static_cast<size_t>(r)]));
    return out;
}

using test::onEveryRank;

Bytes8 pattern(size_t n, int seed)
{
    Bytes8 b(n);
    for (size_t i = 0; i < n; ++i)
        b[i] = static_cast<std::uint8_t>((i * 31 + static_cast<size_t>(seed)) & 0xff);
    return b;
}

} // namespace

TEST(SocketMesh, MessagesArriveByTagInOrderAndFromAnyPeer)
{
    auto t = meshOf(3);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[2]->rank(), 2);
    EXPECT_EQ(t[2]->size(), 3);
    EXPECT_EQ(t[2]->localSize(), 3);
    ASSERT_TRUE(t[1]->send(0, Tag::Part, {1}).ok());
    ASSERT_TRUE(t[1]->send(0, Tag::Setup, {2}).ok());
    ASSERT_TRUE(t[1]->send(0, Tag::Part, {3}).ok());
    ASSERT_TRUE(t[2]->send(0, Tag::Chunk, {4}).ok());
    // by tag, whatever came first; in the order sent within one tag
    auto a = t[0]->receive(1, Tag::Setup, deadlineIn(5000));
    ASSERT_TRUE(a && *a);
    EXPECT_EQ((*a)->bytes, Bytes8{2});
    auto b = t[0]->receive(1, Tag::Part, deadlineIn(5000));
    auto c = t[0]->receive(kAnyPeer, Tag::Part, deadlineIn(5000));
    ASSERT_TRUE(b && *b && c && *c);
    EXPECT_EQ((*b)->bytes, Bytes8{1});
    EXPECT_EQ((*c)->bytes, Bytes8{3});
    auto d = t[0]->receive(kAnyPeer, Tag::Chunk, deadlineIn(5000));
    ASSERT_TRUE(d && *d);
    EXPECT_EQ((*d)->from, 2);
    // nothing more: the deadline passes and says so (nullopt), it is not an error
    auto none = t[0]->receive(kAnyPeer, Tag::Part, deadlineIn(50));
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->has_value());
    EXPECT_FALSE(t[0]->send(3, Tag::Part, {}).ok()); // not in the job
    // to itself, as rank 0 hands its own iterations to its merger in a streamed job (multi_process.cpp):
    // a `live --share-gpu --stream` waited for them forever when the mesh refused this
    ASSERT_TRUE(t[0]->send(0, Tag::Chunk, {7}).ok());
    auto self = t[0]->receive(kAnyPeer, Tag::Chunk, deadlineIn(5000));
    ASSERT_TRUE(self && *self);
    EXPECT_EQ((*self)->from, 0);
    EXPECT_EQ((*self)->bytes, Bytes8{7});
}

TEST(SocketMesh, LargeMessagesAndTheStepsBuiltOnIt)
{
    auto t = meshOf(4);
    const size_t big = 24u << 20; // larger than any socket buffer: written while the other side reads
    std::vector<Bytes8> got(4);
    std::vector<std::vector<Bytes8>> gathered(4);
    std::vector<bool> passed(4, false);
    onEveryRank(4, [&](int r) {
        Transport& tr = *t[static_cast<size_t>(r)];
        auto b = broadcastBytes(tr, r == 0 ? pattern(big, 7) : Bytes8{}, 0, Tag::Decision, deadlineIn(60'000), "test");
        ASSERT_TRUE(b) << b.error().message;
        got[static_cast<size_t>(r)] = *b;
        auto g =
            gatherBytes(tr, pattern(1000u * static_cast<size_t>(r + 1), r), 0, Tag::Part, deadlineIn(60'000), "test");
        ASSERT_TRUE(g) << g.error().message;
        gathered[static_cast<size_t>(r)] = *g;
        passed[static_cast<size_t>(r)] = barrier(tr, deadlineIn(60'000)).ok();
        EXPECT_TRUE(tr.flush(deadlineIn(60'000)).ok());
    });
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(got[static_cast<size_t>(r)], pattern(big, 7)) << "rank " << r;
        EXPECT_TRUE(passed[static_cast<size_t>(r)]) << "rank " << r;
    }
    ASSERT_EQ(gathered[0].size(), 4u);
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(gathered[0][static_cast<size_t>(r)], pattern(1000u * static_cast<size_t>(r + 1), r));
    EXPECT_TRUE(gathered[1].empty());
}

TEST(SocketMesh, APeerThatEndsIsNamedAtOnceAndOneThatDiesToo)
{
    auto mesh = makeSocketMesh(3);
    ASSERT_TRUE(mesh);
    auto zero = socketMeshTransport(0, mesh->fds[0]);
    {
        auto one = socketMeshTransport(1, mesh->fds[1]);
        ASSERT_TRUE(one->send(0, Tag::Part, {9}).ok());
    } // ends in order: what it sent still arrives, then its end
    auto got = zero->receive(1, Tag::Part, deadlineIn(5000));
    ASSERT_TRUE(got && *got);
    EXPECT_EQ((*got)->bytes, Bytes8{9});
    const auto start = std::chrono::steady_clock::now();
    auto ended = zero->receive(1, Tag::Part, deadlineIn(60'000));
    ASSERT_FALSE(ended);
    EXPECT_EQ(ended.error().message, "rank 1's process ended");
    // rank 2 dies: its sockets close without a goodbye (as when the process is killed)
    for (int fd : mesh->fds[2])
        if (fd >= 0)
            ::close(fd);
    auto died = zero->receive(2, Tag::Part, deadlineIn(60'000));
    ASSERT_FALSE(died);
    EXPECT_EQ(died.error().message, "rank 2's process ended without a word (it crashed or was killed)");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(50)); // not the deadline
    EXPECT_TRUE(zero->send(2, Tag::Part, {1}).ok());                               // lost, as to any dead process
}

TEST(SocketMesh, TheVariableHandsAProcessItsEnds)
{
    auto mesh = makeSocketMesh(3);
    ASSERT_TRUE(mesh);
    const std::vector<int>& mine = mesh->fds[1];
    const std::string text = meshFdsText(mine, 1);
    EXPECT_EQ(text, std::to_string(mine[0]) + ",-," + std::to_string(mine[2]));
    LaunchInfo launch;
    launch.launcher = Launcher::SharedGpu;
    launch.rank = 1;
    launch.size = 3;
    auto opened = openSocketMeshTransport(launch, {{kSharedFdsVariable, text}});
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ((*opened)->rank(), 1);
    mesh->fds[1] = {-1, -1, -1}; // the transport owns them now
    auto refused = [&](const std::string& value) {
        auto t = openSocketMeshTransport(launch, {{kSharedFdsVariable, value}});
        return t ? std::string("accepted") : t.error().message;
    };
    EXPECT_NE(refused("3,-").find("lists 2 ranks"), std::string::npos) << refused("3,-");
    EXPECT_NE(refused("-,4,5").find("has '-' at 0"), std::string::npos);
    EXPECT_NE(refused("x,-,5").find("has 'x' where a file descriptor belongs"), std::string::npos);
    EXPECT_NE(refused("999999,-,5").find("which this process does not have open"), std::string::npos);
    auto missing = openSocketMeshTransport(launch, {});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("shardlab live --share-gpu N"), std::string::npos);
    closeSocketMesh(*mesh);
}

TEST(SocketMesh, ItsDescriptorsAreNotInheritedByWhatItStarts)
{
    auto mesh = makeSocketMesh(2);
    ASSERT_TRUE(mesh);
    for (const auto& row : mesh->fds)
        for (int fd : row) {
            if (fd >= 0) {
                EXPECT_TRUE(::fcntl(fd, F_GETFD) & FD_CLOEXEC);
            }
        }
    closeSocketMesh(*mesh);
    EXPECT_EQ(mesh->fds[0][1], -1);
    EXPECT_FALSE(makeSocketMesh(0));
    EXPECT_FALSE(makeSocketMesh(65));
}
