#include "cli.h"

#include "shardlab/live.h"

#include <ostream>

namespace shardlab::cli {

int benchLive(OpKind, int, const std::vector<Bytes>&, bool, Io io)
{
    if (!liveBuiltIn()) {
        io.err << "shardlab: live mode is not built into this ShardLab; add --sim --preset ID to simulate the sweep\n";
        return kExitBadInput;
    }
    io.err << "shardlab: live bench is not available yet in this build\n";
    return kExitBadInput;
}

} // namespace shardlab::cli
