#include "shardlab/cluster/transport.h"

#include <cstring>
#include <cstdio>

namespace shardlab {

Deadline deadlineIn(double ms)
{
    // Beyond a day counts as "no deadline" (and stays clear of time_point overflow).
    const double capped = ms <= 0 || ms > 86'400'000.0 ? 86'400'000.0 : ms;
    return std::chrono::steady_clock::now()
           + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double, std::milli>(capped));
}

namespace {
std::string waitedFor(Deadline deadline, std::chrono::steady_clock::time_point start)
{
    const double s = std::chrono::duration<double>(deadline - start).count();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

// What is exchanged, as English names it, worded by its error.exchange.* entry where there is one.
Message exchangeName(const std::string& what)
{
    for (const char* id : {"error.exchange.setup_report", "error.exchange.go", "error.exchange.part",
                           "error.exchange.exit_status", "error.exchange.topology_report", "error.exchange.scenario",
                           "error.exchange.barrier", "error.exchange.barrier_end"})
        if (english(Message(id)) == what)
            return Message(id);
    return verbatim(what);
}

// "1, 2, 3", or past `shown` ranks "1, 2, 3 and 5 more", as shortList() writes it.
Message rankList(const std::vector<std::string>& ranks, size_t shown)
{
    std::vector<Message> first;
    for (size_t i = 0; i < ranks.size() && i < shown; ++i)
        first.push_back(verbatim(ranks[i]));
    if (ranks.size() <= shown)
        return listOf(std::move(first));
    return Message("error.piece.and_more")
        .with("list", listOf(std::move(first)))
        .with("count", std::to_string(ranks.size() - shown));
}
} // namespace

Result<Bytes8> broadcastBytes(Transport& t, Bytes8 bytes, int root, Tag tag, Deadline deadline, const std::string& what)
{
    return broadcastBytes(t, std::move(bytes), root, tag, deadline, exchangeName(what));
}

Result<std::vector<Bytes8>> gatherBytes(Transport& t, Bytes8 mine, int root, Tag tag, Deadline deadline,
                                        const std::string& what)
{
    return gatherBytes(t, std::move(mine), root, tag, deadline, exchangeName(what));
}

Result<Bytes8> broadcastBytes(Transport& t, Bytes8 bytes, int root, Tag tag, Deadline deadline, const Message& what)
{
    if (t.rank() == root) {
        for (int r = 0; r < t.size(); ++r)
            if (r != root)
                if (Status st = t.send(r, tag, bytes); !st)
                    return st.error();
        return bytes;
    }
    const auto start = std::chrono::steady_clock::now();
    auto m = t.receive(root, tag, deadline);
    if (!m)
        return m.error();
    if (!*m)
        return runFailed(Message("error.exchange.nothing_from_root")
                             .with("rank", t.rank())
                             .with("seconds", waitedFor(deadline, start))
                             .with("what", what)
                             .with("root", root));
    return std::move((*m)->bytes);
}

Result<std::vector<Bytes8>> gatherBytes(Transport& t, Bytes8 mine, int root, Tag tag, Deadline deadline,
                                        const Message& what)
{
    if (t.rank() != root) {
        if (Status st = t.send(root, tag, std::move(mine)); !st)
            return st.error();
        return std::vector<Bytes8>{};
    }
    const auto start = std::chrono::steady_clock::now();
    std::vector<Bytes8> all(static_cast<size_t>(t.size()));
    std::vector<bool> have(static_cast<size_t>(t.size()), false);
    all[static_cast<size_t>(root)] = std::move(mine);
    have[static_cast<size_t>(root)] = true;
    int missing = t.size() - 1;
    while (missing > 0) {
        auto m = t.receive(kAnyPeer, tag, deadline);
        if (!m)
            return m.error();
        if (!*m) {
            std::vector<std::string> silent;
            for (int r = 0; r < t.size(); ++r)
                if (!have[static_cast<size_t>(r)])
                    silent.push_back(std::to_string(r));
            return runFailed(Message(silent.size() == 1 ? "error.exchange.silent_rank" : "error.exchange.silent_ranks")
                                 .with("root", root)
                                 .with("seconds", waitedFor(deadline, start))
                                 .with("what", what)
                                 .with("ranks", rankList(silent, 16)));
        }
        const int from = (*m)->from;
        if (from < 0 || from >= t.size() || have[static_cast<size_t>(from)])
            continue; // not part of this gather (cannot happen with one message per rank and tag)
        all[static_cast<size_t>(from)] = std::move((*m)->bytes);
        have[static_cast<size_t>(from)] = true;
        --missing;
    }
    return all;
}

Status barrier(Transport& t, Deadline deadline)
{
    auto in = gatherBytes(t, {}, 0, Tag::Barrier, deadline, Message("error.exchange.barrier"));
    if (!in)
        return in.error();
    auto out = broadcastBytes(t, {}, 0, Tag::Barrier, deadline, Message("error.exchange.barrier_end"));
    if (!out)
        return out.error();
    return {};
}

void putU64(Bytes8& out, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

std::uint64_t getU64(const Bytes8& in, size_t offset)
{
    if (offset + 8 > in.size())
        return 0;
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= static_cast<std::uint64_t>(in[offset + static_cast<size_t>(i)]) << (8 * i);
    return v;
}

void putDouble(Bytes8& out, double v)
{
    std::uint64_t bits = 0;
    static_assert(sizeof bits == sizeof v);
    std::memcpy(&bits, &v, sizeof v);
    putU64(out, bits);
}

double getDouble(const Bytes8& in, size_t offset)
{
    if (offset + 8 > in.size())
        return 0;
    const std::uint64_t bits = getU64(in, offset);
    double v = 0;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

} // namespace shardlab
