#include "nccl_calls.h"

#include "cuda_util.h"
#include "shardlab/kernels.h"

#include <algorithm>
#include <thread>

namespace shardlab::live {

Status createCommunicators(std::vector<Communicator>& comms, bool blocking, double deadlineMs)
{
    prepareNcclEnvironment();
    DeviceGuard guard;
    std::vector<ncclUniqueId> ids(comms.size());
    for (ncclUniqueId& id : ids)
        LIVE_NCCL(ncclGetUniqueId(&id));
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = blocking ? 1 : 0;
    LIVE_NCCL(ncclGroupStart());
    ncclResult_t failed = ncclSuccess;
    for (size_t c = 0; c < comms.size() && failed == ncclSuccess; ++c) {
        Communicator& comm = comms[c];
        const int n = static_cast<int>(comm.ranks.size());
        comm.comms.assign(comm.ranks.size(), nullptr);
        for (int k = 0; k < n && failed == ncclSuccess; ++k) {
            if (cudaSetDevice(comm.ranks[static_cast<size_t>(k)]) != cudaSuccess)
                failed = ncclUnhandledCudaError;
            else if (ncclResult_t r =
                         ncclCommInitRankConfig(&comm.comms[static_cast<size_t>(k)], n, ids[c], k, &config);
                     r != ncclSuccess && r != ncclInProgress)
                failed = r;
        }
    }
    const ncclResult_t end = ncclGroupEnd();
    if (failed != ncclSuccess)
        return ncclError(failed, "ncclCommInitRankConfig", __FILE__, __LINE__);
    if (end != ncclSuccess && end != ncclInProgress)
        return ncclError(end, "ncclGroupEnd (communicator creation)", __FILE__, __LINE__);
    std::vector<ncclComm_t> all;
    for (const Communicator& c : comms)
        all.insert(all.end(), c.comms.begin(), c.comms.end());
    bool timedOut = false;
    if (Status st = waitUntilIssued(all, deadlineMs, &timedOut); !st) {
        abortCommunicators(comms);
        return st;
    }
    if (timedOut) {
        abortCommunicators(comms);
        return runFailed(Message("error.live.comms_not_created").with("seconds", number("%g", deadlineMs / 1000)));
    }
    return {};
}

Status joinWorld(std::vector<Communicator>& comms, int ranks, int rank, const std::vector<std::uint8_t>& uniqueId,
                 bool blocking, double deadlineMs)
{
    prepareNcclEnvironment();
    ncclUniqueId id;
    if (uniqueId.size() != sizeof id.internal)
        return runFailed(Message("error.live.unique_id_received")
                             .with("rank", rank)
                             .with("bytes", static_cast<int>(uniqueId.size()))
                             .with("expected", static_cast<int>(sizeof id.internal)));
    std::copy(uniqueId.begin(), uniqueId.end(), id.internal);
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = blocking ? 1 : 0;
    Communicator world;
    for (int r = 0; r < ranks; ++r)
        world.ranks.push_back(r);
    world.comms.assign(static_cast<size_t>(ranks), nullptr);
    ncclComm_t& mine = world.comms[static_cast<size_t>(rank)];
    const ncclResult_t r = ncclCommInitRankConfig(&mine, ranks, id, rank, &config);
    if (r != ncclSuccess && r != ncclInProgress) {
        if (mine)
            ncclCommAbort(mine);
        return ncclError(r, "ncclCommInitRankConfig (joining the job's communicator)", __FILE__, __LINE__);
    }
    comms.assign(1, world);
    bool timedOut = false;
    LIVE_TRY(waitUntilIssued({mine}, deadlineMs, &timedOut));
    if (timedOut)
        return runFailed(
            Message("error.live.join_timed_out").with("rank", rank).with("seconds", number("%g", deadlineMs / 1000)));
    return {};
}

Status splitWorld(std::vector<Communicator>& comms, const std::vector<std::vector<int>>& groups, int ranks, int rank,
                  bool blocking, double deadlineMs)
{
    const Communicator world = comms.front();
    ncclComm_t parent = world.comms[static_cast<size_t>(rank)];
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = blocking ? 1 : 0;
    std::vector<Communicator> made;
    std::vector<ncclComm_t> pending = {parent};
    bool worldUsed = false;
    ncclResult_t failed = ncclSuccess;
    Status waited;
    for (const std::vector<int>& g : groups) {
        Communicator c{g, std::vector<ncclComm_t>(g.size(), nullptr)};
        const auto at = std::find(g.begin(), g.end(), rank);
        const bool member = at != g.end();
        if (static_cast<int>(g.size()) == ranks) {
            c.comms[static_cast<size_t>(at - g.begin())] = parent;
            worldUsed = true;
        } else {
            ncclComm_t child = nullptr;
            const ncclResult_t r = ncclCommSplit(parent, member ? 0 : NCCL_SPLIT_NOCOLOR, rank, &child, &config);
            if (member)
                c.comms[static_cast<size_t>(at - g.begin())] = child;
            if (child)
                pending.push_back(child);
            if (r != ncclSuccess && r != ncclInProgress)
                failed = r;
        }
        made.push_back(std::move(c));
        if (failed != ncclSuccess)
            break;
        // A nonblocking split completes in the background: the next split of the same parent waits for it.
        bool timedOut = false;
        waited = waitUntilIssued(pending, deadlineMs, &timedOut);
        if (!waited)
            break;
        if (timedOut) {
            waited = runFailed(
                Message("error.line.rank_says")
                    .with("rank", rank)
                    .with("reason",
                          Message("error.live.split_timed_out").with("seconds", number("%g", deadlineMs / 1000))));
            break;
        }
    }
    if (!worldUsed)
        made.push_back(world);
    comms = std::move(made);
    if (failed != ncclSuccess)
        return ncclError(failed, "ncclCommSplit", __FILE__, __LINE__);
    return waited;
}

Result<std::vector<std::uint64_t>> allGatherWord(ncclComm_t world, int ranks, std::uint64_t mine, double deadlineMs)
{
    std::uint64_t* words = nullptr; // [0, ranks): everyone's; [ranks]: mine
    cudaStream_t stream = nullptr;
    struct Release {
        std::uint64_t*& w;
        cudaStream_t& s;
        ~Release()
        {
            if (s)
                cudaStreamDestroy(s);
            if (w)
                cudaFree(w);
        }
    } release{words, stream};
    const size_t n = static_cast<size_t>(ranks);
    LIVE_CUDA(cudaMalloc(&words, (n + 1) * sizeof(std::uint64_t)));
    LIVE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    LIVE_CUDA(cudaMemcpy(words + n, &mine, sizeof mine, cudaMemcpyHostToDevice));
    LIVE_NCCL(ncclAllGather(words + n, words, 1, ncclUint64, world, stream));
    bool timedOut = false;
    LIVE_TRY(waitUntilIssued({world}, deadlineMs, &timedOut));
    if (!timedOut)
        LIVE_TRY(waitStreams({stream}, deadlineMs, &timedOut));
    if (timedOut)
        return runFailed(Message("error.live.exchange_timed_out").with("seconds", number("%g", deadlineMs / 1000)));
    std::vector<std::uint64_t> all(n);
    LIVE_CUDA(cudaMemcpy(all.data(), words, n * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    return all;
}

Status waitUntilIssued(const std::vector<ncclComm_t>& comms, double deadlineMs, bool* timedOut)
{
    *timedOut = false;
    const double giveUp = nowNs() + deadlineMs * 1e6;
    for (size_t i = 0; i < comms.size();) {
        ncclResult_t state = ncclSuccess;
        LIVE_NCCL(ncclCommGetAsyncError(comms[i], &state));
        if (state == ncclSuccess) {
            ++i;
            continue;
        }
        if (state != ncclInProgress)
            return ncclError(state, "a communicator (ncclCommGetAsyncError)", __FILE__, __LINE__);
        if (nowNs() > giveUp) {
            *timedOut = true;
            return {};
        }
        std::this_thread::yield();
    }
    return {};
}

std::vector<ncclComm_t> heldComms(const Communicator& comm)
{
    std::vector<ncclComm_t> held;
    for (ncclComm_t c : comm.comms)
        if (c)
            held.push_back(c);
    return held;
}

// Last made first: communicators split from a job's world go before the world.
void abortCommunicators(std::vector<Communicator>& comms)
{
    for (auto c = comms.rbegin(); c != comms.rend(); ++c)
        for (ncclComm_t& comm : c->comms)
            if (comm) {
                ncclCommAbort(comm);
                comm = nullptr;
            }
    comms.clear();
}

Status destroyCommunicators(std::vector<Communicator>& comms, bool blocking, double deadlineMs)
{
    if (!blocking) {
        std::vector<ncclComm_t> all;
        for (Communicator& c : comms)
            for (ncclComm_t comm : c.comms)
                if (comm) {
                    const ncclResult_t r = ncclCommFinalize(comm);
                    if (r != ncclSuccess && r != ncclInProgress) {
                        abortCommunicators(comms);
                        return ncclError(r, "ncclCommFinalize", __FILE__, __LINE__);
                    }
                    all.push_back(comm);
                }
        bool timedOut = false;
        const Status st = waitUntilIssued(all, deadlineMs, &timedOut);
        if (!st || timedOut) {
            abortCommunicators(comms);
            return st ? Status(runFailed(Message("error.live.finalize_timed_out"))) : st;
        }
    }
    ncclResult_t failed = ncclSuccess;
    for (auto c = comms.rbegin(); c != comms.rend(); ++c)
        for (ncclComm_t& comm : c->comms)
            if (comm) {
                const ncclResult_t r = ncclCommDestroy(comm);
                if (r != ncclSuccess && failed == ncclSuccess)
                    failed = r;
                comm = nullptr;
            }
    comms.clear();
    if (failed != ncclSuccess)
        return ncclError(failed, "ncclCommDestroy", __FILE__, __LINE__);
    return {};
}

int groupCallsOf(OpKind kind) { return kind == OpKind::ReduceScatterAllGather ? 2 : 1; }

ncclResult_t enqueueCall(OpKind kind, const CallShape& s, int member, int members, int rootMember,
                         const std::vector<std::uint64_t>& pieces, ncclComm_t comm, const MemberBuffers& b, int phase)
{
    switch (kind) {
    case OpKind::Compute: return ncclSuccess;
    case OpKind::AllReduce: return ncclAllReduce(b.send, b.recv, s.count, ncclFloat, ncclSum, comm, b.stream);
    case OpKind::Reduce: return ncclReduce(b.send, b.recv, s.count, ncclFloat, ncclSum, rootMember, comm, b.stream);
    case OpKind::Broadcast: return ncclBroadcast(b.send, b.recv, s.count, ncclFloat, rootMember, comm, b.stream);
    case OpKind::AllGather: return ncclAllGather(b.send, b.recv, s.perRank, ncclFloat, comm, b.stream);
    case OpKind::AllGatherV: {
        const bool own = pieces.size() == static_cast<size_t>(members);
        std::uint64_t offset = 0;
        for (int j = 0; j < members; ++j) {
            const std::uint64_t count = own ? pieces[static_cast<size_t>(j)] : s.perRank;
            if (count > 0)
                if (ncclResult_t r = ncclBroadcast(b.send, b.recv + offset, count, ncclFloat, j, comm, b.stream);
                    r != ncclSuccess && r != ncclInProgress)
                    return r;
            offset += count;
        }
        return ncclSuccess;
    }
    case OpKind::ReduceScatter: return ncclReduceScatter(b.send, b.recv, s.perRank, ncclFloat, ncclSum, comm, b.stream);
    case OpKind::ReduceScatterAllGather: {
        float* piece = b.recv + static_cast<std::uint64_t>(member) * s.perRank;
        if (phase == 0)
            return ncclReduceScatter(b.send, piece, s.perRank, ncclFloat, ncclSum, comm, b.stream);
        return ncclAllGather(piece, b.recv, s.perRank, ncclFloat, comm, b.stream);
    }
    case OpKind::SendRecv:
        if (member == rootMember)
            return ncclSend(b.send, s.count, ncclFloat, 1 - rootMember, comm, b.stream);
        return ncclRecv(b.recv, s.count, ncclFloat, rootMember, comm, b.stream);
    }
    return ncclInvalidArgument;
}

int enqueueVerify(OpKind kind, const CallShape& s, int member, const std::vector<int>& groupRanks, int rootMember,
                  const std::vector<std::uint64_t>& pieces, const MemberBuffers& b, unsigned long long* wrong)
{
    const int n = static_cast<int>(groupRanks.size());
    float rankSum = 0;
    for (int r : groupRanks)
        rankSum += static_cast<float>(r + 1);
    const int root = groupRanks[static_cast<size_t>(rootMember)];
    switch (kind) {
    case OpKind::Compute: return 0;
    case OpKind::AllReduce:
    case OpKind::ReduceScatterAllGather: return kernels::countWrongSum(b.recv, s.count, rankSum, n, 0, wrong, b.stream);
    case OpKind::Reduce:
        return member == rootMember ? kernels::countWrongSum(b.recv, s.count, rankSum, n, 0, wrong, b.stream) : 0;
    case OpKind::Broadcast: return kernels::countWrongCopy(b.recv, s.count, root, 0, wrong, b.stream);
    case OpKind::SendRecv:
        return member == rootMember ? 0 : kernels::countWrongCopy(b.recv, s.count, root, 0, wrong, b.stream);
    case OpKind::ReduceScatter:
        return kernels::countWrongSum(b.recv, s.perRank, rankSum, n, static_cast<std::uint64_t>(member) * s.perRank,
                                      wrong, b.stream);
    case OpKind::AllGather:
    case OpKind::AllGatherV: {
        const bool own = kind == OpKind::AllGatherV && pieces.size() == static_cast<size_t>(n);
        std::uint64_t offset = 0;
        for (int j = 0; j < n; ++j) {
            const std::uint64_t count = own ? pieces[static_cast<size_t>(j)] : s.perRank;
            if (int e = kernels::countWrongCopy(b.recv + offset, count, groupRanks[static_cast<size_t>(j)], 0, wrong,
                                                b.stream))
                return e;
            offset += count;
        }
        return 0;
    }
    }
    return 0;
}

} // namespace shardlab::live
