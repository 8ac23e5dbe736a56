// A profiled job's operations matched across ranks (docs/profiling.md, "From records to a run"):
//  * the job's ranks are those of its largest communicator (the world); every other communicator a
//    process joined belongs to that process's world rank (a process that drives several GPUs has
//    several world ranks: its other communicators cannot be told apart and are not drawn);
//  * a collective is matched by (communicator, kind, NCCL's sequence number): NCCL numbers
//    collectives per kind within a communicator (AllGather 0, Broadcast 0-3, AllReduce 0-24 ...);
//  * a send and its receive by (communicator, sender, receiver, their own sequence): the i-th send
//    from a to b is the i-th receive on b from a (NCCL delivers them in order);
//  * the matched operations are put in order by time: each by its members' earliest arrival, on
//    the first rank's clock. Within a communicator that is the order every member issued them.
// An operation some member never recorded is kept (everyMember false: the merge leaves it out and
// the run has a hang report) where that member's records end before it. Every disagreement (a
// size, type or root two ranks recorded differently, a collective some member never recorded
// although its records go on: its next call in that communicator came after the others') is refused with each rank, its
// process and what it recorded.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/cluster/clock_sync.h"
#include "shardlab/live/live_clock.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/program.h"
#include "shardlab/profile/profile_reader.h"

#include <map>
#include <string>
#include <vector>

namespace shardlab {

// One communicator of the job as drawn: its members' global ranks in its own rank order.
struct MatchedComm {
    std::uint64_t hash = 0;
    std::string name;       // NCCL's name of it ("" where the program gave none)
    std::vector<int> ranks; // global rank of communicator rank i
};

// One rank's record of one operation, on its process's host clock (ns).
struct RankOp {
    const ProfiledOp* op = nullptr;
    int comm = 0;         // MatchedProfile::comms index
    int matched = -1;     // MatchedProfile::ops index (-1: not matched: the records end early)
    double arrivalNs = 0; // its kernel's first channel start (else NCCL's event start)
    double endNs = 0;
    bool complete = true; // its kernel's end was recorded
};

// One operation of the job, matched across its members.
struct MatchedOp {
    OpKind kind = OpKind::AllReduce; // SendRecv for a send and its receive
    Bytes bytes = 0;                 // nccl-tests' size (all-gather, reduce-scatter: the whole buffer)
    int root = -1;                   // reduce, broadcast: global rank; send/recv: the sender
    int peer = -1;                   // send/recv: the receiver
    int comm = 0;
    std::uint64_t sequence = 0; // NCCL's per kind (collectives); the pair's own (send/recv)
    std::vector<int> group;     // global ranks: the communicator's; send/recv: {lower, higher}
    std::vector<int> rankOps;   // per group member: its RankOp index (-1: not recorded)
    double orderNs = 0;         // the earliest arrival, on the first rank's host clock
    bool everyMember = true;    // false: some member's records end before it (not drawn)
};

struct MatchedProfile {
    int ranks = 0;
    std::uint64_t world = 0;
    std::vector<size_t> fileOfRank;           // the record file of each global rank
    std::vector<MatchedComm> comms;           // comms[0] is the world
    std::vector<std::vector<RankOp>> rankOps; // per global rank, in its own order (arrival)
    std::vector<MatchedOp> ops;               // in order of time
    std::vector<ProcessClockFit> hostClock;   // per global rank: its host clock -> rank 0's (us)
    double worstClockNs = 0;
    int brackets = 0;
    bool hostOnly = false;
    bool incomplete = false;               // some rank's records end before the others'
    std::vector<bool> endsEarly;           // per global rank: its records end before the others'
    int otherCommOps = 0;                  // on communicators not drawn
    std::map<std::string, int> unmodelled; // NCCL functions ShardLab does not model
};

// `recordsStillArriving`: a collective timed by the host alone counts as finished only once its
// stop has arrived (profile_live.h). `imported`: the files are other tools' (engine/import), so
// a rank missing or recorded twice is worded as files given, not as ShardLab's profiler's folder.
Result<MatchedProfile> matchProfile(const std::vector<ProfileFile>& files, bool recordsStillArriving,
                                    bool imported = false);

// NCCL's communicator hash as messages print it: 16 hex digits ("7d04636eeb5869a7").
std::string commHashText(std::uint64_t hash);
// "communicator 7d04636eeb5869a7 (ranks 0,1)"
std::string commText(const MatchedComm& comm);

} // namespace shardlab
