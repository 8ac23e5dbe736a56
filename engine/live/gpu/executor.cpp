// Executor: the warm-up pass that verifies every collective, clock alignment, tearing down, and
// turning the stamps into a RunResult. Setting up is in executor_setup.cpp, the per-iteration
// work and the watchdog in executor_steps.cpp.
#include "executor.h"

#include "gpu_clock.h"
#include "cuda_util.h"
#include "shardlab/kernels.h"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <thread>

namespace shardlab::live {
namespace {

constexpr int kClockRounds = 32;

} // namespace

Executor::Executor(const Scenario& scenario, const LiveOptions& options, std::optional<RankBinding> binding)
    : m_s(scenario), m_opt(options), m_binding(std::move(binding))
{
}

Executor::~Executor()
{
    if (m_resourcesLive)
        (void)teardown();
}

Status Executor::warmUpAndVerify()
{
    // Every collective op once, as every member calls it without perturbations, on the
    // communication streams; each output is poisoned first and checked after.
    m_wrong.assign(m_s.program.size(), 0);
    for (size_t i = 0; i < m_s.program.size(); ++i) {
        const Op& op = m_s.program[i];
        if (!isCollective(op.kind))
            continue;
        nvtxRangePushA(("warm-up and verify: " + (op.name.empty() ? std::string(opName(op.kind)) : op.name)).c_str());
        const int g = m_plan.opGroup[i];
        const std::vector<int>& ranks = m_plan.groups[static_cast<size_t>(g)];
        const int n = static_cast<int>(ranks.size());
        const ProgramStep st{static_cast<int>(i), 0};
        const int root = (op.kind == OpKind::Reduce || op.kind == OpKind::Broadcast || op.kind == OpKind::SendRecv)
                             ? static_cast<int>(std::find(ranks.begin(), ranks.end(), op.root) - ranks.begin())
                             : 0;
        std::vector<CallShape> shapes;
        for (int k = 0; k < n; ++k) {
            const LiveCall call = liveCall(m_s, m_plan, ranks[static_cast<size_t>(k)], st, -1);
            shapes.push_back(callShape(call.kind, call.bytes, n, k, root, m_plan.pieces[i]));
            if (!local(ranks[static_cast<size_t>(k)]))
                continue;
            Rank& rk = m_ranks[static_cast<size_t>(ranks[static_cast<size_t>(k)])];
            LIVE_CUDA(cudaSetDevice(rk.device));
            LIVE_KERNEL(kernels::fillConstant(rk.recv, shapes.back().recvCount, std::nanf(""), rk.stream[1]));
        }
        for (int phase = 0; phase < groupCallsOf(op.kind); ++phase) {
            LIVE_NCCL(ncclGroupStart());
            ncclResult_t failed = ncclSuccess;
            for (int k = 0; k < n; ++k) {
                if (!local(ranks[static_cast<size_t>(k)]))
                    continue;
                Rank& rk = m_ranks[static_cast<size_t>(ranks[static_cast<size_t>(k)])];
                const ncclResult_t r = enqueueCall(op.kind, shapes[static_cast<size_t>(k)], k, n, root, m_plan.pieces[i],
                                                   m_comms[static_cast<size_t>(g)].comms[static_cast<size_t>(k)],
                                                   {rk.send, rk.recv, rk.stream[1]}, phase);
                if (r != ncclSuccess && r != ncclInProgress && failed == ncclSuccess)
                    failed = r;
            }
            LIVE_NCCL(ncclGroupEnd());
            LIVE_NCCL(failed);
            bool timedOut = false;
            LIVE_TRY(waitUntilIssued(heldComms(m_comms[static_cast<size_t>(g)]), m_opt.watchdogMs, &timedOut));
            if (timedOut)
                return runFailed("the warm-up call of " + std::string(opName(op.kind)) + " (program step " + std::to_string(i + 1)
                                 + ") was not issued within the watchdog's " + std::to_string(m_opt.watchdogMs / 1000)
                                 + " s");
        }
        std::vector<cudaStream_t> streams;
        for (int k = 0; k < n; ++k) {
            if (!local(ranks[static_cast<size_t>(k)]))
                continue;
            Rank& rk = m_ranks[static_cast<size_t>(ranks[static_cast<size_t>(k)])];
            LIVE_CUDA(cudaSetDevice(rk.device));
            if (m_opt.verify)
                LIVE_KERNEL(enqueueVerify(op.kind, shapes[static_cast<size_t>(k)], k, ranks, root, m_plan.pieces[i],
                                          {rk.send, rk.recv, rk.stream[1]}, rk.wrong + i));
            streams.push_back(rk.stream[1]);
        }
        bool timedOut = false;
        LIVE_TRY(waitStreams(streams, m_opt.watchdogMs, &timedOut));
        nvtxRangePop();
        if (timedOut) {
            m_aborted = true;
            abortCommunicators(m_comms);
            return runFailed("the warm-up call of " + std::string(opName(op.kind)) + " (program step " + std::to_string(i + 1)
                             + ") did not complete within the watchdog's " + std::to_string(m_opt.watchdogMs / 1000)
                             + " s; the communicators were aborted");
        }
    }
    if (!m_opt.verify)
        return {};
    for (Rank& rk : m_ranks) {
        if (!rk.wrong)
            continue; // a rank another process drives
        std::vector<unsigned long long> counts(m_s.program.size(), 0);
        LIVE_CUDA(cudaSetDevice(rk.device));
        if (!counts.empty())
            LIVE_CUDA(cudaMemcpy(counts.data(), rk.wrong, counts.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < counts.size(); ++i)
            m_wrong[i] += static_cast<long long>(counts[i]);
    }
    return {};
}

Status Executor::calibrateClocks(bool after)
{
    for (Rank& rk : m_ranks) {
        if (!rk.stream[0])
            continue; // a rank another process drives
        LIVE_CUDA(cudaSetDevice(rk.device));
        if (!after) {
            auto res = measureTimerResolution();
            if (!res)
                return res.error();
            rk.resolutionNs = *res;
        }
        auto fit = probeClock(kClockRounds, rk.resolutionNs);
        if (!fit)
            return fit.error();
        (after ? rk.after : rk.before) = *fit;
    }
    return {};
}

Status Executor::teardown()
{
    if (!m_resourcesLive)
        return {};
    m_resourcesLive = false;
    DeviceGuard guard;
    std::vector<cudaStream_t> streams;
    for (Rank& rk : m_ranks)
        for (cudaStream_t s : rk.stream)
            if (s)
                streams.push_back(s);
    bool timedOut = false;
    Status st = waitStreams(streams, m_opt.watchdogMs, &timedOut);
    if (!st || timedOut) {
        abortCommunicators(m_comms);
        m_aborted = true;
        st = waitStreams(streams, 10000, &timedOut);
    } else if (!m_comms.empty()) {
        if (m_binding)
            cudaSetDevice(m_binding->device);
        st = destroyCommunicators(m_comms, m_blocking, m_opt.watchdogMs);
    }
    if (timedOut) // kernels still running after an abort: leave their memory alone
        return runFailed("the GPUs did not go idle after the communicators were aborted; their memory is left allocated");
    for (Rank& rk : m_ranks) {
        if (!rk.stream[0] && !rk.stream[1] && !rk.send)
            continue; // nothing of it in this process
        cudaSetDevice(rk.device);
        for (cudaEvent_t e : rk.events)
            cudaEventDestroy(e);
        rk.events.clear();
        for (cudaStream_t& s : rk.stream)
            if (s) {
                cudaStreamDestroy(s);
                s = nullptr;
            }
        for (void* p : {static_cast<void*>(rk.send), static_cast<void*>(rk.recv), static_cast<void*>(rk.scratch),
                        static_cast<void*>(rk.stamps), static_cast<void*>(rk.stampCounters), static_cast<void*>(rk.wrong),
                        static_cast<void*>(rk.computeStarts)})
            if (p)
                cudaFree(p);
        rk.send = rk.recv = rk.scratch = nullptr;
        rk.stamps = nullptr;
        rk.stampCounters = nullptr;
        rk.wrong = nullptr;
        rk.computeStarts = nullptr;
    }
    return st;
}

RunResult Executor::assemble()
{
    RunResult run;
    run.mode = RunMode::Live;
    run.ranks = m_s.ranks();
    double errorNs = 0, resolution = 0, drift = 0;
    std::vector<ClockMap> maps;
    for (int r = 0; r < run.ranks; ++r) {
        const Rank& rk = m_ranks[static_cast<size_t>(r)];
        if (!local(r)) { // a rank part names only its own rank's device
            run.devices.emplace_back();
            run.peakMemory.push_back(0);
            maps.emplace_back();
            continue;
        }
        cudaDeviceProp p{};
        cudaGetDeviceProperties(&p, rk.device);
        run.devices.push_back(p.name); // rank r runs on GPU r (or the GPU its launcher gave it)
        run.peakMemory.push_back(rk.used);
        maps.emplace_back(rk.before, rk.after);
        errorNs = std::max(errorNs, maps.back().errorNs());
        resolution = std::max(resolution, rk.resolutionNs);
        drift = std::max(drift, std::abs(maps.back().driftPpm()));
    }
    // Host time (us) of a stamp; NaN for a stamp that never ran.
    double origin = std::numeric_limits<double>::infinity();
    auto hostNs = [&](int it, int rank, int slot) {
        if (slot < 0 || it >= static_cast<int>(m_stamps.size()))
            return std::numeric_limits<double>::quiet_NaN();
        const auto& v = m_stamps[static_cast<size_t>(it)][static_cast<size_t>(rank)];
        if (slot >= static_cast<int>(v.size()) || v[static_cast<size_t>(slot)] == 0)
            return std::numeric_limits<double>::quiet_NaN();
        return maps[static_cast<size_t>(rank)].toHostNs(static_cast<double>(v[static_cast<size_t>(slot)]));
    };
    for (size_t it = 0; it < m_iterBegin.size(); ++it)
        for (int r = 0; r < run.ranks; ++r) {
            const double t = hostNs(static_cast<int>(it), r, m_iterBegin[it][static_cast<size_t>(r)]);
            if (!std::isnan(t))
                origin = std::min(origin, t);
        }
    // A rank part stays on the process clock (processClockUs: the same steady clock), for rank 0's merge.
    if (!std::isfinite(origin) || m_binding)
        origin = 0;
    auto us = [&](int it, int rank, int slot) { return (hostNs(it, rank, slot) - origin) / 1e3; };
    // A mark is the latest of its stamps; NaN if any of them never ran (the moment never came).
    auto at = [&](int it, int rank, const Mark& m) {
        double t = m.empty() ? std::numeric_limits<double>::quiet_NaN() : -std::numeric_limits<double>::infinity();
        for (int slot : m) {
            const double u = us(it, rank, slot);
            if (std::isnan(u))
                return u;
            t = std::max(t, u);
        }
        return t;
    };

    for (size_t it = 0; it < m_iterBegin.size(); ++it) {
        IterationMark m{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
        for (int r = 0; r < run.ranks; ++r) {
            const double b = us(static_cast<int>(it), r, m_iterBegin[it][static_cast<size_t>(r)]);
            const double e = us(static_cast<int>(it), r, m_iterEnd[it][static_cast<size_t>(r)]);
            if (!std::isnan(b))
                m.beginUs = std::min(m.beginUs, b);
            if (!std::isnan(e))
                m.endUs = std::max(m.endUs, e);
        }
        if (!std::isfinite(m.beginUs))
            m.beginUs = it > 0 ? run.iterations.back().endUs : 0;
        if (!std::isfinite(m.endUs))
            m.endUs = m.beginUs;
        run.iterations.push_back(m);
    }
    std::vector<LivePhase> phases;
    for (const Phase& p : m_phases) {
        const double b = at(p.iteration, p.rank, p.begin);
        const double e = at(p.iteration, p.rank, p.end);
        if (std::isnan(b) || std::isnan(e))
            continue;
        int collective = -1;
        phases.push_back({p.rank, p.stream, p.kind, p.detail, p.op, p.iteration, p.bucket, collective, b, e});
        phases.back().collective = p.instance; // remapped below to the index among completed collectives
    }
    std::vector<LiveCollective> colls;
    std::vector<int> remap(m_instances.size(), -1);
    for (size_t i = 0; i < m_instances.size(); ++i) {
        const Instance& in = m_instances[i];
        LiveCollective c;
        c.op = in.op;
        c.iteration = in.iteration;
        c.bucket = in.bucket;
        c.sequence = in.sequence;
        c.kind = m_s.program[static_cast<size_t>(in.op)].kind;
        c.wrong = static_cast<int>(std::min<long long>(m_wrong.empty() ? 0 : m_wrong[static_cast<size_t>(in.op)],
                                                       std::numeric_limits<int>::max()));
        bool complete = true;
        for (size_t k = 0; k < in.ranks.size() && complete; ++k) {
            const double a = at(in.iteration, in.ranks[k], in.arrive[k]);
            const double e = at(in.iteration, in.ranks[k], in.leave[k]);
            complete = !local(in.ranks[k]) || (!std::isnan(a) && !std::isnan(e));
            c.group.push_back(in.ranks[k]);
            c.streams.push_back(in.stream[k]);
            c.arrivalUs.push_back(a);
            c.endUs.push_back(e);
        }
        const bool mine = std::any_of(in.ranks.begin(), in.ranks.end(), [&](int r) { return local(r); });
        if (!complete || !mine) // a rank part records only the collectives its rank is in
            continue;
        // bytes actually moved (nccl-tests size) by the first member's call
        const int root = std::max(0, static_cast<int>(std::find(in.ranks.begin(), in.ranks.end(),
                                                                m_s.program[static_cast<size_t>(in.op)].root)
                                                      - in.ranks.begin()));
        const CallShape shape = callShape(in.calls[0].kind, in.calls[0].bytes, static_cast<int>(in.ranks.size()), 0,
                                          root < static_cast<int>(in.ranks.size()) ? root : 0,
                                          in.calls[0].mismatched ? std::vector<std::uint64_t>{}
                                                                 : m_plan.pieces[static_cast<size_t>(in.op)]);
        c.bytes = shape.count * kLiveElementBytes;
        remap[i] = static_cast<int>(colls.size());
        colls.push_back(std::move(c));
    }
    for (LivePhase& p : phases)
        p.collective = p.collective >= 0 ? remap[static_cast<size_t>(p.collective)] : -1;
    std::erase_if(phases, [](const LivePhase& p) { return p.kind == SpanKind::Comm && p.collective < 0; });
    const double tieUs = std::max(1.0, 2 * errorNs / 1e3);
    if (m_binding)
        assembleRankPart(run, phases, colls);
    else
        assembleTimeline(run, phases, colls, tieUs);
    run.hang = m_hang;
    if (m_binding) // rank 0 puts it after its own sentence on the processes' clocks (multi_process.cpp)
        run.clockWording = Message("live.clock.rank")
                               .with("rank", m_binding->rank)
                               .with("error", number("%.2f", errorNs / 1e3))
                               .with("drift", number("%.2f", drift));
    else if (m_opt.captureTimeline)
        run.clockWording = Message("live.clock.timeline")
                               .with("drift", number("%.2f", drift))
                               .with("error", number("%.2f", errorNs / 1e3))
                               .with("tick", number("%.0f", resolution))
                               .with("tie", number("%.2f", tieUs));
    else
        run.clockWording = Message("live.clock.no_timeline").with("error", number("%.2f", errorNs / 1e3));
    run.clockNote = english(run.clockWording);
    for (const Message& note : m_notes)
        run.addNote(note);
    return run;
}

Result<RunResult> Executor::run()
{
    DeviceGuard guard;
    nvtxRangePushA(("ShardLab live run: " + m_s.name).c_str());
    struct Pop {
        ~Pop() { nvtxRangePop(); }
    } pop;
    if (Status st = validateScenario(m_s); !st)
        return st.error();
    if (!(m_opt.watchdogMs > 0))
        return badInput("the watchdog's deadline must be positive");
    if (Status st = setup(); !st) {
        (void)teardown();
        return st.error();
    }
    // Set-up and the warm-up take the better part of a second: a cancel does not wait for the iterations.
    const auto cancelledNow = [&] { return m_opt.cancel && m_opt.cancel->load(); };
    if (cancelledNow()) {
        (void)teardown();
        return Error{ErrorKind::Cancelled, "live run cancelled"};
    }
    setActivity("in the warm-up pass (every collective once, verified)");
    if (Status st = warmUpAndVerify(); !st) {
        (void)teardown();
        return st.error();
    }
    if (cancelledNow()) {
        (void)teardown();
        return Error{ErrorKind::Cancelled, "live run cancelled"};
    }
    if (Status st = calibrateClocks(false); !st) {
        (void)teardown();
        return st.error();
    }
    for (int it = 0; it < m_s.iterations; ++it) {
        if (m_opt.cancel && m_opt.cancel->load()) {
            m_aborted = true;
            abortCommunicators(m_comms);
            (void)teardown();
            return Error{ErrorKind::Cancelled, "live run cancelled"};
        }
        bool hung = false;
        if (Status st = runIteration(it, hung); !st) {
            m_aborted = true;
            abortCommunicators(m_comms);
            (void)teardown();
            return st.error();
        }
        if (hung)
            break;
        ++m_iterationsDone;
        if (m_binding && m_binding->progress)
            m_binding->progress->iterationCompleted(it);
        if (m_opt.progress && !m_opt.progress(it + 1, m_s.iterations)) {
            (void)teardown();
            return Error{ErrorKind::Cancelled, "live run cancelled"};
        }
    }
    if (!m_hang) {
        if (Status st = calibrateClocks(true); !st) {
            (void)teardown();
            return st.error();
        }
    }
    RunResult result = assemble();
    // A rank part whose run completed keeps it: a teardown that fails because another process
    // aborted (its watchdog fired) must not hide that process's hang report at rank 0's merge.
    if (Status st = teardown(); !st && !m_hang && !m_binding)
        return st.error();
    else if (!st)
        result.addNote(verbatim(st.error().message));
    return result;
}

} // namespace shardlab::live
