#include "shardlab/analysis/collective_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace shardlab {

const char* needDescription(Need need)
{
    switch (need) {
    case Need::SumOnOneRank: return "the sum on one rank";
    case Need::SumOnEveryRank: return "the sum on every rank";
    case Need::SliceOfSumOnEveryRank: return "each rank's slice of the sum";
    case Need::ConcatenationOnEveryRank: return "the concatenation of every rank's piece on every rank";
    case Need::CopyOfOneRanksData: return "a copy of one rank's data on every rank";
    }
    return "?";
}

RankValues exampleRankValues(int ranks, int perRank)
{
    RankValues in(static_cast<size_t>(std::max(0, ranks)));
    for (int r = 0; r < ranks; ++r)
        for (int i = 0; i < perRank; ++i)
            in[static_cast<size_t>(r)].push_back(static_cast<double>((r + 1) * 10 + i));
    return in;
}

namespace {

// Per rank, for an input buffer of B bytes on each of n ranks, on a ring (docs/analysis.md):
// held afterwards and bytes sent.
//   all-reduce B, 2(n-1)/n B | reduce-scatter B/n, (n-1)/n B | all-gather nB, (n-1)B
//   broadcast B, B | reduce B on the root, B | reduce-scatter + all-gather B, 2(n-1)/n B
std::pair<Bytes, Bytes> heldAndSent(OpKind kind, int n, Bytes B)
{
    const double b = static_cast<double>(B), dn = n;
    auto bytes = [](double x) { return static_cast<Bytes>(std::llround(x)); };
    switch (kind) {
    case OpKind::AllReduce:
    case OpKind::ReduceScatterAllGather: return {B, bytes(2 * (dn - 1) / dn * b)};
    case OpKind::ReduceScatter: return {bytes(b / dn), bytes((dn - 1) / dn * b)};
    case OpKind::AllGather:
    case OpKind::AllGatherV: return {bytes(dn * b), bytes((dn - 1) * b)};
    case OpKind::Broadcast:
    case OpKind::Reduce:
    case OpKind::SendRecv: return {B, B};
    case OpKind::Compute: return {0, 0};
    }
    return {0, 0};
}

// "[10, 11] (2 values)": the numbers as they are, the count worded.
Message values(const std::vector<double>& v)
{
    std::string s = "[";
    for (size_t i = 0; i < v.size() && i < 8; ++i) {
        char b[32];
        std::snprintf(b, sizeof b, "%s%g", i ? ", " : "", v[i]);
        s += b;
    }
    if (v.size() > 8)
        s += ", ...";
    return Message(v.size() == 1 ? "choice.values.one" : "choice.values")
        .with("list", s + "]")
        .with("count", static_cast<int>(v.size()));
}

Message needMessage(Need need)
{
    switch (need) {
    case Need::SumOnOneRank: return Message("choice.need.sum_on_one_rank");
    case Need::SumOnEveryRank: return Message("choice.need.sum_on_every_rank");
    case Need::SliceOfSumOnEveryRank: return Message("choice.need.slice_of_sum");
    case Need::ConcatenationOnEveryRank: return Message("choice.need.concatenation");
    case Need::CopyOfOneRanksData: return Message("choice.need.copy");
    }
    return verbatim("?");
}

bool isReduction(OpKind k)
{
    return k == OpKind::AllReduce || k == OpKind::Reduce || k == OpKind::ReduceScatter
           || k == OpKind::ReduceScatterAllGather;
}

// Whether `got` gives the next step what it needs. A slice need is also met by the full sum
// (it contains the slice), at a cost in memory and traffic.
bool satisfies(Need need, const RankValues& got, const RankValues& expected, const RankValues& fullSum)
{
    if (got.size() != expected.size())
        return false;
    if (need == Need::SumOnOneRank)
        return got[0] == expected[0];
    for (size_t r = 0; r < got.size(); ++r)
        if (got[r] != expected[r] && !(need == Need::SliceOfSumOnEveryRank && got[r] == fullSum[r]))
            return false;
    return true;
}

Message why(OpKind chosen, OpKind right, int n)
{
    if (isReduction(chosen) && (right == OpKind::AllGather || right == OpKind::AllGatherV))
        return Message("choice.why.added");
    if ((chosen == OpKind::AllGather || chosen == OpKind::AllGatherV) && isReduction(right))
        return Message("choice.why.placed").with("n", n);
    if (chosen == OpKind::Reduce)
        return Message("choice.why.reduce");
    if (chosen == OpKind::Broadcast)
        return Message("choice.why.broadcast");
    if (chosen == OpKind::ReduceScatter)
        return Message("choice.why.reduce_scatter").with("n", n);
    return Message("choice.why.other");
}

// The collectives' names as the course writes them; one has English words.
Message choiceOpName(OpKind kind)
{
    return kind == OpKind::AllGatherV ? Message("summary.op.all_gather_v") : verbatim(opDisplayName(kind));
}

} // namespace

ChoiceConsequence consequenceOfChoosing(OpKind chosen, Need need, int ranks, Bytes bytes, bool unequalPieces)
{
    ChoiceConsequence c;
    c.need = need;
    c.chosen = chosen;
    c.right = collectiveFor(need, unequalPieces);
    const int n = std::max(1, ranks);
    const bool pieces = need == Need::ConcatenationOnEveryRank || need == Need::CopyOfOneRanksData;
    c.inputs = exampleRankValues(n, unequalPieces ? 3 : pieces ? 2 : n);
    if (unequalPieces)
        for (int r = 0; r < n; ++r)
            c.inputs[static_cast<size_t>(r)].resize(static_cast<size_t>(1 + r % 3));
    c.expected = applyCollective(c.right, c.inputs, 0, std::min(1, n - 1)).value();
    // a sum needs pieces of one length on every rank (unequal pieces on 4 ranks are 1, 2, 3, 1 long:
    // the first and the last alike are not enough)
    const bool equalPieces = std::all_of(c.inputs.begin(), c.inputs.end(), [&](const std::vector<double>& v) {
        return v.size() == c.inputs.front().size();
    });
    const RankValues fullSum = equalPieces ? applyCollective(OpKind::AllReduce, c.inputs).value() : RankValues{};
    auto got = applyCollective(chosen, c.inputs, 0, std::min(1, n - 1));
    if (got)
        c.got = *got;
    else
        c.rejected = got.error().message;
    c.correct = got.ok() && satisfies(need, c.got, c.expected, fullSum);
    std::tie(c.heldRight, c.sentRight) = heldAndSent(c.right, n, bytes);
    std::tie(c.heldChosen, c.sentChosen) = heldAndSent(chosen, n, bytes);

    const Message chosenName = choiceOpName(chosen), rightName = choiceOpName(c.right);
    if (!c.rejected.empty())
        c.sentenceMessage = Message("choice.rejected")
                                .with("chosen", chosenName)
                                .with("need", needMessage(need))
                                .with("why", verbatim(c.rejected))
                                .with("right", rightName);
    else if (!c.correct)
        c.sentenceMessage = Message("choice.wrong")
                                .with("chosen", chosenName)
                                .with("right", rightName)
                                .with("got", values(c.got[0]))
                                .with("expected", values(c.expected[0]))
                                .with("why", why(chosen, c.right, n));
    else if (chosen == c.right)
        c.sentenceMessage = Message("choice.right")
                                .with("chosen", chosenName)
                                .with("need", needMessage(need))
                                .with("got", values(c.got[0]));
    else
        c.sentenceMessage = Message("choice.costly")
                                .with("chosen", chosenName)
                                .with("right", rightName)
                                .with("held", formatBytes(c.heldChosen))
                                .with("held_right", formatBytes(c.heldRight))
                                .with("sent", formatBytes(c.sentChosen))
                                .with("sent_right", formatBytes(c.sentRight));
    c.sentence = english(c.sentenceMessage);
    return c;
}

} // namespace shardlab
