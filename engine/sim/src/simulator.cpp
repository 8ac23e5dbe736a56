#include "shardlab/sim/simulator.h"

#include "allgather_pieces.h"
#include "shardlab/base/short_list.h"
#include "shardlab/model/capacity.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/routing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

namespace shardlab {
namespace {

constexpr double kEpsUs = 1e-9;

using Step = ProgramStep;

struct Communicator {
    std::vector<int> group;       // ascending
    std::vector<int> memberIndex; // rank -> index in group, or -1
};

struct Arrival {
    double timeUs = 0;
    OpKind kind = OpKind::AllReduce;
    Bytes bytes = 0;
    int op = 0;
    int bucket = 0;
    bool overlap = false;
    bool present = false;
};

struct Instance {
    std::vector<Arrival> arrivals; // by member index
    int arrived = 0;
    bool resolved = false;
};

enum class State { Running, BlockedCollective, BlockedCommStream, Done };

struct RankState {
    double computeFree = 0;
    double commFree = 0;
    int pendingComm = 0;     // overlapped collectives issued but not yet matched
    int lastCommRecord = -1; // the collective that last occupied the comm stream
    size_t step = 0;
    State state = State::Running;
    std::vector<int> seq; // per communicator: next sequence number
    int completed = -1;   // the rank's last completed collective, counted over all its collectives
    size_t delayedStep = static_cast<size_t>(-1); // the step whose injected delay was already applied
    struct Blocked {
        OpKind kind = OpKind::AllReduce;
        Bytes bytes = 0;
        int op = -1;     // -1: waiting for its own overlapped collectives
        int ordinal = 0; // the rank's n-th collective
    } blocked;
};

class Engine {
public:
    Engine(const Scenario& s, CostModel& model, const SimulationOptions& o) : m_s(s), m_model(model), m_opt(o) {}

    Result<RunResult> run();

private:
    double abortByWatchdog(HangReport& h, int iteration, double previousEnd);
    void prepare();
    void runIteration(int iteration);
    void advance(int rank, int iteration);
    void arrive(int rank, int iteration, const Step& st);
    void resolve(int comm, int seq, int iteration);
    void failOnImpossibleTime(int op, const std::vector<int>& ranks, double timeUs, bool connected);

    const Scenario& m_s;
    CostModel& m_model;
    const SimulationOptions& m_opt;
    RunResult m_run;
    std::vector<Step> m_steps;
    std::vector<int> m_opComm; // program index -> communicator (-1 for compute)
    std::vector<Communicator> m_comms;
    std::vector<std::vector<Instance>> m_instances; // per communicator, by sequence number
    std::vector<RankState> m_ranks;
    std::vector<int> m_runnable;
    std::vector<Bytes> m_peak; // per rank: owned + the largest transient buffer (capacityOf)
    std::vector<double> m_pagingUs;
    std::vector<std::vector<Bytes>> m_pieces;        // all_gather_v pieces per program op (by member)
    std::vector<std::vector<double>> m_workFraction; // compute ops: per rank share of the item's work
    std::vector<int> m_collectivesDone;              // per rank
    std::optional<Error> m_failure;                  // a time that cannot be stood behind: the run stops with it
};

// Every time the run records is a finite, non-negative number of microseconds, and a collective's
// ranks reach each other: anything else (a pair of GPUs no route joins, a rate so small that the
// time overflows) stops the run with a message instead of being recorded as 0 or infinity.
void Engine::failOnImpossibleTime(int op, const std::vector<int>& ranks, double timeUs, bool connected)
{
    if (m_failure || (connected && std::isfinite(timeUs) && timeUs >= 0))
        return;
    const Op& o = m_s.program[static_cast<size_t>(op)];
    std::vector<std::string> names;
    for (int r : ranks)
        names.push_back(std::to_string(r));
    if (!connected)
        m_failure = badInput(Message("error.line.unreachable_ranks")
                                 .with("step", "$.program[" + std::to_string(op) + "]")
                                 .with("op", opName(o.kind))
                                 .with("name", o.name)
                                 .with("piece_list", shortListMessage(names, 8)));
    else
        m_failure = badInput(Message("error.line.time_not_finite")
                                 .with("step", "$.program[" + std::to_string(op) + "]")
                                 .with("op", opName(o.kind))
                                 .with("name", o.name)
                                 .with("rank", names.front())
                                 .with("value", std::to_string(timeUs)));
}

void Engine::prepare()
{
    const int n = m_s.ranks();
    m_steps = expandSteps(m_s.program);
    m_opComm.assign(m_s.program.size(), -1);
    m_pieces.resize(m_s.program.size());
    std::map<std::vector<int>, int> commIds;
    for (size_t i = 0; i < m_s.program.size(); ++i) {
        const Op& op = m_s.program[i];
        if (!isCollective(op.kind))
            continue;
        std::vector<int> g = m_s.groupOf(op);
        std::sort(g.begin(), g.end());
        auto [it, inserted] = commIds.emplace(g, static_cast<int>(m_comms.size()));
        if (inserted) {
            Communicator c;
            c.group = g;
            c.memberIndex.assign(static_cast<size_t>(n), -1);
            for (size_t k = 0; k < g.size(); ++k)
                c.memberIndex[static_cast<size_t>(g[k])] = static_cast<int>(k);
            m_comms.push_back(std::move(c));
        }
        m_opComm[i] = it->second;
        if (op.kind == OpKind::AllGatherV)
            m_pieces[i] = allGatherPieces(m_s, op, g);
    }
    m_workFraction = computeShares(m_s);
    m_instances.assign(m_comms.size(), {});
    m_ranks.assign(static_cast<size_t>(n), RankState{});
    for (RankState& r : m_ranks)
        r.seq.assign(m_comms.size(), 0);
    m_collectivesDone.assign(static_cast<size_t>(n), 0);

    const CapacityReport cap = capacityOf(m_s);
    m_peak.assign(static_cast<size_t>(n), 0);
    m_pagingUs.assign(static_cast<size_t>(n), 0.0);
    std::vector<const RankMemory*> paged;
    for (const RankMemory& rm : cap.ranks) {
        m_peak[static_cast<size_t>(rm.rank)] = rm.peak();
        if (m_s.memoryMode == MemoryMode::Unified && rm.excess() > 0)
            paged.push_back(&rm);
    }
    if (!paged.empty()) {
        // Unified memory pages the excess out and back in once per iteration over the GPU's
        // link to its host: 2 x excess / host-link bandwidth. One router for all of them.
        std::vector<int> ranks;
        for (const RankMemory* rm : paged)
            ranks.push_back(rm->rank);
        const std::vector<double> hostGBps = hostLinkGBps(m_model.topology(), ranks);
        for (size_t i = 0; i < paged.size(); ++i)
            m_pagingUs[static_cast<size_t>(paged[i]->rank)] =
                hostGBps[i] > 0 ? 2.0 * static_cast<double>(paged[i]->excess()) / (hostGBps[i] * kGB) * 1e6
                                : std::numeric_limits<double>::infinity();
    }
    m_run.mode = RunMode::Simulated;
    m_run.ranks = n;
    for (const Gpu& g : m_s.topology.gpus)
        m_run.devices.push_back(g.name);
    m_run.clockNote = verbatim("one simulated clock");
    // Exactly the estimate (an upper bound, below the limit checkRunnable enforced): the vectors
    // never grow by doubling, which would hold the old and the new copy at once.
    const EventEstimate estimate = estimateEvents(m_s);
    m_run.spans.reserve(static_cast<size_t>(std::min<std::uint64_t>(estimate.spans, m_opt.maxEvents)));
    m_run.collectives.reserve(static_cast<size_t>(std::min<std::uint64_t>(estimate.collectives, m_opt.maxEvents)));
    m_run.iterations.reserve(static_cast<size_t>(m_s.iterations));
}

void Engine::arrive(int rank, int iteration, const Step& st)
{
    RankState& rs = m_ranks[static_cast<size_t>(rank)];
    const Op& op = m_s.program[static_cast<size_t>(st.op)];
    const int comm = m_opComm[static_cast<size_t>(st.op)];
    const Communicator& c = m_comms[static_cast<size_t>(comm)];

    // The communication stream runs collectives in order; a blocking collective also waits for it.
    double arrival = rs.computeFree;
    if (!op.overlap && rs.commFree > rs.computeFree + kEpsUs) {
        m_run.spans.push_back({.rank = rank,
                               .kind = SpanKind::Comm,
                               .beginUs = rs.computeFree,
                               .endUs = rs.commFree,
                               .op = st.op,
                               .iteration = iteration,
                               .bucket = st.bucket,
                               .collective = rs.lastCommRecord});
    }
    arrival = std::max(rs.computeFree, rs.commFree);

    OpKind kind = op.kind;
    Bytes bytes = m_s.bytesOf(op) / static_cast<Bytes>(op.buckets);
    for (const Mismatch& m : m_s.perturbations.mismatches) {
        if (m.rank == rank && m.op == st.op && m.iteration == iteration && st.bucket == 0) {
            if (m.type == Mismatch::Type::WrongOp)
                kind = m.replacement;
            else if (m.type == Mismatch::Type::WrongCount)
                bytes = m.bytes;
        }
    }
    const int seq = rs.seq[static_cast<size_t>(comm)]++;
    auto& list = m_instances[static_cast<size_t>(comm)];
    if (static_cast<int>(list.size()) <= seq)
        list.resize(static_cast<size_t>(seq) + 1);
    Instance& inst = list[static_cast<size_t>(seq)];
    if (inst.arrivals.empty())
        inst.arrivals.resize(c.group.size());
    Arrival& a = inst.arrivals[static_cast<size_t>(c.memberIndex[static_cast<size_t>(rank)])];
    a = {arrival, kind, bytes, st.op, st.bucket, op.overlap, true};
    ++inst.arrived;
    rs.blocked = {kind, bytes, st.op, m_collectivesDone[static_cast<size_t>(rank)]};
    if (op.overlap) {
        ++rs.pendingComm;
        rs.commFree = std::numeric_limits<double>::quiet_NaN(); // unknown until matched
    } else {
        rs.state = State::BlockedCollective;
    }
    if (inst.arrived == static_cast<int>(c.group.size()))
        resolve(comm, seq, iteration);
}

void Engine::resolve(int comm, int seq, int iteration)
{
    const Communicator& c = m_comms[static_cast<size_t>(comm)];
    Instance& inst = m_instances[static_cast<size_t>(comm)][static_cast<size_t>(seq)];
    const Arrival& first = inst.arrivals.front();
    for (const Arrival& a : inst.arrivals)
        if (a.kind != first.kind || a.bytes != first.bytes || a.op != first.op) {
            return; // mismatched calls never complete: everyone in the group stays blocked
        }
    inst.resolved = true;
    const Op& op = m_s.program[static_cast<size_t>(first.op)];
    std::vector<Bytes> pieces;
    if (first.kind == OpKind::AllGatherV && first.op < static_cast<int>(m_pieces.size())) {
        pieces = m_pieces[static_cast<size_t>(first.op)];
        for (Bytes& p : pieces)
            p /= static_cast<Bytes>(op.buckets);
    }
    const CollectiveCost cost = m_model.collective(first.kind, first.bytes, c.group, op.algorithm, op.root, pieces);
    failOnImpossibleTime(first.op, c.group, cost.timeUs, cost.connected);

    CollectiveRecord rec;
    rec.op = first.op;
    rec.iteration = iteration;
    rec.bucket = first.bucket;
    rec.sequence = seq;
    rec.kind = first.kind;
    rec.bytes =
        first.kind == OpKind::AllGatherV ? std::accumulate(pieces.begin(), pieces.end(), Bytes{0}) : first.bytes;
    rec.group = c.group;
    rec.algorithm = cost.algorithm;
    rec.protocol = cost.protocol;
    double start = -std::numeric_limits<double>::infinity(), earliest = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < inst.arrivals.size(); ++k) {
        const double t = inst.arrivals[k].timeUs;
        rec.arrivalUs.push_back(t);
        if (t > start + kEpsUs) {
            start = t;
            rec.lastArrival = c.group[k];
        }
        earliest = std::min(earliest, t);
    }
    if (start - earliest <= kEpsUs)
        rec.lastArrival = -1; // everyone arrived together: nobody was last
    rec.startUs = start;
    rec.endUs = start + cost.timeUs;
    const int recordIndex = static_cast<int>(m_run.collectives.size());
    m_run.collectives.push_back(rec);
    std::vector<Arrival> arrivals = std::move(inst.arrivals); // a resolved instance keeps nothing
    inst.arrivals = {};

    for (size_t k = 0; k < c.group.size(); ++k) {
        const int rank = c.group[k];
        RankState& rs = m_ranks[static_cast<size_t>(rank)];
        const Arrival& a = arrivals[k];
        const int stream = a.overlap ? 1 : 0;
        if (start - a.timeUs > kEpsUs)
            m_run.spans.push_back({.rank = rank,
                                   .stream = stream,
                                   .kind = SpanKind::Wait,
                                   .beginUs = a.timeUs,
                                   .endUs = start,
                                   .op = a.op,
                                   .iteration = iteration,
                                   .bucket = a.bucket,
                                   .collective = recordIndex,
                                   .waitedFor = rec.lastArrival});
        if (cost.timeUs > 0)
            m_run.spans.push_back({.rank = rank,
                                   .stream = stream,
                                   .kind = SpanKind::Comm,
                                   .beginUs = start,
                                   .endUs = rec.endUs,
                                   .op = a.op,
                                   .iteration = iteration,
                                   .bucket = a.bucket,
                                   .collective = recordIndex});
        rs.lastCommRecord = recordIndex;
        m_run.collectives.back().wrongElements = 0;
        ++m_collectivesDone[static_cast<size_t>(rank)];
        rs.completed = m_collectivesDone[static_cast<size_t>(rank)] - 1;
        if (a.overlap) {
            --rs.pendingComm;
            rs.commFree = rec.endUs;
        } else {
            rs.computeFree = rs.commFree = rec.endUs;
        }
        if (rs.state == State::BlockedCollective && !a.overlap) {
            rs.state = State::Running;
            ++rs.step;
            m_runnable.push_back(rank);
        } else if (rs.state == State::BlockedCommStream && rs.pendingComm == 0) {
            rs.state = State::Running;
            m_runnable.push_back(rank);
        }
    }
}

void Engine::advance(int rank, int iteration)
{
    RankState& rs = m_ranks[static_cast<size_t>(rank)];
    while (rs.state == State::Running) {
        if (rs.step >= m_steps.size()) {
            // End of the iteration: the compute stream waits for the communication stream to drain.
            if (rs.pendingComm > 0) {
                rs.state = State::BlockedCommStream;
                rs.blocked.op = -1;
                return;
            }
            if (rs.commFree > rs.computeFree + kEpsUs)
                m_run.spans.push_back({.rank = rank,
                                       .kind = SpanKind::Comm,
                                       .beginUs = rs.computeFree,
                                       .endUs = rs.commFree,
                                       .op = m_run.collectives[static_cast<size_t>(rs.lastCommRecord)].op,
                                       .iteration = iteration,
                                       .collective = rs.lastCommRecord});
            rs.computeFree = rs.commFree = std::max(rs.computeFree, rs.commFree);
            rs.state = State::Done;
            return;
        }
        const Step& st = m_steps[rs.step];
        const Op& op = m_s.program[static_cast<size_t>(st.op)];
        if (rs.delayedStep != rs.step) {
            rs.delayedStep = rs.step;
            if (rs.step == 0 && m_pagingUs[static_cast<size_t>(rank)] > 0) {
                const double p = m_pagingUs[static_cast<size_t>(rank)];
                m_run.spans.push_back({.rank = rank,
                                       .kind = SpanKind::Compute,
                                       .beginUs = rs.computeFree,
                                       .endUs = rs.computeFree + p,
                                       .op = st.op,
                                       .iteration = iteration,
                                       .detail = SpanDetail::Paging});
                rs.computeFree += p;
            }
            for (const Delay& d : m_s.perturbations.delays) {
                if (st.bucket == 0 && d.rank == rank && d.op == st.op && (d.iteration < 0 || d.iteration == iteration)
                    && d.ms > 0) {
                    const double us = d.ms * 1e3;
                    m_run.spans.push_back({.rank = rank,
                                           .kind = SpanKind::Compute,
                                           .beginUs = rs.computeFree,
                                           .endUs = rs.computeFree + us,
                                           .op = st.op,
                                           .iteration = iteration,
                                           .detail = SpanDetail::InjectedDelay});
                    rs.computeFree += us;
                }
            }
        }
        if (op.kind == OpKind::Compute) {
            double us = 0;
            const double fraction = m_workFraction[static_cast<size_t>(st.op)][static_cast<size_t>(rank)];
            us = m_model.computeUs(op.flops * fraction / op.buckets, rank, m_s.perturbations.slowdownOf(rank))
                 * m_s.perturbations.jitterFactor(rank, st.op, iteration, st.bucket);
            failOnImpossibleTime(static_cast<int>(st.op), {rank}, us, true);
            if (us > 0) {
                m_run.spans.push_back({.rank = rank,
                                       .kind = SpanKind::Compute,
                                       .beginUs = rs.computeFree,
                                       .endUs = rs.computeFree + us,
                                       .op = st.op,
                                       .iteration = iteration,
                                       .bucket = st.bucket});
                rs.computeFree += us;
            }
            ++rs.step;
            continue;
        }
        const Communicator& c = m_comms[static_cast<size_t>(m_opComm[static_cast<size_t>(st.op)])];
        bool skipped = false;
        for (const Mismatch& m : m_s.perturbations.mismatches)
            if (m.type == Mismatch::Type::Skip && m.rank == rank && m.op == st.op && m.iteration == iteration)
                skipped = true;
        if (c.memberIndex[static_cast<size_t>(rank)] < 0 || skipped) {
            ++rs.step;
            continue;
        }
        if (rs.pendingComm > 0) {
            // its arrival depends on when the communication stream frees up: known once matched
            rs.state = State::BlockedCommStream;
            return;
        }
        arrive(rank, iteration, st);
        if (op.overlap)
            ++rs.step;
    }
}

// The live watchdog's rule on the simulated clock: with every rank blocked or gone, nothing moves
// after the latest of their clocks, and the watchdog aborts the run watchdogMs later. Each blocked
// rank waits from its arrival until then, for the first rank whose call differs. Returns the
// abort time, which ends the last iteration.
double Engine::abortByWatchdog(HangReport& h, int iteration, double previousEnd)
{
    auto clockOf = [](const RankState& rs) {
        return std::isnan(rs.commFree) ? rs.computeFree : std::max(rs.computeFree, rs.commFree);
    };
    double lastProgress = previousEnd;
    for (const RankState& rs : m_ranks)
        lastProgress = std::max(lastProgress, clockOf(rs));
    const double abortUs = lastProgress + m_opt.watchdogMs * 1e3;
    for (int r = 0; r < static_cast<int>(m_ranks.size()); ++r) {
        const RankState& rs = m_ranks[static_cast<size_t>(r)];
        if (rs.state == State::Done || rs.blocked.op < 0)
            continue;
        const int waitsFor = h.firstMismatchRank != r ? h.firstMismatchRank : -1;
        m_run.spans.push_back({.rank = r,
                               .kind = SpanKind::Wait,
                               .beginUs = clockOf(rs),
                               .endUs = abortUs,
                               .op = rs.blocked.op,
                               .iteration = iteration,
                               .waitedFor = waitsFor});
    }
    h.explanationWording = Message("hang.explanation.watchdog")
                               .with("explanation", h.explanationWording)
                               .with("deadline", formatMicros(m_opt.watchdogMs * 1e3));
    h.explanation = english(h.explanationWording);
    return abortUs;
}

Result<RunResult> Engine::run()
{
    prepare();
    const int n = m_s.ranks();
    double previousEnd = 0;
    for (int it = 0; it < m_s.iterations; ++it) {
        if (m_opt.cancel && m_opt.cancel->load())
            return Error(ErrorKind::Cancelled, Message("error.sim.cancelled"));
        for (RankState& rs : m_ranks) {
            rs.step = 0;
            rs.state = State::Running;
        }
        m_runnable.clear();
        for (int r = n - 1; r >= 0; --r)
            m_runnable.push_back(r);
        size_t visits = 0;
        while (!m_runnable.empty()) {
            const int r = m_runnable.back();
            m_runnable.pop_back();
            advance(r, it);
            if (m_failure)
                return *m_failure;
            if ((++visits & 4095) == 0 && m_opt.cancel && m_opt.cancel->load())
                return Error(ErrorKind::Cancelled, Message("error.sim.cancelled"));
        }
        double end = previousEnd;
        bool allDone = true;
        for (const RankState& rs : m_ranks) {
            allDone = allDone && rs.state == State::Done;
            end = std::max(end, rs.computeFree);
        }
        if (!allDone) {
            HangReport h;
            for (int r = 0; r < n; ++r) {
                const RankState& rs = m_ranks[static_cast<size_t>(r)];
                h.lastCompleted.push_back(rs.completed);
                Message what;
                if (rs.state == State::Done)
                    what = Message("hang.pending.left").with("iteration", it + 1);
                else if (rs.blocked.op < 0)
                    what = Message("hang.pending.overlapped");
                else
                    what = Message("hang.pending.blocked")
                               .with("op", opName(rs.blocked.kind))
                               .with("ordinal", rs.blocked.ordinal)
                               .with("bytes", formatBytes(rs.blocked.bytes))
                               .with("step", rs.blocked.op + 1);
                h.pending.push_back(english(what));
                h.pendingMessages.push_back(std::move(what));
            }
            // The first mismatch: the rank whose call differs from the program's call for that step
            // (when some member made it), else from what most of its group called, or that never
            // called. With two ranks a vote is a tie; the program says which call was meant.
            for (size_t ci = 0; ci < m_instances.size() && h.firstMismatchRank < 0; ++ci) {
                for (const Instance& inst : m_instances[ci]) {
                    if (inst.resolved || inst.arrivals.empty())
                        continue;
                    std::map<std::pair<int, Bytes>, int> votes;
                    std::optional<std::pair<int, Bytes>> programmed;
                    for (const Arrival& a : inst.arrivals) {
                        if (!a.present)
                            continue;
                        const std::pair<int, Bytes> call{static_cast<int>(a.kind), a.bytes};
                        ++votes[call];
                        const Op& op = m_s.program[static_cast<size_t>(a.op)];
                        if (a.kind == op.kind && a.bytes == m_s.bytesOf(op) / static_cast<Bytes>(op.buckets))
                            programmed = call;
                    }
                    if (votes.empty())
                        continue;
                    auto majority =
                        programmed ? *programmed : std::max_element(votes.begin(), votes.end(), [](auto& x, auto& y) {
                                                       return x.second < y.second;
                                                   })->first;
                    for (size_t k = 0; k < inst.arrivals.size(); ++k) {
                        const Arrival& a = inst.arrivals[k];
                        if (!a.present || static_cast<int>(a.kind) != majority.first || a.bytes != majority.second) {
                            h.firstMismatchRank = m_comms[ci].group[k];
                            break;
                        }
                    }
                    if (h.firstMismatchRank >= 0)
                        break;
                }
            }
            h.explanationWording =
                h.firstMismatchRank >= 0
                    ? Message("hang.explanation.first_differs")
                          .with("iteration", it + 1)
                          .with("rank", h.firstMismatchRank)
                          .with("pending", h.pendingMessages[static_cast<size_t>(h.firstMismatchRank)])
                    : Message("hang.explanation").with("iteration", it + 1);
            h.explanation = english(h.explanationWording);
            if (m_opt.watchdogMs > 0)
                end = abortByWatchdog(h, it, previousEnd);
            m_run.hang = h;
            m_run.iterations.push_back({previousEnd, end});
            break;
        }
        m_run.iterations.push_back({previousEnd, end});
        previousEnd = end;
        for (RankState& rs : m_ranks)
            rs.computeFree = rs.commFree = std::max(rs.computeFree, rs.commFree);
        if (m_opt.progress && !m_opt.progress(it + 1, m_s.iterations))
            return Error(ErrorKind::Cancelled, Message("error.sim.cancelled"));
        if (m_opt.iterationDone && !m_opt.iterationDone(m_run, it + 1, m_s.iterations))
            return Error(ErrorKind::Cancelled, Message("error.sim.cancelled"));
    }
    m_run.peakMemory = m_peak;
    m_run.pagingUs = m_pagingUs;
    return std::move(m_run);
}

} // namespace

Status checkCollectiveRoutes(const Scenario& scenario)
{
    std::vector<int> part;
    for (size_t i = 0; i < scenario.program.size(); ++i) {
        const Op& op = scenario.program[i];
        if (!isCollective(op.kind))
            continue;
        const std::vector<int> group = scenario.groupOf(op);
        if (group.size() < 2)
            continue;
        if (part.empty())
            part = connectedParts(scenario.topology);
        std::vector<int> cut;
        for (int r : group)
            if (part[static_cast<size_t>(r)] != part[static_cast<size_t>(group.front())])
                cut.push_back(r);
        if (cut.empty())
            continue;
        std::vector<std::string> names;
        for (int r : cut)
            names.push_back(std::to_string(r));
        Message refusal(cut.size() > 1 ? "error.line.no_routes" : "error.line.no_route");
        refusal.arg("step", "$.program[" + std::to_string(i) + "]");
        refusal.arg("op", opName(op.kind));
        refusal.arg("name", op.name);
        refusal.arg("rank", std::to_string(group.front()));
        if (cut.size() > 1)
            refusal.arg("piece_list", shortListMessage(names, 8));
        else
            refusal.arg("ranks", names.front());
        return badInput(std::move(refusal));
    }
    return {};
}

namespace {
// What both simulate()s refuse before running: an invalid scenario, a collective without a route,
// or more events than the run may hold.
Status checkRunnable(const Scenario& scenario, const SimulationOptions& options)
{
    if (Status st = validateScenario(scenario); !st)
        return st;
    if (Status st = checkCollectiveRoutes(scenario); !st)
        return st;
    return checkEventCount(scenario, options.maxEvents);
}
} // namespace

Result<RunResult> simulate(const Scenario& scenario, CostModel& model, const SimulationOptions& options)
{
    if (Status st = checkRunnable(scenario, options); !st)
        return st.error();
    Engine engine(scenario, model, options);
    return engine.run();
}

Result<RunResult> simulate(const Scenario& scenario, const SimulationOptions& options)
{
    if (Status st = checkRunnable(scenario, options); !st)
        return st.error();
    auto profile = options.profile ? Result<CostProfile>(*options.profile) : profileFor(scenario);
    if (!profile)
        return profile.error();
    CostModel model(scenario.topology, *profile);
    Engine engine(scenario, model, options);
    return engine.run();
}

double RunResult::endUs() const
{
    double e = 0;
    for (const IterationMark& m : iterations)
        e = std::max(e, m.endUs);
    return e;
}

} // namespace shardlab
