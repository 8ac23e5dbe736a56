// Executor: setting up a live run (streams, the plan, buffers, communicators, the compute
// kernel's calibration), for every rank in one process or for one rank of a multi-process job.
#include "executor.h"

#include "cuda_util.h"
#include "shardlab/kernels.h"
#include "shardlab/sim/profiles.h"

#include <nvtx3/nvToolsExtCudaRt.h>

#include <algorithm>

namespace shardlab::live {
namespace {

constexpr Bytes kNcclReserve = Bytes{1} << 30; // NCCL's own buffers and the CUDA context, per GPU

} // namespace

Status Executor::allocate(Rank& rk, int rank, const LivePlan& plan)
{
    auto alloc = [&](auto** ptr, Bytes bytes, const char* what) -> Status { // what: the buffer's id
        if (bytes == 0)
            return {};
        const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
        if (e == cudaSuccess)
            return {};
        cudaGetLastError(); // an allocation failure is not sticky; clear it
        size_t freeB = 0, totalB = 0;
        cudaMemGetInfo(&freeB, &totalB);
        return runFailed(allocationFailure(rank, rk.device, Message(what), bytes, freeB, totalB));
    };
    const Bytes send = std::max<Bytes>(plan.sendBytes[static_cast<size_t>(rank)], kLiveElementBytes);
    const Bytes recv = std::max<Bytes>(plan.recvBytes[static_cast<size_t>(rank)], kLiveElementBytes);
    LIVE_TRY(alloc(&rk.send, send, "error.live.buffer.send"));
    LIVE_TRY(alloc(&rk.recv, recv, "error.live.buffer.receive"));
    LIVE_TRY(alloc(&rk.scratch, rk.scratchCount * sizeof(float), "error.live.buffer.scratch"));
    LIVE_TRY(
        alloc(&rk.stamps, static_cast<Bytes>(rk.stampCapacity) * sizeof(std::uint64_t), "error.live.buffer.stamps"));
    LIVE_TRY(alloc(&rk.stampCounters, static_cast<Bytes>(rk.stampCapacity) * sizeof(unsigned),
                   "error.live.buffer.stamp_counters"));
    LIVE_TRY(alloc(&rk.wrong, std::max<Bytes>(1, m_s.program.size()) * sizeof(unsigned long long),
                   "error.live.buffer.verification"));
    LIVE_TRY(alloc(&rk.computeStarts, static_cast<Bytes>(rk.computeStartCapacity) * sizeof(std::uint64_t),
                   "error.live.buffer.compute_starts"));
    if (m_gemms && rk.blas) {
        LIVE_TRY(alloc(&rk.gemmA, 2 * rk.gemm.a, "error.live.buffer.gemm"));
        LIVE_TRY(alloc(&rk.gemmB, 2 * rk.gemm.b, "error.live.buffer.gemm"));
        LIVE_TRY(alloc(&rk.gemmC, 2 * rk.gemm.c, "error.live.buffer.gemm"));
        // noise in [-1, 1), not zeros, which would let the GPU hold higher clocks than real weights do
        LIVE_KERNEL(kernels::fillNoiseBf16(rk.gemmA, rk.gemm.a, 1, rk.stream[0]));
        LIVE_KERNEL(kernels::fillNoiseBf16(rk.gemmB, rk.gemm.b, 2, rk.stream[0]));
    }
    LIVE_KERNEL(kernels::fillPattern(rk.send, send / kLiveElementBytes, rank, 0, rk.stream[0]));
    LIVE_KERNEL(kernels::fillConstant(rk.scratch, rk.scratchCount, 1.0f, rk.stream[0]));
    LIVE_CUDA(cudaMemsetAsync(rk.wrong, 0, std::max<size_t>(1, m_s.program.size()) * sizeof(unsigned long long),
                              rk.stream[0]));
    return {};
}

Status Executor::openGemms(const std::vector<GemmOperands>& operands)
{
    bool any = false;
    for (int r = 0; r < m_s.ranks(); ++r)
        if (local(r)) {
            m_ranks[static_cast<size_t>(r)].gemm = operands[static_cast<size_t>(r)];
            any = any || m_ranks[static_cast<size_t>(r)].gemm.bytes() > 0;
        }
    if (!any)
        return {};
    std::string library;
    for (int r = 0; r < m_s.ranks(); ++r) {
        Rank& rk = m_ranks[static_cast<size_t>(r)];
        if (!local(r) || rk.gemm.bytes() == 0)
            continue;
        LIVE_CUDA(cudaSetDevice(rk.device));
        auto blas = std::make_unique<Cublas>();
        if (Status opened = openCublas(*blas); !opened) {
            // the steps still last their modelled time, on the timed kernel; the result says why
            m_notes.push_back(Message("live.note.gemms_not_run").with("why", messageOf(opened.error())));
            for (Rank& other : m_ranks)
                other.blas.reset();
            return {};
        }
        if (const cublasStatus_t st = blas->setStream(blas->handle, rk.stream[0]); st != CUBLAS_STATUS_SUCCESS)
            return cublasError(st, "cublasSetStream");
        library = blas->version;
        rk.blas = std::move(blas);
    }
    m_gemms = true;
    m_notes.push_back(Message("live.note.gemms_run").with("library", library));
    return {};
}

Status Executor::runGemms(Rank& rk, const Op& op)
{
    for (const OpGemm& g : op.gemms)
        for (int i = 0; i < g.count; ++i)
            LIVE_TRY(launchGemm(*rk.blas, g.shape, rk.gemmA, rk.gemmB, rk.gemmC));
    return {};
}

// Streams and free memory of every rank this process drives.
Status Executor::openRanks(std::vector<Bytes>& freeBytes)
{
    const int slotsPerIteration = 8 + 6 * static_cast<int>(expandSteps(m_s.program).size());
    for (int r = 0; r < m_s.ranks(); ++r) {
        if (!local(r))
            continue;
        Rank& rk = m_ranks[static_cast<size_t>(r)];
        rk.device = m_binding ? m_binding->device : r;
        LIVE_CUDA(cudaSetDevice(rk.device));
        // The compute stream gets the highest priority: when a compute phase and an overlapped
        // collective become ready at the same moment (bucket k's compute and bucket k-1's
        // all-reduce), the compute kernel's blocks (one per SM) are placed first and NCCL's fill
        // the room beside them. Otherwise NCCL's kernel could take every SM first and hold the
        // compute phase back for its whole length (issue 14: 1.99 ms for 1.87 asked).
        int leastPriority = 0, greatestPriority = 0;
        LIVE_CUDA(cudaDeviceGetStreamPriorityRange(&leastPriority, &greatestPriority));
        LIVE_CUDA(cudaStreamCreateWithPriority(&rk.stream[0], cudaStreamNonBlocking, greatestPriority));
        LIVE_CUDA(cudaStreamCreateWithPriority(&rk.stream[1], cudaStreamNonBlocking, leastPriority));
        nvtxNameCudaStreamA(rk.stream[0], ("rank " + std::to_string(r) + " compute").c_str());
        nvtxNameCudaStreamA(rk.stream[1], ("rank " + std::to_string(r) + " communication").c_str());
        size_t freeB = 0, totalB = 0;
        LIVE_CUDA(cudaMemGetInfo(&freeB, &totalB));
        rk.freeBefore = freeB;
        rk.totalMemory = totalB;
        freeB /= static_cast<size_t>(std::max(1, m_opt.shareGpu)); // this rank's share of a GPU others use too
        rk.scratchCount = computeScratchCount(freeB);
        rk.stampCapacity = slotsPerIteration;
        rk.computeStartCapacity = static_cast<int>(expandSteps(m_s.program).size()) + 1;
        int sms = 0;
        LIVE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, rk.device));
        rk.computeBlocks = static_cast<unsigned>(std::max(1, sms));
        freeBytes[static_cast<size_t>(r)] = freeB;
    }
    return {};
}

// A rank of a multi-process job joins the world communicator, then learns every rank's free
// memory, so that every process plans the same buffer sizes (different plans would be a mismatch).
Status Executor::joinJob(std::vector<Bytes>& freeBytes)
{
    const int rank = m_binding->rank;
    LIVE_CUDA(cudaSetDevice(m_binding->device));
    setActivity(Message("live.activity.joining"));
    LIVE_TRY(
        joinWorld(m_comms, m_s.ranks(), rank, m_binding->uniqueId, m_blocking, std::max(m_opt.watchdogMs, 60000.0)));
    auto all = allGatherWord(m_comms.front().comms[static_cast<size_t>(rank)], m_s.ranks(),
                             freeBytes[static_cast<size_t>(rank)], m_opt.watchdogMs);
    if (!all)
        return all.error();
    std::copy(all->begin(), all->end(), freeBytes.begin());
    return {};
}

// A rank of a multi-process job tells every other whether it could set up its part, so that a
// rank that could not (out of memory) does not leave the others waiting in the warm-up.
Status Executor::agreeOnSetup(const Status& mine)
{
    if (!m_binding)
        return mine;
    const int n = m_s.ranks();
    const auto world = std::find_if(m_comms.begin(), m_comms.end(),
                                    [&](const Communicator& c) { return static_cast<int>(c.ranks.size()) == n; });
    if (world == m_comms.end())
        return mine.ok() ? Status(runFailed(Message("error.live.lost_world").with("rank", m_binding->rank))) : mine;
    auto all = allGatherWord(world->comms[static_cast<size_t>(m_binding->rank)], n, mine ? 0 : 1, m_opt.watchdogMs);
    if (!mine)
        return mine;
    if (!all)
        return all.error();
    std::vector<Message> failed;
    for (int r = 0; r < n; ++r)
        if ((*all)[static_cast<size_t>(r)] != 0)
            failed.push_back(verbatim(std::to_string(r)));
    if (!failed.empty())
        return runFailed(Message("error.live.others_failed_setup").with("ranks", listOf(std::move(failed))));
    return {};
}

Status Executor::setup()
{
    const int n = m_s.ranks();
    if (m_binding) {
        auto count = visibleGpuCount();
        if (!count)
            return count.error();
        if (m_binding->device < 0 || m_binding->device >= *count)
            return badInput(
                Message("error.live.device_not_seen")
                    .with("rank", m_binding->rank)
                    .with("device", m_binding->device)
                    .with("gpus", Message(*count == 1 ? "error.piece.gpu" : "error.piece.gpus").with("count", *count)));
        if (m_binding->rank < 0 || m_binding->rank >= n)
            return badInput(Message("error.live.rank_not_in_scenario").with("rank", m_binding->rank).with("ranks", n));
    } else {
        LIVE_TRY(requireGpus(n, Message("error.live.what.scenario")));
    }
    prepareNcclEnvironment();
    CostProfile profile = CostProfile::defaults();
    if (!m_s.costProfile.empty()) {
        auto loaded = loadProfile(m_s.costProfile);
        if (!loaded)
            return loaded.error();
        profile = *loaded;
    }
    m_model = std::make_unique<CostModel>(m_s.topology, profile);
    m_ranks.resize(static_cast<size_t>(n));
    m_resourcesLive = true;
    // Nonblocking communicators only where a scripted mismatch may leave NCCL waiting on the host
    // for a peer that never calls (they cost a thread per group call); elsewhere every member joins
    // every group call, NCCL never waits on the host, and the watchdog covers the GPUs.
    m_blocking = m_s.perturbations.mismatches.empty();
    std::vector<Bytes> freeBytes(static_cast<size_t>(n), 0);
    LIVE_TRY(openRanks(freeBytes));
    if (m_binding)
        LIVE_TRY(joinJob(freeBytes));
    // Every rank's GEMM operands: its own opened here, the largest reserved on every process
    // (whether or not cuBLAS opened), so that every process of a job plans the same buffers.
    const std::vector<std::vector<double>> shares = computeShares(m_s);
    std::vector<GemmOperands> operands;
    Bytes gemmBytes = 0;
    for (int r = 0; r < n; ++r) {
        operands.push_back(gemmOperandsOf(m_s, shares, r));
        gemmBytes = std::max<Bytes>(gemmBytes, operands.back().bytes());
    }
    LIVE_TRY(openGemms(operands));
    const Bytes slotBytes = static_cast<Bytes>(8 + 6 * static_cast<int>(expandSteps(m_s.program).size())) * 8;
    Bytes reserve = 0;
    for (const Bytes f : freeBytes)
        reserve =
            std::max<Bytes>(reserve, computeScratchCount(f) * sizeof(float) + slotBytes + kNcclReserve + gemmBytes);
    auto plan = planLive(m_s, freeBytes, reserve, m_opt.memoryFraction, m_opt.fitToMemory);
    if (!plan)
        return plan.error();
    m_plan = std::move(*plan);
    m_notes.insert(m_notes.end(), m_plan.notes.begin(), m_plan.notes.end());
    // A rank waiting at a collective while another computes is not a hang: the deadline is at least
    // twice the longest compute phase (with its delay) of the run.
    double longestUs = 0;
    for (int it = 0; it < m_s.iterations; ++it)
        for (const ProgramStep& st : m_plan.steps)
            for (int r = 0; r < n; ++r)
                longestUs =
                    std::max(longestUs, liveComputeUs(m_s, m_plan, *m_model, r, st, it) + liveDelayUs(m_s, r, st, it));
    m_watchdogMs = std::max(m_opt.watchdogMs, 2 * longestUs / 1e3);
    if (m_watchdogMs > m_opt.watchdogMs)
        m_notes.push_back(Message("live.note.watchdog_raised").with("deadline", formatMicros(m_watchdogMs * 1e3)));
    if (m_binding) {
        setActivity(Message("live.activity.making_communicators"));
        LIVE_TRY(
            splitWorld(m_comms, m_plan.groups, n, m_binding->rank, m_blocking, std::max(m_opt.watchdogMs, 60000.0)));
    }
    Status allocated;
    for (int r = 0; r < n && allocated; ++r) {
        if (!local(r))
            continue;
        Rank& rk = m_ranks[static_cast<size_t>(r)];
        LIVE_CUDA(cudaSetDevice(rk.device));
        allocated = allocate(rk, r, m_plan);
    }
    LIVE_TRY(agreeOnSetup(allocated));
    if (!m_binding) {
        m_comms.clear();
        for (const std::vector<int>& g : m_plan.groups)
            m_comms.push_back({g, {}});
        LIVE_TRY(createCommunicators(m_comms, m_blocking, std::max(m_opt.watchdogMs, 60000.0)));
    }
    m_groupSeq.assign(m_plan.groups.size(), 0);
    const int rounds = roundsForIntensity(std::max(2.0, m_opt.computeIntensity));
    for (int r = 0; r < n; ++r) {
        if (!local(r))
            continue;
        Rank& rk = m_ranks[static_cast<size_t>(r)];
        LIVE_CUDA(cudaSetDevice(rk.device));
        LIVE_CUDA(cudaStreamSynchronize(rk.stream[0]));
        rk.computeRounds = rounds;
        // One short compute phase before the timed iterations: the kernel's first launch loads its
        // module (CUDA's lazy loading), which delayed the first phase of the run by 0.2 ms.
        LIVE_KERNEL(kernels::launchTimedCompute(rk.scratch, rk.scratchCount, 10'000, rounds, rk.computeBlocks,
                                                rk.computeStarts, rk.stream[0]));
        // likewise every GEMM shape once: cuBLAS loads its kernels and picks them at first use
        if (m_gemms && rk.blas) {
            std::vector<GemmShape> seen;
            for (size_t i = 0; i < m_s.program.size(); ++i)
                for (const OpGemm& g : m_s.program[i].gemms)
                    if (runsGemms(m_s, m_plan, r, {static_cast<int>(i), 0})
                        && std::find(seen.begin(), seen.end(), g.shape) == seen.end()) {
                        seen.push_back(g.shape);
                        LIVE_TRY(launchGemm(*rk.blas, g.shape, rk.gemmA, rk.gemmB, rk.gemmC));
                    }
        }
        LIVE_CUDA(cudaStreamSynchronize(rk.stream[0]));
        size_t freeB = 0, totalB = 0;
        LIVE_CUDA(cudaMemGetInfo(&freeB, &totalB));
        rk.used = rk.freeBefore > freeB ? rk.freeBefore - freeB : 0;
    }
    return {};
}

} // namespace shardlab::live
