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
#include <map>
#include <thread>

namespace shardlab::live {
namespace {

constexpr int kClockRounds = 32;

} // namespace

Executor::Executor(const Scenario& scenario, const LiveOptions& options, std::optional<RankBinding> binding)
    : m_s(scenario), m_opt(options), m_binding(std::move(binding)),
      m_perIteration(static_cast<bool>(options.iterationDone))
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
                const ncclResult_t r =
                    enqueueCall(op.kind, shapes[static_cast<size_t>(k)], k, n, root, m_plan.pieces[i],
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
                return runFailed(Message("error.live.warm_up_not_issued")
                                     .with("op", opName(op.kind))
                                     .with("step", static_cast<int>(i + 1))
                                     .with("seconds", number("%g", m_opt.watchdogMs / 1000)));
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
            return runFailed(Message("error.live.warm_up_timed_out")
                                 .with("op", opName(op.kind))
                                 .with("step", static_cast<int>(i + 1))
                                 .with("seconds", number("%g", m_opt.watchdogMs / 1000)));
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
            LIVE_CUDA(cudaMemcpy(counts.data(), rk.wrong, counts.size() * sizeof(unsigned long long),
                                 cudaMemcpyDeviceToHost));
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
        if (!after)
            rk.fits.clear();
        rk.fits.push_back(*fit);
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
        return runFailed(Message("error.live.not_idle"));
    for (Rank& rk : m_ranks) {
        if (!rk.stream[0] && !rk.stream[1] && !rk.send)
            continue; // nothing of it in this process
        cudaSetDevice(rk.device);
        for (cudaEvent_t e : rk.events)
            cudaEventDestroy(e);
        rk.events.clear();
        rk.blas.reset(); // its handle before the stream it uses
        for (void** p : {&rk.gemmA, &rk.gemmB, &rk.gemmC})
            if (*p) {
                cudaFree(*p);
                *p = nullptr;
            }
        for (cudaStream_t& s : rk.stream)
            if (s) {
                cudaStreamDestroy(s);
                s = nullptr;
            }
        for (void* p : {static_cast<void*>(rk.send), static_cast<void*>(rk.recv), static_cast<void*>(rk.scratch),
                        static_cast<void*>(rk.stamps), static_cast<void*>(rk.stampCounters),
                        static_cast<void*>(rk.wrong), static_cast<void*>(rk.computeStarts)})
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

ClockMap Executor::mapFor(int rank, int it) const
{
    const std::vector<ClockFit>& f = m_ranks[static_cast<size_t>(rank)].fits;
    if (f.empty())
        return {};
    if (!m_perIteration) // one line through the probes before and after the run
        return ClockMap(f.front(), f.back());
    // the line through the probes just before and just after iteration `it` (a hung iteration had
    // no probe after it: the one before, as a constant offset)
    const size_t a = std::min(static_cast<size_t>(it), f.size() - 1),
                 b = std::min(static_cast<size_t>(it) + 1, f.size() - 1);
    return ClockMap(f[a], f[b]);
}

void Executor::appendIteration(RunResult& run, int it)
{
    const size_t iter = static_cast<size_t>(it);
    std::vector<ClockMap> maps;
    double errorNs = 0;
    for (int r = 0; r < run.ranks; ++r) {
        maps.push_back(local(r) ? mapFor(r, it) : ClockMap());
        if (local(r)) {
            errorNs = std::max(errorNs, maps.back().errorNs());
            m_maxErrorNs = std::max(m_maxErrorNs, maps.back().errorNs());
            m_maxDriftPpm = std::max(m_maxDriftPpm, std::abs(maps.back().driftPpm()));
        }
    }
    // Host time (ns) of a stamp of this iteration; NaN for a stamp that never ran.
    auto hostNs = [&](int rank, int slot) {
        if (slot < 0 || iter >= m_stamps.size())
            return std::numeric_limits<double>::quiet_NaN();
        const auto& v = m_stamps[iter][static_cast<size_t>(rank)];
        if (slot >= static_cast<int>(v.size()) || v[static_cast<size_t>(slot)] == 0)
            return std::numeric_limits<double>::quiet_NaN();
        return maps[static_cast<size_t>(rank)].toHostNs(static_cast<double>(v[static_cast<size_t>(slot)]));
    };
    // The run's origin: the first iteration's earliest begin. A rank part stays on the process
    // clock (processClockUs: the same steady clock), for rank 0's merge.
    if (!m_originKnown) {
        double origin = std::numeric_limits<double>::infinity();
        for (int r = 0; r < run.ranks; ++r) {
            const double t = hostNs(r, m_iterBegin[iter][static_cast<size_t>(r)]);
            if (!std::isnan(t))
                origin = std::min(origin, t);
        }
        m_originNs = !std::isfinite(origin) || m_binding ? 0 : origin;
        m_originKnown = std::isfinite(origin) || m_binding;
    }
    const double originNs = m_originKnown ? m_originNs : 0;
    auto us = [&](int rank, int slot) { return (hostNs(rank, slot) - originNs) / 1e3; };
    // A mark is the latest of its stamps; NaN if any of them never ran (the moment never came).
    auto at = [&](int rank, const Mark& m) {
        double t = m.empty() ? std::numeric_limits<double>::quiet_NaN() : -std::numeric_limits<double>::infinity();
        for (int slot : m) {
            const double u = us(rank, slot);
            if (std::isnan(u))
                return u;
            t = std::max(t, u);
        }
        return t;
    };

    IterationMark m{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (int r = 0; r < run.ranks; ++r) {
        const double b = us(r, m_iterBegin[iter][static_cast<size_t>(r)]);
        const double e = us(r, m_iterEnd[iter][static_cast<size_t>(r)]);
        if (!std::isnan(b))
            m.beginUs = std::min(m.beginUs, b);
        if (!std::isnan(e))
            m.endUs = std::max(m.endUs, e);
    }
    if (!std::isfinite(m.beginUs))
        m.beginUs = !run.iterations.empty() ? run.iterations.back().endUs : 0;
    if (!std::isfinite(m.endUs))
        m.endUs = m.beginUs;
    run.iterations.push_back(m);

    // This iteration's phases and collectives: they were recorded in iteration order.
    std::vector<LivePhase> phases;
    std::vector<size_t> phaseInstance; // the instance each phase's exposed communication belongs to
    for (; m_phaseCursor < m_phases.size() && m_phases[m_phaseCursor].iteration <= it; ++m_phaseCursor) {
        const Phase& p = m_phases[m_phaseCursor];
        if (p.iteration != it)
            continue;
        const double b = at(p.rank, p.begin);
        const double e = at(p.rank, p.end);
        if (std::isnan(b) || std::isnan(e))
            continue;
        phases.push_back({p.rank, p.stream, p.kind, p.detail, p.op, p.iteration, p.bucket, -1, b, e});
        phaseInstance.push_back(p.instance >= 0 ? static_cast<size_t>(p.instance) : SIZE_MAX);
    }
    std::vector<LiveCollective> colls;
    std::map<size_t, int> remap; // instance -> index among this iteration's completed collectives
    for (; m_instanceCursor < m_instances.size() && m_instances[m_instanceCursor].iteration <= it; ++m_instanceCursor) {
        const size_t i = m_instanceCursor;
        const Instance& in = m_instances[i];
        if (in.iteration != it)
            continue;
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
            const double a = at(in.ranks[k], in.arrive[k]);
            const double e = at(in.ranks[k], in.leave[k]);
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
    for (size_t k = 0; k < phases.size(); ++k)
        if (auto found = remap.find(phaseInstance[k]); found != remap.end())
            phases[k].collective = found->second;
    std::erase_if(phases, [](const LivePhase& p) { return p.kind == SpanKind::Comm && p.collective < 0; });
    const double tieUs = std::max(1.0, 2 * errorNs / 1e3);
    m_maxTieUs = std::max(m_maxTieUs, tieUs);
    if (m_binding)
        appendRankPart(run, phases, colls);
    else
        appendTimeline(run, phases, colls, tieUs);
}

RunResult Executor::assemble()
{
    // Iterations handed over as they completed stay as they were; the rest (all, without
    // iterationDone; else a hung last iteration) are assembled now, by the same code.
    RunResult run = m_perIteration ? std::move(m_handed) : RunResult{};
    run.mode = RunMode::Live;
    run.ranks = m_s.ranks();
    for (int it = static_cast<int>(run.iterations.size()); it < static_cast<int>(m_iterBegin.size()); ++it)
        appendIteration(run, it);
    double resolution = 0;
    for (int r = 0; r < run.ranks; ++r) {
        const Rank& rk = m_ranks[static_cast<size_t>(r)];
        if (!local(r)) { // a rank part names only its own rank's device
            run.devices.emplace_back();
            run.peakMemory.push_back(0);
            continue;
        }
        cudaDeviceProp p{};
        cudaGetDeviceProperties(&p, rk.device);
        run.devices.push_back(p.name); // rank r runs on GPU r (or the GPU its launcher gave it)
        run.peakMemory.push_back(rk.used);
        resolution = std::max(resolution, rk.resolutionNs);
        // the error and drift of the map of a run without iterations
        const ClockMap whole = mapFor(r, 0);
        m_maxErrorNs = std::max(m_maxErrorNs, whole.errorNs());
        if (!m_perIteration)
            m_maxDriftPpm = std::max(m_maxDriftPpm, std::abs(whole.driftPpm()));
    }
    const double errorNs = m_maxErrorNs, drift = m_maxDriftPpm;
    const double tieUs = std::max({1.0, 2 * errorNs / 1e3, m_maxTieUs});
    run.hang = m_hang;
    if (m_binding) // rank 0 puts it after its own sentence on the processes' clocks (multi_process.cpp)
        run.clockNote = Message(m_perIteration ? "live.clock.rank.per_iteration" : "live.clock.rank")
                            .with("rank", m_binding->rank)
                            .with("error", number("%.2f", errorNs / 1e3))
                            .with("drift", number("%.2f", drift));
    else if (m_opt.captureTimeline && m_perIteration)
        run.clockNote = Message("live.clock.timeline.per_iteration")
                            .with("drift", number("%.2f", drift))
                            .with("error", number("%.2f", errorNs / 1e3))
                            .with("tick", number("%.0f", resolution))
                            .with("tie", number("%.2f", tieUs));
    else if (m_opt.captureTimeline)
        run.clockNote = Message("live.clock.timeline")
                            .with("drift", number("%.2f", drift))
                            .with("error", number("%.2f", errorNs / 1e3))
                            .with("tick", number("%.0f", resolution))
                            .with("tie", number("%.2f", tieUs));
    else
        run.clockNote = Message("live.clock.no_timeline").with("error", number("%.2f", errorNs / 1e3));
    run.notes.insert(run.notes.end(), m_notes.begin(), m_notes.end());
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
        return badInput(Message("error.live.watchdog_not_positive"));
    if (Status st = setup(); !st) {
        (void)teardown();
        return st.error();
    }
    // Set-up and the warm-up take the better part of a second: a cancel does not wait for the iterations.
    const auto cancelledNow = [&] { return m_opt.cancel && m_opt.cancel->load(); };
    if (cancelledNow()) {
        (void)teardown();
        return Error(ErrorKind::Cancelled, Message("error.live.cancelled"));
    }
    setActivity(Message("live.activity.warm_up"));
    if (Status st = warmUpAndVerify(); !st) {
        (void)teardown();
        return st.error();
    }
    if (cancelledNow()) {
        (void)teardown();
        return Error(ErrorKind::Cancelled, Message("error.live.cancelled"));
    }
    if (Status st = calibrateClocks(false); !st) {
        (void)teardown();
        return st.error();
    }
    m_handed = RunResult{};
    m_handed.mode = RunMode::Live;
    m_handed.ranks = m_s.ranks();
    for (int it = 0; it < m_s.iterations; ++it) {
        if (m_opt.cancel && m_opt.cancel->load()) {
            m_aborted = true;
            abortCommunicators(m_comms);
            (void)teardown();
            return Error(ErrorKind::Cancelled, Message("error.live.cancelled"));
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
        if (m_perIteration) { // the probe after this iteration, then its timeline, handed over
            if (Status st = calibrateClocks(true); !st) {
                (void)teardown();
                return st.error();
            }
            appendIteration(m_handed, it);
            if (!m_opt.iterationDone(m_handed, it + 1, m_s.iterations)) {
                (void)teardown();
                return Error(ErrorKind::Cancelled, Message("error.live.cancelled"));
            }
        }
        if (m_opt.progress && !m_opt.progress(it + 1, m_s.iterations)) {
            (void)teardown();
            return Error(ErrorKind::Cancelled, Message("error.live.cancelled"));
        }
    }
    if (!m_hang && !m_perIteration) {
        if (Status st = calibrateClocks(true); !st) {
            (void)teardown();
            return st.error();
        }
    }
    // Ended (or hung, aborted): a rank part keeps its communicator until every rank has ended, so
    // that a peer still in a collective meets its own watchdog rather than this process's exit.
    if (m_binding && m_binding->progress)
        m_binding->progress->programEnded();
    RunResult result = assemble();
    // A rank part whose run completed keeps it: a teardown that fails because another process
    // aborted (its watchdog fired) must not hide that process's hang report at rank 0's merge.
    if (Status st = teardown(); !st && !m_hang && !m_binding)
        return st.error();
    else if (!st)
        result.notes.push_back(messageOf(st.error()));
    return result;
}

} // namespace shardlab::live
