#include "shardlab/cluster/socket_mesh.h"
#include "shardlab/text/foreign_text.h"

#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace shardlab {

namespace {

// Tags of the mesh's own frames, above every Tag of transport.h.
constexpr std::uint32_t kAbortFrame = 1000; // bytes: the exit status (8 bytes)
constexpr std::uint32_t kByeFrame = 1001;   // the sender ends in order
constexpr size_t kHeaderBytes = 16;
constexpr std::uint64_t kMaxFrameBytes = std::uint64_t{1} << 34; // 16 GiB: a corrupt length, not a message

Bytes8 frame(std::uint32_t tag, const Bytes8& bytes)
{
    Bytes8 out;
    out.reserve(kHeaderBytes + bytes.size());
    putU64(out, tag);
    putU64(out, bytes.size());
    out.insert(out.end(), bytes.begin(), bytes.end());
    return out;
}

// Writes all of `data`; false when the peer is gone (never raises SIGPIPE).
bool writeAll(int fd, const std::uint8_t* data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

class SocketMeshTransport final : public Transport {
public:
    SocketMeshTransport(int rank, std::vector<int> fds) : m_rank(rank), m_fds(std::move(fds)), m_peers(m_fds.size())
    {
        if (::pipe2(m_wake, O_CLOEXEC) != 0)
            m_wake[0] = m_wake[1] = -1;
        for (size_t p = 0; p < m_fds.size(); ++p)
            if (m_fds[p] >= 0)
                m_peers[p].writer = std::thread([this, p] { writeLoop(p); });
        m_reader = std::thread([this] { readLoop(); });
    }

    ~SocketMeshTransport() override
    {
        (void)flush(deadlineIn(10'000));
        for (size_t p = 0; p < m_fds.size(); ++p)
            if (m_fds[p] >= 0)
                enqueue(p, frame(kByeFrame, {}));
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_sent.notify_all();
        for (Peer& peer : m_peers)
            if (peer.writer.joinable())
                peer.writer.join();
        for (int fd : m_fds)
            if (fd >= 0)
                ::shutdown(fd, SHUT_WR);
        if (m_wake[1] >= 0)
            (void)!::write(m_wake[1], "x", 1);
        if (m_reader.joinable())
            m_reader.join();
        for (int fd : m_fds)
            if (fd >= 0)
                ::close(fd);
        for (int fd : m_wake)
            if (fd >= 0)
                ::close(fd);
    }

    SocketMeshTransport(const SocketMeshTransport&) = delete;
    SocketMeshTransport& operator=(const SocketMeshTransport&) = delete;

    int rank() const override { return m_rank; }
    int size() const override { return static_cast<int>(m_fds.size()); }
    int localRank() const override { return m_rank; }
    int localSize() const override { return size(); }
    std::string describe() const override
    {
        return "local sockets between " + std::to_string(size()) + " processes (shardlab --share-gpu)";
    }

    Status send(int peer, Tag tag, Bytes8 bytes) override
    {
        if (peer < 0 || peer >= size())
            return runFailed(Message("error.cluster.sent_outside").with("rank", m_rank).with("peer", peer));
        if (peer == m_rank) { // to itself (rank 0 hands its own iterations to its merger): no socket
            std::lock_guard lock(m_mutex);
            m_inbox.push_back({m_rank, tag, std::move(bytes)});
            m_received.notify_all();
            return {};
        }
        {
            std::lock_guard lock(m_mutex);
            if (m_peers[static_cast<size_t>(peer)].dead)
                return {}; // lost, as with any process that died: the receiver's side names it
        }
        enqueue(static_cast<size_t>(peer), frame(static_cast<std::uint32_t>(tag), bytes));
        return {};
    }

    Result<std::optional<TransportMessage>> receive(int peer, Tag tag, Deadline deadline) override
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            for (auto it = m_inbox.begin(); it != m_inbox.end(); ++it)
                if (it->tag == tag && (peer == kAnyPeer || it->from == peer)) {
                    TransportMessage m = std::move(*it);
                    m_inbox.erase(it);
                    return std::optional<TransportMessage>(std::move(m));
                }
            if (peer >= 0 && peer < size() && peer != m_rank && m_peers[static_cast<size_t>(peer)].dead)
                return runFailed(Message(m_peers[static_cast<size_t>(peer)].saidBye ? "error.cluster.peer_ended"
                                                                                    : "error.cluster.peer_vanished")
                                     .with("rank", peer));
            if (m_readFailed)
                return runFailed(Message("error.cluster.sockets_unreadable")
                                     .with("rank", m_rank)
                                     .with("why", systemWords(m_readError)));
            if (m_received.wait_until(lock, deadline) == std::cv_status::timeout
                && std::chrono::steady_clock::now() >= deadline)
                return std::optional<TransportMessage>();
        }
    }

    Status flush(Deadline deadline) override
    {
        std::unique_lock lock(m_mutex);
        const bool done = m_sent.wait_until(lock, deadline, [&] {
            for (const Peer& p : m_peers)
                if ((!p.queue.empty() || p.writing) && !p.dead)
                    return false;
            return true;
        });
        if (!done)
            return runFailed(Message("error.cluster.flush_late").with("rank", m_rank));
        return {};
    }

    [[noreturn]] void abort(int exitStatus) override
    {
        Bytes8 status;
        putU64(status, static_cast<std::uint64_t>(static_cast<std::uint32_t>(exitStatus)));
        const Bytes8 f = frame(kAbortFrame, status);
        for (int fd : m_fds)
            if (fd >= 0)
                (void)writeAll(fd, f.data(),
                               f.size()); // may interleave with a writer's frame: the peer ends either way
        std::_Exit(exitStatus);
    }

private:
    struct Peer {
        std::deque<Bytes8> queue;
        bool writing = false;
        bool dead = false;
        bool saidBye = false;
        Bytes8 pending; // bytes read, not yet a whole frame
        std::thread writer;
    };

    void enqueue(size_t peer, Bytes8 bytes)
    {
        {
            std::lock_guard lock(m_mutex);
            m_peers[peer].queue.push_back(std::move(bytes));
        }
        m_sent.notify_all();
    }

    // One thread per peer, so that a peer that reads slowly holds up only what goes to it.
    void writeLoop(size_t peer)
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_sent.wait(lock, [&] { return m_stopping || !m_peers[peer].queue.empty(); });
            if (m_peers[peer].queue.empty())
                return; // stopping, everything written
            Bytes8 next = std::move(m_peers[peer].queue.front());
            m_peers[peer].queue.pop_front();
            m_peers[peer].writing = true;
            const bool dead = m_peers[peer].dead;
            lock.unlock();
            const bool ok = !dead && writeAll(m_fds[peer], next.data(), next.size());
            lock.lock();
            m_peers[peer].writing = false;
            if (!ok) {
                m_peers[peer].dead = true;
                m_peers[peer].queue.clear();
                m_received.notify_all();
            }
            m_sent.notify_all();
        }
    }

    void readLoop()
    {
        std::vector<std::uint8_t> buffer(1 << 16);
        for (;;) {
            std::vector<pollfd> polled;
            std::vector<size_t> who;
            {
                std::lock_guard lock(m_mutex);
                for (size_t p = 0; p < m_fds.size(); ++p)
                    if (m_fds[p] >= 0 && !m_peers[p].dead) {
                        polled.push_back({m_fds[p], POLLIN, 0});
                        who.push_back(p);
                    }
            }
            if (m_wake[0] >= 0)
                polled.push_back({m_wake[0], POLLIN, 0});
            if (who.empty())
                return;
            const int n = ::poll(polled.data(), polled.size(), -1);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                std::lock_guard lock(m_mutex);
                m_readFailed = true;
                m_readError = std::strerror(errno);
                m_received.notify_all();
                return;
            }
            if (m_wake[0] >= 0 && polled.back().revents != 0)
                return; // the destructor: everything this process waited for has arrived
            for (size_t i = 0; i < who.size(); ++i) {
                if (polled[i].revents == 0)
                    continue;
                const ssize_t got = ::recv(m_fds[who[i]], buffer.data(), buffer.size(), 0);
                if (got < 0 && errno == EINTR)
                    continue;
                std::lock_guard lock(m_mutex);
                Peer& peer = m_peers[who[i]];
                if (got <= 0) {
                    peer.dead = true;
                    m_received.notify_all();
                    m_sent.notify_all();
                    continue;
                }
                peer.pending.insert(peer.pending.end(), buffer.begin(), buffer.begin() + got);
                takeFrames(who[i]);
            }
        }
    }

    // Moves every whole frame of peer `p`'s bytes into the inbox (m_mutex held).
    void takeFrames(size_t p)
    {
        Peer& peer = m_peers[p];
        size_t at = 0;
        while (peer.pending.size() - at >= kHeaderBytes) {
            const std::uint64_t tag = getU64(peer.pending, at);
            const std::uint64_t length = getU64(peer.pending, at + 8);
            if (length > kMaxFrameBytes) {
                peer.dead = true; // not a ShardLab process, or corrupt: nothing more from it can be trusted
                break;
            }
            if (peer.pending.size() - at - kHeaderBytes < length)
                break;
            const auto* body = peer.pending.data() + at + kHeaderBytes;
            if (tag == kAbortFrame) {
                const int status =
                    length >= 8 ? static_cast<int>(static_cast<std::uint32_t>(getU64(peer.pending, at + kHeaderBytes)))
                                : 3;
                std::_Exit(status == 0 ? 3
                                       : status); // as MPI_Abort: the whole job ends with the aborting rank's status
            }
            if (tag == kByeFrame)
                peer.saidBye = true;
            else
                m_inbox.push_back({static_cast<int>(p), static_cast<Tag>(tag), Bytes8(body, body + length)});
            at += kHeaderBytes + length;
        }
        peer.pending.erase(peer.pending.begin(), peer.pending.begin() + static_cast<std::ptrdiff_t>(at));
        m_received.notify_all();
    }

    const int m_rank;
    const std::vector<int> m_fds;
    std::mutex m_mutex;
    std::condition_variable m_received; // the inbox grew, or a peer died
    std::condition_variable m_sent;     // a queue changed
    std::vector<Peer> m_peers;
    std::deque<TransportMessage> m_inbox;
    bool m_stopping = false;
    bool m_readFailed = false;
    std::string m_readError;
    int m_wake[2] = {-1, -1};
    std::thread m_reader;
};

} // namespace

Result<SocketMesh> makeSocketMesh(int size)
{
    if (size < 1 || size > 64)
        return badInput(Message("error.cluster.mesh_size").with("size", size).with("min", 1).with("max", 64));
    SocketMesh mesh;
    mesh.fds.assign(static_cast<size_t>(size), std::vector<int>(static_cast<size_t>(size), -1));
    for (int a = 0; a < size; ++a)
        for (int b = a + 1; b < size; ++b) {
            int pair[2] = {-1, -1};
            if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
                const std::string why = std::strerror(errno);
                closeSocketMesh(mesh);
                return runFailed(
                    Message("error.cluster.socket_pair").with("a", a).with("b", b).with("why", systemWords(why)));
            }
            mesh.fds[static_cast<size_t>(a)][static_cast<size_t>(b)] = pair[0];
            mesh.fds[static_cast<size_t>(b)][static_cast<size_t>(a)] = pair[1];
        }
    return mesh;
}

void closeSocketMesh(SocketMesh& mesh)
{
    for (auto& row : mesh.fds)
        for (int& fd : row)
            if (fd >= 0) {
                ::close(fd);
                fd = -1;
            }
}

std::unique_ptr<Transport> socketMeshTransport(int rank, std::vector<int> peerFds)
{
    return std::make_unique<SocketMeshTransport>(rank, std::move(peerFds));
}

std::string meshFdsText(const std::vector<int>& peerFds, int rank)
{
    std::string out;
    for (size_t p = 0; p < peerFds.size(); ++p) {
        if (p > 0)
            out += ',';
        out += static_cast<int>(p) == rank ? "-" : std::to_string(peerFds[p]);
    }
    return out;
}

Result<std::unique_ptr<Transport>> openSocketMeshTransport(const LaunchInfo& launch, const Environment& env)
{
    const auto it = env.find(kSharedFdsVariable);
    if (it == env.end())
        return badInput(Message("error.cluster.fds_not_set")
                            .with("option", "--share-gpu")
                            .with("variable", kSharedFdsVariable)
                            .with("command", "shardlab live --share-gpu N"));
    const std::string& text = it->second;
    auto bad = [&](Message why) {
        return badInput(Message("error.cluster.fds_bad")
                            .with("variable", kSharedFdsVariable)
                            .with("value", text)
                            .with("what", std::move(why))
                            .with("rank", launch.rank)
                            .with("size", launch.size));
    };
    std::vector<int> fds;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string item = text.substr(pos, comma - pos);
        const int index = static_cast<int>(fds.size());
        if (item == "-") {
            if (index != launch.rank)
                return bad(Message("error.cluster.fds_dash").with("index", index));
            fds.push_back(-1);
        } else {
            char* end = nullptr;
            errno = 0;
            const long fd = std::strtol(item.c_str(), &end, 10);
            if (item.empty() || *end != '\0' || errno != 0 || fd < 0 || fd > 1'000'000)
                return bad(Message("error.cluster.fds_not_fd").with("item", item));
            if (index == launch.rank)
                return bad(Message("error.cluster.fds_own"));
            if (::fcntl(static_cast<int>(fd), F_GETFD) < 0)
                return bad(Message("error.cluster.fds_closed").with("fd", item));
            fds.push_back(static_cast<int>(fd));
        }
        pos = comma + 1;
    }
    if (static_cast<int>(fds.size()) != launch.size)
        return bad(Message("error.cluster.fds_count").with("count", static_cast<int>(fds.size())));
    for (int fd : fds)
        if (fd >= 0)
            (void)::fcntl(fd, F_SETFD, FD_CLOEXEC); // not passed on to what this process starts (NCCL's helpers)
    return socketMeshTransport(launch.rank, std::move(fds));
}

} // namespace shardlab
