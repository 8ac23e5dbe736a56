// What each rank holds after a collective, computed on small example vectors: the meaning of
// each operation, independent of how it is implemented. The lessons, the comparison view and
// the tests use it to show, for instance, that an all-reduce where an all-gather was needed
// sums values that should have been concatenated.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/collectives.h"

#include <vector>

namespace shardlab {

using RankValues = std::vector<std::vector<double>>; // per rank

// inputs[r] is rank r's buffer. Reductions are sums. For reduce and broadcast `root` is the root;
// for send_recv, root sends to `peer`. Errors name the rank whose buffer has the wrong length.
Result<RankValues> applyCollective(OpKind kind, const RankValues& inputs, int root = 0, int peer = 1);

} // namespace shardlab
