#include "shardlab/cluster/transport.h"

#include "shardlab/base/short_list.h"

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
} // namespace

Result<Bytes8> broadcastBytes(Transport& t, Bytes8 bytes, int root, Tag tag, Deadline deadline, const std::string& what)
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
        return runFailed("rank " + std::to_string(t.rank()) + " waited " + waitedFor(deadline, start) + " for the "
                         + what + " from rank " + std::to_string(root) + " and got nothing (rank "
                         + std::to_string(root) + " died, hung or is stuck elsewhere)");
    return std::move((*m)->bytes);
}

Result<std::vector<Bytes8>> gatherBytes(Transport& t, Bytes8 mine, int root, Tag tag, Deadline deadline,
                                        const std::string& what)
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
            return runFailed("rank " + std::to_string(root) + " waited " + waitedFor(deadline, start) + " for the "
                             + what + " of every rank; nothing came from rank" + (silent.size() == 1 ? " " : "s ")
                             + shortList(silent, 16) + " (died, hung or stuck elsewhere)");
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
    auto in = gatherBytes(t, {}, 0, Tag::Barrier, deadline, "barrier");
    if (!in)
        return in.error();
    auto out = broadcastBytes(t, {}, 0, Tag::Barrier, deadline, "end of the barrier");
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
