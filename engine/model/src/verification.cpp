#include "shardlab/model/verification.h"

#include <algorithm>
#include <cstdio>

namespace shardlab {

double fillValue(int rank, std::uint64_t element)
{
    return static_cast<double>(rank + 1) + static_cast<double>(element % 16) / 16.0;
}

double allReduceExpected(int ranks, std::uint64_t element)
{
    const double n = ranks;
    return n * (n + 1) / 2 + n * static_cast<double>(element % 16) / 16.0;
}

namespace {

// sum over the group of (g + 1) + (j mod 16)/16: the all-reduce closed form for any group.
double groupSum(const std::vector<int>& group, std::uint64_t element)
{
    double s = 0;
    for (int g : group)
        s += g + 1;
    return s + static_cast<double>(group.size()) * static_cast<double>(element % 16) / 16.0;
}

std::vector<double> expectedFor(OpKind kind, const std::vector<int>& group, size_t pos, std::uint64_t m, int root,
                                int peer, const std::vector<double>& input)
{
    const std::uint64_t n = group.size();
    std::vector<double> e;
    switch (kind) {
    case OpKind::AllReduce:
    case OpKind::ReduceScatterAllGather:
        for (std::uint64_t j = 0; j < m; ++j)
            e.push_back(groupSum(group, j));
        return e;
    case OpKind::Reduce:
        if (group[pos] != root)
            return input;
        for (std::uint64_t j = 0; j < m; ++j)
            e.push_back(groupSum(group, j));
        return e;
    case OpKind::Broadcast:
        for (std::uint64_t j = 0; j < m; ++j)
            e.push_back(fillValue(root, j));
        return e;
    case OpKind::AllGather:
    case OpKind::AllGatherV:
        for (std::uint64_t k = 0; k < n * m; ++k)
            e.push_back(fillValue(group[static_cast<size_t>(k / m)], k % m));
        return e;
    case OpKind::ReduceScatter: {
        const std::uint64_t slice = m / n;
        for (std::uint64_t j = 0; j < slice; ++j)
            e.push_back(groupSum(group, pos * slice + j));
        return e;
    }
    case OpKind::SendRecv:
        if (group[pos] != peer)
            return input;
        for (std::uint64_t j = 0; j < m; ++j)
            e.push_back(fillValue(root, j));
        return e;
    case OpKind::Compute: break;
    }
    return e;
}

} // namespace

Result<std::vector<VerifiedRank>> verifyCollective(OpKind kind, const std::vector<int>& group, std::uint64_t elements,
                                                   int root, int peer)
{
    if (!isCollective(kind))
        return badInput(Message("error.line.verify_compute"));
    if (group.empty())
        return badInput(Message("error.line.verify_no_rank"));
    const auto posOf = [&](int rank) -> long {
        const auto it = std::find(group.begin(), group.end(), rank);
        return it == group.end() ? -1 : static_cast<long>(it - group.begin());
    };
    const bool rooted = kind == OpKind::Reduce || kind == OpKind::Broadcast || kind == OpKind::SendRecv;
    if (rooted && posOf(root) < 0)
        return badInput(Message("error.line.verify_root").with("rank", std::to_string(root)));
    if (kind == OpKind::SendRecv && posOf(peer) < 0)
        return badInput(Message("error.line.verify_receiver").with("rank", std::to_string(peer)));

    std::uint64_t m = std::max<std::uint64_t>(1, elements);
    if (kind == OpKind::ReduceScatter)
        m = (m + group.size() - 1) / group.size() * group.size();
    RankValues inputs;
    for (int g : group) {
        std::vector<double> v(m);
        for (std::uint64_t j = 0; j < m; ++j)
            v[j] = fillValue(g, j);
        inputs.push_back(std::move(v));
    }
    auto results = applyCollective(kind, inputs, static_cast<int>(std::max(0L, posOf(root))),
                                   static_cast<int>(std::max(0L, posOf(peer))));
    if (!results)
        return results.error();

    std::vector<VerifiedRank> out;
    for (size_t p = 0; p < group.size(); ++p) {
        VerifiedRank vr;
        vr.rank = group[p];
        vr.input = inputs[p];
        vr.result = (*results)[p];
        vr.expected = expectedFor(kind, group, p, m, root, peer, inputs[p]);
        // A result of the wrong length counts every missing or extra element as wrong.
        const size_t common = std::min(vr.result.size(), vr.expected.size());
        vr.wrong = std::max(vr.result.size(), vr.expected.size()) - common;
        for (size_t j = 0; j < common; ++j)
            if (vr.result[j] != vr.expected[j])
                ++vr.wrong;
        out.push_back(std::move(vr));
    }
    return out;
}

std::string formatValues(const std::vector<double>& values, size_t shown)
{
    std::string s;
    char buf[32];
    for (size_t i = 0; i < values.size() && i < shown; ++i) {
        std::snprintf(buf, sizeof buf, "%s%.4f", i ? ", " : "", values[i]);
        s += buf;
    }
    if (values.size() > shown)
        s += ", \xe2\x80\xa6 (" + std::to_string(values.size()) + " values)";
    return s;
}

} // namespace shardlab
