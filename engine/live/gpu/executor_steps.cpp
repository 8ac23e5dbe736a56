// Executor: one iteration, step by step, and the watchdog.
//
// Every phase boundary is a %globaltimer stamp on the stream where it happens. Compute and delay
// kernels stamp their own end; a collective's end is a one-thread stamp kernel after NCCL's. A
// collective's arrival needs no stamp of its own: its stream reaches the call at the later of the
// stamps it waited for (the compute before it; for an overlapped bucket also the previous bucket on
// the communication stream; for a blocking collective also the overlapped ones it joins), so that
// capturing a timeline adds one small launch per collective and rank. Each arrival and end also
// records an event: the watchdog follows those events, and when every rank is either inside a
// collective or finished, and no event completed for the deadline, it aborts the communicators
// (ncclCommAbort) and reports who was where.
#include "executor.h"

#include "cuda_util.h"
#include "shardlab/kernels.h"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace shardlab::live {
namespace {
std::string label(const Op& op) { return op.name.empty() ? std::string(opName(op.kind)) : op.name; }

Mark later(Mark a, const Mark& b)
{
    for (int s : b)
        if (std::find(a.begin(), a.end(), s) == a.end())
            a.push_back(s);
    return a;
}

class NvtxRange {
public:
    explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
    ~NvtxRange() { nvtxRangePop(); }
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};
} // namespace

int Executor::mark(int rank, int stream, bool always)
{
    Rank& rk = m_ranks[static_cast<size_t>(rank)];
    if ((!m_opt.captureTimeline && !always) || rk.nextSlot >= rk.stampCapacity)
        return -1;
    const int slot = rk.nextSlot++;
    if (const int e = kernels::launchStamp(rk.stamps + slot, rk.stream[stream]); e && m_launchError == cudaSuccess)
        m_launchError = static_cast<cudaError_t>(e);
    rk.last[stream] = {slot};
    return slot;
}

int Executor::reserveSlot(int rank)
{
    Rank& rk = m_ranks[static_cast<size_t>(rank)];
    if (!m_opt.captureTimeline || rk.nextSlot >= rk.stampCapacity)
        return -1;
    return rk.nextSlot++;
}

cudaEvent_t Executor::poolEvent(int rank)
{
    Rank& rk = m_ranks[static_cast<size_t>(rank)];
    if (rk.nextEvent == rk.events.size()) {
        cudaEvent_t e = nullptr;
        if (const cudaError_t err = cudaEventCreateWithFlags(&e, cudaEventDisableTiming); err != cudaSuccess) {
            if (m_launchError == cudaSuccess)
                m_launchError = err;
            return nullptr;
        }
        rk.events.push_back(e);
    }
    return rk.events[rk.nextEvent++];
}

Status Executor::point(int rank, int stream, bool leave, int instance)
{
    cudaEvent_t e = poolEvent(rank);
    if (!e)
        LIVE_CUDA(m_launchError);
    LIVE_CUDA(cudaEventRecord(e, m_ranks[static_cast<size_t>(rank)].stream[stream]));
    m_points[static_cast<size_t>(rank)].push_back({e, leave, instance});
    return {};
}

Status Executor::join(int rank, int iteration)
{
    Rank& rk = m_ranks[static_cast<size_t>(rank)];
    cudaEvent_t e = poolEvent(rank);
    if (!e)
        LIVE_CUDA(m_launchError);
    LIVE_CUDA(cudaEventRecord(e, rk.stream[1]));
    LIVE_CUDA(cudaStreamWaitEvent(rk.stream[0], e, 0));
    // The compute stream is exposed to communication from where it stood to the end of the
    // overlapped collective it waits for (nothing, if that ended first).
    const Instance& in = m_instances[static_cast<size_t>(rk.lastCommInstance)];
    m_phases.push_back({.rank = rank,
                        .kind = SpanKind::Comm,
                        .op = in.op,
                        .iteration = iteration,
                        .bucket = in.bucket,
                        .begin = rk.last[0],
                        .end = rk.lastCommEnd,
                        .instance = rk.lastCommInstance});
    rk.last[0] = later(rk.last[0], rk.lastCommEnd);
    rk.commBusy = false;
    return {};
}

Status Executor::runIteration(int it, bool& hung)
{
    const int n = m_s.ranks();
    NvtxRange range("iteration " + std::to_string(it));
    m_stamps.emplace_back(static_cast<size_t>(n));
    m_iterBegin.emplace_back(static_cast<size_t>(n), -1);
    m_iterEnd.emplace_back(static_cast<size_t>(n), -1);
    m_points.assign(static_cast<size_t>(n), {});
    m_cursor.assign(static_cast<size_t>(n), 0);
    for (int r = 0; r < n; ++r) {
        if (!local(r))
            continue;
        Rank& rk = m_ranks[static_cast<size_t>(r)];
        LIVE_CUDA(cudaSetDevice(rk.device));
        rk.nextSlot = 0;
        rk.last[0].clear();
        rk.last[1].clear();
        rk.commBusy = false;
        rk.lastCommInstance = -1;
        rk.lastCommEnd.clear();
        rk.nextEvent = 0;
        LIVE_CUDA(
            cudaMemsetAsync(rk.stamps, 0, static_cast<size_t>(rk.stampCapacity) * sizeof(std::uint64_t), rk.stream[0]));
        LIVE_CUDA(cudaMemsetAsync(rk.stampCounters, 0, static_cast<size_t>(rk.stampCapacity) * sizeof(unsigned),
                                  rk.stream[0]));
        LIVE_CUDA(cudaMemsetAsync(rk.computeStarts, 0,
                                  static_cast<size_t>(rk.computeStartCapacity) * sizeof(std::uint64_t), rk.stream[0]));
        rk.nextComputeStart = 0;
        LIVE_CUDA(cudaStreamSynchronize(rk.stream[0]));
        m_iterBegin.back()[static_cast<size_t>(r)] = mark(r, 0, true);
    }
    m_lastProgressNs = nowNs();
    for (const ProgramStep& st : m_plan.steps) {
        LIVE_TRY(issueStep(st, it, hung));
        LIVE_CUDA(m_launchError);
        if (hung)
            return abortAndDrain(it);
        bool idle = false;
        LIVE_TRY(watchdogPoll(hung, idle));
        if (hung) {
            buildHang(it);
            return abortAndDrain(it);
        }
        if (m_opt.cancel && m_opt.cancel->load())
            return Error(ErrorKind::Cancelled, Message("error.live.cancelled"));
    }
    for (int r = 0; r < n; ++r) {
        if (!local(r))
            continue;
        LIVE_CUDA(cudaSetDevice(m_ranks[static_cast<size_t>(r)].device));
        if (m_ranks[static_cast<size_t>(r)].commBusy)
            LIVE_TRY(join(r, it));
        m_iterEnd.back()[static_cast<size_t>(r)] = mark(r, 0, true);
    }
    LIVE_CUDA(m_launchError);
    LIVE_TRY(waitIteration(it, hung));
    if (hung)
        return abortAndDrain(it);
    return readStamps(it);
}

Status Executor::issueStep(const ProgramStep& st, int it, bool& hung)
{
    const Op& op = m_s.program[static_cast<size_t>(st.op)];
    const std::string name = label(op) + (op.buckets > 1 ? " [bucket " + std::to_string(st.bucket) + "]" : "");
    for (int r = 0; r < m_s.ranks(); ++r) {
        if (!local(r))
            continue;
        Rank& rk = m_ranks[static_cast<size_t>(r)];
        const double delayUs = liveDelayUs(m_s, r, st, it);
        const bool gemms = m_gemms && rk.blas && runsGemms(m_s, m_plan, r, st);
        const double computeUs = liveKernelUs(m_s, m_plan, *m_model, r, st, it, gemms);
        if (delayUs <= 0 && computeUs <= 0 && !gemms)
            continue;
        LIVE_CUDA(cudaSetDevice(rk.device));
        setActivity(Message(delayUs > 0 ? "live.activity.delay" : "live.activity.computing")
                        .with("step", st.op + 1)
                        .with("iteration", it + 1));
        if (delayUs > 0) {
            NvtxRange range("rank " + std::to_string(r) + ": injected delay before " + name);
            const int slot = reserveSlot(r);
            LIVE_KERNEL(kernels::launchSpin(static_cast<std::uint64_t>(delayUs * 1e3), rk.stream[0],
                                            slot >= 0 ? rk.stamps + slot : nullptr));
            if (slot >= 0) {
                m_phases.push_back({.rank = r,
                                    .kind = SpanKind::Compute,
                                    .detail = SpanDetail::InjectedDelay,
                                    .op = st.op,
                                    .iteration = it,
                                    .bucket = st.bucket,
                                    .begin = rk.last[0],
                                    .end = {slot}});
                rk.last[0] = {slot};
            }
        }
        if (computeUs > 0 || gemms) {
            NvtxRange range("rank " + std::to_string(r) + ": " + name);
            // the phase: the op's GEMMs (cuBLAS), then the timed kernel for the rest of its time,
            // which stamps the end; without a rest, a stamp after the GEMMs does
            const Mark begin = rk.last[0];
            if (gemms)
                LIVE_TRY(runGemms(rk, op));
            int slot = -1;
            if (computeUs <= 0) {
                slot = mark(r, 0);
            } else {
                slot = reserveSlot(r);
                if (rk.nextComputeStart >= rk.computeStartCapacity)
                    return runFailed(Message("error.live.too_many_phases"));
                LIVE_KERNEL(kernels::launchTimedCompute(
                    rk.scratch, rk.scratchCount, static_cast<std::uint64_t>(computeUs * 1e3), rk.computeRounds,
                    rk.computeBlocks, rk.computeStarts + rk.nextComputeStart++, rk.stream[0],
                    slot >= 0 ? rk.stamps + slot : nullptr, slot >= 0 ? rk.stampCounters + slot : nullptr));
            }
            if (slot >= 0) {
                m_phases.push_back({.rank = r,
                                    .kind = SpanKind::Compute,
                                    .op = st.op,
                                    .iteration = it,
                                    .bucket = st.bucket,
                                    .begin = begin,
                                    .end = {slot}});
                rk.last[0] = {slot};
            }
        }
    }
    if (!isCollective(op.kind))
        return {};
    NvtxRange range(name + " (" + opName(op.kind) + ")");
    return issueCollective(st, it, hung);
}

Status Executor::issueCollective(const ProgramStep& st, int it, bool& hung)
{
    const Op& op = m_s.program[static_cast<size_t>(st.op)];
    const int g = m_plan.opGroup[static_cast<size_t>(st.op)];
    const std::vector<int>& ranks = m_plan.groups[static_cast<size_t>(g)];
    const int n = static_cast<int>(ranks.size());
    const bool rooted = op.kind == OpKind::Reduce || op.kind == OpKind::Broadcast || op.kind == OpKind::SendRecv;
    const int root = rooted ? static_cast<int>(std::find(ranks.begin(), ranks.end(), op.root) - ranks.begin()) : 0;
    const int stream = op.overlap ? 1 : 0;
    const int index = static_cast<int>(m_instances.size());
    Instance in;
    in.op = st.op;
    in.bucket = st.bucket;
    in.iteration = it;
    in.group = g;
    in.sequence = m_groupSeq[static_cast<size_t>(g)]++;
    in.ranks = ranks;
    in.arrive.assign(static_cast<size_t>(n), {});
    in.leave.assign(static_cast<size_t>(n), {});
    in.stream.assign(static_cast<size_t>(n), stream);
    in.ordinal.assign(static_cast<size_t>(n), -1);
    in.leavePoint.assign(static_cast<size_t>(n), -1);
    int groupCalls = 0;
    for (int k = 0; k < n; ++k) {
        const int r = ranks[static_cast<size_t>(k)];
        in.calls.push_back(liveCall(m_s, m_plan, r, st, it));
        if (in.calls.back().skipped || !local(r))
            continue;
        groupCalls = std::max(groupCalls, groupCallsOf(in.calls.back().kind));
        Rank& rk = m_ranks[static_cast<size_t>(r)];
        LIVE_CUDA(cudaSetDevice(rk.device));
        if (op.overlap) { // bucket k starts once the compute before it and the bucket before it have finished
            cudaEvent_t e = poolEvent(r);
            if (!e)
                LIVE_CUDA(m_launchError);
            LIVE_CUDA(cudaEventRecord(e, rk.stream[0]));
            LIVE_CUDA(cudaStreamWaitEvent(rk.stream[1], e, 0));
            rk.last[1] = later(rk.last[1], rk.last[0]);
        } else if (rk.commBusy) { // a blocking collective waits for the overlapped ones
            LIVE_TRY(join(r, it));
        }
        if (m_opt.captureTimeline)
            in.arrive[static_cast<size_t>(k)] = rk.last[stream];
        in.ordinal[static_cast<size_t>(k)] = rk.collectivesIssued++;
        LIVE_TRY(point(r, stream, false, index));
    }
    m_instances.push_back(in);
    Instance& inst = m_instances.back();
    for (int phase = 0; phase < groupCalls; ++phase) {
        std::vector<ncclComm_t> called;
        LIVE_NCCL(ncclGroupStart());
        ncclResult_t failed = ncclSuccess;
        for (int k = 0; k < n; ++k) {
            const LiveCall& call = inst.calls[static_cast<size_t>(k)];
            if (call.skipped || groupCallsOf(call.kind) <= phase || !local(ranks[static_cast<size_t>(k)]))
                continue;
            Rank& rk = m_ranks[static_cast<size_t>(ranks[static_cast<size_t>(k)])];
            const auto& pieces =
                call.mismatched ? std::vector<std::uint64_t>{} : m_plan.pieces[static_cast<size_t>(st.op)];
            const CallShape shape = callShape(call.kind, call.bytes, n, k, root, pieces);
            ncclComm_t comm = m_comms[static_cast<size_t>(g)].comms[static_cast<size_t>(k)];
            const ncclResult_t r =
                enqueueCall(call.kind, shape, k, n, root, pieces, comm, {rk.send, rk.recv, rk.stream[stream]}, phase);
            if (r != ncclSuccess && r != ncclInProgress && failed == ncclSuccess)
                failed = r;
            called.push_back(comm);
        }
        const ncclResult_t end = ncclGroupEnd();
        LIVE_NCCL(failed);
        LIVE_NCCL(end);
        bool timedOut = false;
        LIVE_TRY(waitUntilIssued(called, m_watchdogMs, &timedOut));
        if (timedOut) { // NCCL itself is stuck (a peer never joined a connection it needs)
            m_hostStuck = index;
            hung = true;
            buildHang(it);
            return {};
        }
    }
    for (int k = 0; k < n; ++k) {
        const int r = ranks[static_cast<size_t>(k)];
        if (inst.calls[static_cast<size_t>(k)].skipped || !local(r))
            continue;
        Rank& rk = m_ranks[static_cast<size_t>(r)];
        LIVE_CUDA(cudaSetDevice(rk.device));
        if (const int slot = mark(r, stream); slot >= 0)
            inst.leave[static_cast<size_t>(k)] = {slot};
        inst.leavePoint[static_cast<size_t>(k)] = static_cast<int>(m_points[static_cast<size_t>(r)].size());
        LIVE_TRY(point(r, stream, true, index));
        if (op.overlap) {
            rk.commBusy = true;
            rk.lastCommInstance = index;
            rk.lastCommEnd = inst.leave[static_cast<size_t>(k)];
        }
        setActivity(Message("live.activity.in").with("collective", describe(inst)));
    }
    return {};
}

Status Executor::watchdogPoll(bool& hung, bool& idle)
{
    hung = false;
    idle = true;
    const double now = nowNs();
    bool progressed = false, anyInside = false, allStuckOrDone = true;
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        if (!local(static_cast<int>(r)))
            continue;
        Rank& rk = m_ranks[r];
        const std::vector<Point>& pts = m_points[r];
        std::size_t& cur = m_cursor[r];
        while (cur < pts.size()) {
            const cudaError_t e = cudaEventQuery(pts[cur].event);
            if (e == cudaErrorNotReady)
                break;
            LIVE_CUDA(e);
            if (pts[cur].leave) {
                ++rk.collectivesDone;
                if (m_binding && m_binding->progress)
                    m_binding->progress->collectiveCompleted(
                        rk.collectivesDone - 1, describe(m_instances[static_cast<size_t>(pts[cur].instance)]));
            }
            ++cur;
            progressed = true;
        }
        if (cur < pts.size()) {
            idle = false;
            if (pts[cur].leave)
                anyInside = true;
            else
                allStuckOrDone = false; // still computing on its way to a collective
            continue;
        }
        for (cudaStream_t s : rk.stream) {
            const cudaError_t e = cudaStreamQuery(s);
            if (e == cudaErrorNotReady) {
                idle = false;
                allStuckOrDone = false; // finishing its last compute
            } else {
                LIVE_CUDA(e);
            }
        }
    }
    for (const Communicator& c : m_comms)
        for (ncclComm_t comm : heldComms(c)) {
            ncclResult_t state = ncclSuccess;
            LIVE_NCCL(ncclCommGetAsyncError(comm, &state));
            if (state != ncclSuccess && state != ncclInProgress)
                return ncclError(state, "a collective (ncclCommGetAsyncError)", __FILE__, __LINE__);
        }
    if (progressed)
        m_lastProgressNs = now;
    hung = anyInside && allStuckOrDone && now - m_lastProgressNs > m_watchdogMs * 1e6;
    return {};
}

Status Executor::waitIteration(int it, bool& hung)
{
    for (;;) {
        bool idle = false;
        LIVE_TRY(watchdogPoll(hung, idle));
        if (idle)
            return {};
        if (hung) {
            buildHang(it);
            return {};
        }
        if (m_opt.cancel && m_opt.cancel->load())
            return Error(ErrorKind::Cancelled, Message("error.live.cancelled"));
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

void Executor::buildHang(int it)
{
    const int n = m_s.ranks();
    std::vector<int> lastCompleted;
    std::vector<std::string> pending;
    std::vector<Message> pendingMessages; // the same, to be worded in the user's language
    for (int r = 0; r < n; ++r) {
        const Rank& rk = m_ranks[static_cast<size_t>(r)];
        if (!local(r)) { // another process reports it
            lastCompleted.push_back(-1);
            pending.emplace_back();
            pendingMessages.push_back(verbatim({}));
            continue;
        }
        lastCompleted.push_back(rk.collectivesDone - 1);
        const auto& pts = m_points[static_cast<size_t>(r)];
        const std::size_t cur = m_cursor[static_cast<size_t>(r)];
        Message what = Message("hang.pending.left").with("iteration", it + 1);
        int at = -1;
        if (cur < pts.size() && pts[cur].leave)
            at = pts[cur].instance;
        if (m_hostStuck >= 0) {
            const Instance& in = m_instances[static_cast<size_t>(m_hostStuck)];
            if (std::find(in.ranks.begin(), in.ranks.end(), r) != in.ranks.end())
                at = m_hostStuck;
        }
        if (at >= 0) {
            const Instance& in = m_instances[static_cast<size_t>(at)];
            const size_t k = static_cast<size_t>(std::find(in.ranks.begin(), in.ranks.end(), r) - in.ranks.begin());
            const LiveCall& c = in.calls[k];
            what = Message("hang.pending.blocked")
                       .with("op", opName(c.kind))
                       .with("ordinal", in.ordinal[k])
                       .with("bytes", formatBytes(c.bytes))
                       .with("step", in.op + 1);
            if (at == m_hostStuck)
                what = Message("live.pending.not_issued").with("pending", std::move(what));
        } else if (cur < pts.size()) {
            what = Message("live.pending.computing").with("number", m_ranks[static_cast<size_t>(r)].collectivesDone);
        }
        pending.push_back(english(what));
        pendingMessages.push_back(std::move(what));
    }
    // The first collective of this iteration whose members did not all make the same call, else
    // the first that did not complete.
    int first = -1;
    for (size_t i = 0; i < m_instances.size() && first < 0; ++i) {
        const Instance& in = m_instances[i];
        if (in.iteration != it)
            continue;
        for (const LiveCall& c : in.calls)
            if (c.skipped || c.kind != in.calls[0].kind || c.bytes != in.calls[0].bytes)
                first = static_cast<int>(i);
    }
    for (size_t i = 0; i < m_instances.size() && first < 0; ++i) {
        const Instance& in = m_instances[i];
        for (size_t k = 0; k < in.ranks.size(); ++k)
            if (in.iteration == it && !in.calls[k].skipped && local(in.ranks[k])
                && (in.leavePoint[k] < 0
                    || static_cast<std::size_t>(in.leavePoint[k]) >= m_cursor[static_cast<size_t>(in.ranks[k])]))
                first = static_cast<int>(i);
    }
    std::vector<LivePendingCall> stuck;
    if (first >= 0) {
        const Instance& in = m_instances[static_cast<size_t>(first)];
        for (size_t k = 0; k < in.ranks.size(); ++k)
            stuck.push_back({in.ranks[k], !in.calls[k].skipped, in.calls[k].kind, in.calls[k].bytes, in.op});
    }
    m_hang = explainLiveHang(lastCompleted, pending, stuck, it, m_watchdogMs, pendingMessages);
}

Status Executor::abortAndDrain(int it)
{
    m_aborted = true;
    abortCommunicators(m_comms);
    const double giveUp = nowNs() + 10e9;
    for (Rank& rk : m_ranks)
        for (cudaStream_t s : rk.stream)
            while (s && cudaStreamQuery(s) == cudaErrorNotReady) {
                if (nowNs() > giveUp)
                    return runFailed(Message("error.live.not_idle_after_hang").with("seconds", 10));
                std::this_thread::sleep_for(std::chrono::microseconds(100));
            }
    cudaGetLastError();
    return readStamps(it);
}

Status Executor::readStamps(int it)
{
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        Rank& rk = m_ranks[r];
        auto& v = m_stamps[static_cast<size_t>(it)][r];
        v.assign(static_cast<size_t>(rk.nextSlot), 0);
        if (v.empty())
            continue;
        LIVE_CUDA(cudaSetDevice(rk.device));
        LIVE_CUDA(cudaMemcpy(v.data(), rk.stamps, v.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    }
    return {};
}

void Executor::setActivity(Message what)
{
    if (m_binding && m_binding->progress)
        m_binding->progress->setActivity(std::move(what));
}

Message Executor::describe(const Instance& in) const
{
    const Op& op = m_s.program[static_cast<size_t>(in.op)];
    const std::string id =
        std::string(op.name.empty() ? "live.collective" : "live.collective.named") + (op.buckets > 1 ? ".bucket" : "");
    return Message(id)
        .with("op", opName(op.kind))
        .with("name", op.name) // the user's own name for the step, as written
        .with("step", in.op + 1)
        .with("bucket", in.bucket)
        .with("iteration", in.iteration);
}

} // namespace shardlab::live
