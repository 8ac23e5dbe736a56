// NCCL communicators and the calls of every collective ShardLab knows, for one host thread that
// drives every GPU (so every call of a step is made for all members inside one NCCL group), or
// one rank of a multi-process job (its members' entries are null where another process holds them).
#pragma once

#include "shardlab/live/live_plan.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdint>
#include <vector>

namespace shardlab::live {

// One communicator per member of a group of ranks; rank r runs on device r in a single process.
struct Communicator {
    std::vector<int> ranks;
    std::vector<ncclComm_t> comms; // by member; null for a member another process holds
};

// The non-null communicators of `comm` (those this process holds).
std::vector<ncclComm_t> heldComms(const Communicator& comm);

// Creates every communicator in one NCCL group (ncclCommInitRankConfig per member, one unique id
// per communicator). Nonblocking communicators return at once and are polled, so that a hang
// anywhere in NCCL can be abandoned after `deadlineMs` with ncclCommAbort instead of blocking the
// caller's thread.
Status createCommunicators(std::vector<Communicator>& comms, bool blocking, double deadlineMs);

// Polls ncclCommGetAsyncError until no communicator of `comms` is still in progress. On an NCCL
// error returns RunFailed; when `deadlineMs` passes first, sets *timedOut and returns ok.
Status waitUntilIssued(const std::vector<ncclComm_t>& comms, double deadlineMs, bool* timedOut);

// A multi-process job: joins the world communicator of `ranks` ranks as `rank` on the current
// device (ncclCommInitRankConfig with the unique id rank 0 made), waiting at most deadlineMs.
// On return `comms` holds it alone: { all ranks, the world at index `rank` }.
Status joinWorld(std::vector<Communicator>& comms, int ranks, int rank, const std::vector<std::uint8_t>& uniqueId,
                 bool blocking, double deadlineMs);

// A multi-process job: one communicator per group, made by every process in the same order from
// the world that joinWorld left in `comms`: the world itself for a group of every rank, otherwise
// ncclCommSplit of the world (NCCL_SPLIT_NOCOLOR where `rank` is not a member; key = rank, so
// members keep the group's ascending order). On return comms[g] is group g's, and the world is
// the last entry when no group uses it. On failure `comms` holds everything made so far.
Status splitWorld(std::vector<Communicator>& comms, const std::vector<std::vector<int>>& groups, int ranks, int rank,
                  bool blocking, double deadlineMs);

// A multi-process job: every rank's `mine` (ncclAllGather of one word over `world` on the current
// device), waiting at most deadlineMs. For what the processes must agree on before the run.
Result<std::vector<std::uint64_t>> allGatherWord(ncclComm_t world, int ranks, std::uint64_t mine, double deadlineMs);

// Every communicator aborted (kernels stop, resources freed); the vector is emptied.
void abortCommunicators(std::vector<Communicator>& comms);
// Normal teardown once the streams are idle: nonblocking communicators are finalized and polled
// (up to deadlineMs, then aborted), then destroyed; blocking ones destroyed one by one as
// nccl-tests does from one thread.
Status destroyCommunicators(std::vector<Communicator>& comms, bool blocking, double deadlineMs);

struct MemberBuffers {
    float* send = nullptr;
    float* recv = nullptr;
    cudaStream_t stream = nullptr;
};

// How many NCCL group calls a collective takes: 2 for reduce-scatter + all-gather (the all-gather
// runs in place on the scattered pieces once the reduce-scatter is issued), 1 otherwise.
int groupCallsOf(OpKind kind);

// Enqueues member `member`'s part of group call `phase` of `kind` (the caller brackets the
// members' calls with ncclGroupStart/End). All-gather-v is one ncclBroadcast per member with a
// non-empty piece, every member receiving each piece at its offset (NCCL has no all-gather-v).
ncclResult_t enqueueCall(OpKind kind, const CallShape& shape, int member, int members, int rootMember,
                         const std::vector<std::uint64_t>& pieces, ncclComm_t comm, const MemberBuffers& b, int phase);

// Launches the kernels that count member `member`'s wrong output elements into *wrong (see
// kernels.h for the expected values). `groupRanks` are the members' global ranks (the fill pattern
// of every send buffer is value(global rank, index)).
int enqueueVerify(OpKind kind, const CallShape& shape, int member, const std::vector<int>& groupRanks, int rootMember,
                  const std::vector<std::uint64_t>& pieces, const MemberBuffers& b, unsigned long long* wrong);

} // namespace shardlab::live
