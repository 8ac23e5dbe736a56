// What happens when the collective does not match what the next step needs (the course: choose
// the collective from its consumer). Computed on small example values with semantics.h, so the
// lesson shows numbers: an all-reduce where an all-gather was needed sums pieces that should have
// been concatenated, and nothing reports an error.
#pragma once

#include "shardlab/model/collectives.h"
#include "shardlab/model/semantics.h"

#include "shardlab/text/message.h"

#include <string>

namespace shardlab {

const char* needDescription(Need need); // "the sum on one rank", "a concatenation on every rank", ...

// Example inputs: rank r holds 10(r+1), 10(r+1)+1, ... (perRank values), so that sums and
// concatenations are easy to tell apart by eye.
RankValues exampleRankValues(int ranks, int perRank);

struct ChoiceConsequence {
    Need need = Need::SumOnEveryRank;
    OpKind right = OpKind::AllReduce; // collectiveFor(need)
    OpKind chosen = OpKind::AllReduce;
    RankValues inputs;
    RankValues expected;  // what `right` leaves on each rank
    RankValues got;       // what `chosen` leaves (empty when it rejects the inputs)
    std::string rejected; // why `chosen` cannot even run on these inputs
    bool correct = false; // got == expected on every rank
    // Per rank for a buffer of `bytes` (each rank's input): bytes held afterwards and ring
    // traffic sent, for the right and the chosen collective.
    Bytes heldRight = 0, heldChosen = 0, sentRight = 0, sentChosen = 0;
    std::string sentence;    // English: english(sentenceMessage)
    Message sentenceMessage; // the same, as data (`rejected` inside it stays as the engine wrote it)
};

// `bytes`: each rank's input buffer (a piece for concatenation, the whole vector for sums).
ChoiceConsequence consequenceOfChoosing(OpKind chosen, Need need, int ranks, Bytes bytes, bool unequalPieces = false);

} // namespace shardlab
