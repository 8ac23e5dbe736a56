#include "shardlab/model/semantics.h"

#include <string>

namespace shardlab {

namespace {

Status sameLengths(const char* what, const RankValues& in)
{
    for (size_t r = 1; r < in.size(); ++r)
        if (in[r].size() != in[0].size())
            return badInput(Message("error.line.buffers_unequal")
                                .with("op", what)
                                .with("first", std::to_string(in[0].size()))
                                .with("rank", std::to_string(r))
                                .with("other", std::to_string(in[r].size())));
    return {};
}

std::vector<double> sum(const RankValues& in)
{
    std::vector<double> s(in.empty() ? 0 : in[0].size(), 0.0);
    for (const auto& v : in)
        for (size_t i = 0; i < v.size(); ++i)
            s[i] += v[i];
    return s;
}

} // namespace

Result<RankValues> applyCollective(OpKind kind, const RankValues& in, int root, int peer)
{
    const int n = static_cast<int>(in.size());
    if (n == 0)
        return badInput(Message("error.line.collective_no_rank"));
    if ((kind == OpKind::Reduce || kind == OpKind::Broadcast || kind == OpKind::SendRecv) && (root < 0 || root >= n))
        return badInput(Message("error.line.root_missing").with("rank", std::to_string(root)));
    RankValues out = in;
    switch (kind) {
    case OpKind::Compute: return badInput(Message("error.line.compute_not_collective"));
    case OpKind::AllReduce:
    case OpKind::ReduceScatterAllGather: {
        if (Status st = sameLengths(opName(kind), in); !st)
            return st.error();
        const auto s = sum(in);
        for (auto& v : out)
            v = s;
        return out;
    }
    case OpKind::Reduce: {
        if (Status st = sameLengths("reduce", in); !st)
            return st.error();
        out[static_cast<size_t>(root)] = sum(in);
        return out;
    }
    case OpKind::Broadcast:
        for (auto& v : out)
            v = in[static_cast<size_t>(root)];
        return out;
    case OpKind::AllGather:
        if (Status st = sameLengths("all_gather", in); !st)
            return st.error();
        [[fallthrough]];
    case OpKind::AllGatherV: {
        std::vector<double> cat;
        for (const auto& v : in)
            cat.insert(cat.end(), v.begin(), v.end());
        for (auto& v : out)
            v = cat;
        return out;
    }
    case OpKind::ReduceScatter: {
        if (Status st = sameLengths("reduce_scatter", in); !st)
            return st.error();
        if (in[0].size() % static_cast<size_t>(n) != 0)
            return badInput(Message("error.line.reduce_scatter_divisible")
                                .with("ranks", std::to_string(n))
                                .with("length", std::to_string(in[0].size())));
        const auto s = sum(in);
        const size_t slice = s.size() / static_cast<size_t>(n);
        for (int r = 0; r < n; ++r)
            out[static_cast<size_t>(r)].assign(s.begin() + static_cast<long>(r * slice),
                                               s.begin() + static_cast<long>((r + 1) * slice));
        return out;
    }
    case OpKind::SendRecv:
        if (peer < 0 || peer >= n || peer == root)
            return badInput(Message("error.line.send_recv_self"));
        out[static_cast<size_t>(peer)] = in[static_cast<size_t>(root)];
        return out;
    }
    return out;
}

} // namespace shardlab
