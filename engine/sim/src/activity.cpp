#include "shardlab/sim/activity.h"

#include "allgather_pieces.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace shardlab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The instant algorithm step `k` of a collective begins: the steps share its duration evenly.
double stepBoundary(const CollectiveRecord& rec, int steps, long long k)
{
    return rec.startUs + (rec.endUs - rec.startUs) * static_cast<double>(k) / steps;
}

} // namespace

ActivityIndex::ActivityIndex(const Scenario& scenario, std::shared_ptr<const RunResult> run, CostModel& model)
    : m_run(std::move(run))
{
    const RunResult& r = *m_run;
    const Topology& topo = model.topology();
    m_ranks = std::max(r.ranks, 0);
    m_endUs = r.endUs();

    // Lanes: each rank's spans per stream, sorted by their beginning.
    m_lanes.assign(static_cast<size_t>(m_ranks * kStreams), {});
    for (size_t i = 0; i < r.spans.size(); ++i) {
        const Span& sp = r.spans[i];
        if (sp.rank < 0 || sp.rank >= m_ranks || !(sp.endUs > sp.beginUs))
            continue;
        Lane& l = m_lanes[static_cast<size_t>(sp.rank * kStreams + std::clamp(sp.stream, 0, kStreams - 1))];
        l.span.push_back(static_cast<int>(i));
        m_endUs = std::max(m_endUs, sp.endUs);
    }
    for (Lane& l : m_lanes) {
        std::stable_sort(l.span.begin(), l.span.end(), [&](int a, int b) {
            return r.spans[static_cast<size_t>(a)].beginUs < r.spans[static_cast<size_t>(b)].beginUs;
        });
        l.begin.reserve(l.span.size());
        l.end.reserve(l.span.size());
        for (int i : l.span) {
            l.begin.push_back(r.spans[static_cast<size_t>(i)].beginUs);
            // a lane's spans follow one another; should two ever overlap, the later one starts
            // where the earlier ends, which keeps the ends sorted for the searches below
            const double e = r.spans[static_cast<size_t>(i)].endUs;
            l.end.push_back(l.end.empty() ? e : std::max(e, l.end.back()));
        }
    }

    for (const Link& link : topo.links)
        m_linkBandwidth.push_back(link.bandwidthGBps);

    // Traffic of each collective, shared by the instances of one program step (buckets and
    // iterations repeat the same pattern).
    using Key = std::tuple<int, int, Bytes, std::vector<int>, int>;
    std::map<Key, int> known;
    m_trafficOf.assign(r.collectives.size(), -1);
    for (size_t c = 0; c < r.collectives.size(); ++c) {
        const CollectiveRecord& rec = r.collectives[c];
        const bool opKnown = rec.op >= 0 && rec.op < static_cast<int>(scenario.program.size());
        Key key{rec.op, static_cast<int>(rec.kind), rec.bytes, rec.group, static_cast<int>(rec.algorithm)};
        if (auto it = known.find(key); it != known.end()) {
            m_trafficOf[c] = it->second;
            continue;
        }
        Traffic t;
        const bool inTopology = !rec.group.empty() && std::all_of(rec.group.begin(), rec.group.end(), [&](int g) {
            return g >= 0 && g < topo.rankCount();
        });
        if (inTopology) {
            const Op* op = opKnown ? &scenario.program[static_cast<size_t>(rec.op)] : nullptr;
            const int root = op ? op->root : rec.group.front();
            std::vector<Bytes> pieces;
            if (rec.kind == OpKind::AllGatherV && op) {
                pieces = allGatherPieces(scenario, *op, rec.group);
                for (Bytes& p : pieces)
                    p /= static_cast<Bytes>(std::max(1, op->buckets));
            }
            const CollectiveCost cost = model.collective(rec.kind, rec.bytes, rec.group, rec.algorithm, root, pieces);
            t.steps = std::max(1, cost.steps);
            if (cost.connected) {
                std::map<std::pair<int, bool>, double> bytes;
                for (const Flow& f : model.patternFlows(rec.kind, rec.group, cost.algorithm, root)) {
                    if (f.from == f.to)
                        continue;
                    for (const Hop& h : model.router().route(f.from, f.to).hops)
                        bytes[{h.link, h.forward}] += cost.movedBytes * f.weight;
                }
                for (auto& [where, b] : bytes)
                    t.loads.push_back({where.first, where.second, b});
            }
        }
        m_trafficOf[c] = static_cast<int>(m_traffic.size());
        known.emplace(std::move(key), m_trafficOf[c]);
        m_traffic.push_back(std::move(t));
    }

    // Sweep the collectives into elementary segments, each with the collectives running in it.
    std::vector<int> byStart, byEnd;
    for (size_t c = 0; c < r.collectives.size(); ++c)
        if (r.collectives[c].endUs > r.collectives[c].startUs) {
            byStart.push_back(static_cast<int>(c));
            byEnd.push_back(static_cast<int>(c));
        }
    auto startOf = [&](int c) { return r.collectives[static_cast<size_t>(c)].startUs; };
    auto endOf = [&](int c) { return r.collectives[static_cast<size_t>(c)].endUs; };
    std::sort(byStart.begin(), byStart.end(), [&](int a, int b) { return startOf(a) < startOf(b); });
    std::sort(byEnd.begin(), byEnd.end(), [&](int a, int b) { return endOf(a) < endOf(b); });
    std::vector<int> active;
    size_t si = 0, ei = 0;
    m_segmentOffset.push_back(0);
    while (si < byStart.size() || ei < byEnd.size()) {
        const double t =
            std::min(si < byStart.size() ? startOf(byStart[si]) : kInf, ei < byEnd.size() ? endOf(byEnd[ei]) : kInf);
        for (; ei < byEnd.size() && endOf(byEnd[ei]) <= t; ++ei)
            active.erase(std::find(active.begin(), active.end(), byEnd[ei]));
        for (; si < byStart.size() && startOf(byStart[si]) <= t; ++si)
            active.push_back(byStart[si]);
        m_segmentStart.push_back(t);
        m_active.insert(m_active.end(), active.begin(), active.end());
        m_segmentOffset.push_back(static_cast<int>(m_active.size()));
    }
}

std::pair<const int*, const int*> ActivityIndex::activeAt(double timeUs) const
{
    const auto it = std::upper_bound(m_segmentStart.begin(), m_segmentStart.end(), timeUs);
    if (it == m_segmentStart.begin())
        return {nullptr, nullptr};
    const size_t seg = static_cast<size_t>(it - m_segmentStart.begin()) - 1;
    const int* base = m_active.data();
    return {base + m_segmentOffset[seg], base + m_segmentOffset[seg + 1]};
}

int ActivityIndex::spanAt(int rank, int stream, double timeUs) const
{
    if (rank < 0 || rank >= m_ranks || stream < 0 || stream >= kStreams)
        return -1;
    const Lane& l = lane(rank, stream);
    const auto it = std::upper_bound(l.begin.begin(), l.begin.end(), timeUs);
    if (it == l.begin.begin())
        return -1;
    const size_t i = static_cast<size_t>(it - l.begin.begin()) - 1;
    return timeUs < m_run->spans[static_cast<size_t>(l.span[i])].endUs ? l.span[i] : -1;
}

const std::vector<LinkLoad>& ActivityIndex::loadsOf(int collective) const
{
    return m_traffic.at(static_cast<size_t>(m_trafficOf.at(static_cast<size_t>(collective)))).loads;
}

int ActivityIndex::stepsOf(int collective) const
{
    return m_traffic.at(static_cast<size_t>(m_trafficOf.at(static_cast<size_t>(collective)))).steps;
}

ActivitySnapshot ActivityIndex::at(double timeUs) const
{
    const RunResult& r = *m_run;
    ActivitySnapshot snap;
    snap.timeUs = timeUs;
    snap.ranks.assign(static_cast<size_t>(m_ranks), ActivityState::Idle);
    snap.waitingFor.assign(static_cast<size_t>(m_ranks), -1);
    snap.collective.assign(static_cast<size_t>(m_ranks), -1);
    for (int rank = 0; rank < m_ranks; ++rank) {
        const size_t ri = static_cast<size_t>(rank);
        const int main = spanAt(rank, 0, timeUs);
        const int side = spanAt(rank, 1, timeUs);
        // The compute stream says what the rank does; the communication stream fills in when the
        // compute stream has nothing (overlapped collectives draining at the end of a step).
        const int shown = main >= 0 ? main : side;
        if (shown < 0)
            continue;
        const Span& sp = r.spans[static_cast<size_t>(shown)];
        switch (sp.kind) {
        case SpanKind::Compute:
            snap.ranks[ri] = sp.detail == SpanDetail::Paging ? ActivityState::Paging : ActivityState::Compute;
            break;
        case SpanKind::Comm: snap.ranks[ri] = ActivityState::Communicate; break;
        case SpanKind::Wait:
            snap.ranks[ri] = ActivityState::Wait;
            snap.waitingFor[ri] = sp.waitedFor;
            break;
        }
        snap.collective[ri] = sp.collective;
        if (snap.collective[ri] < 0 && side >= 0)
            snap.collective[ri] = r.spans[static_cast<size_t>(side)].collective;
    }

    // Per link and direction: utilisation and bytes of the current step summed over the running
    // collectives, and the collective that loads it most.
    struct Direction {
        double utilisation = 0, bytes = 0, top = -1;
        int collective = -1, step = -1, steps = 0;
        double progress = 0;
    };
    std::vector<std::array<Direction, 2>> acc(m_linkBandwidth.size());
    const auto [first, last] = activeAt(timeUs);
    for (const int* c = first; c != last; ++c) {
        const CollectiveRecord& rec = r.collectives[static_cast<size_t>(*c)];
        const Traffic& t = m_traffic[static_cast<size_t>(m_trafficOf[static_cast<size_t>(*c)])];
        const double durationUs = rec.endUs - rec.startUs;
        // position in the collective, in steps: step k runs from k to k + 1
        const double position = (timeUs - rec.startUs) / durationUs * t.steps;
        const int step = std::clamp(static_cast<int>(std::floor(position)), 0, t.steps - 1);
        for (const LinkLoad& load : t.loads) {
            const double bandwidth = m_linkBandwidth[static_cast<size_t>(load.link)] * kGB; // bytes/s
            // utilisation = (bytes / duration) / bandwidth
            const double u = bandwidth > 0 ? load.bytes / (durationUs * 1e-6) / bandwidth : 0.0;
            Direction& d = acc[static_cast<size_t>(load.link)][load.forward ? 0 : 1];
            d.utilisation += u;
            d.bytes += load.bytes / t.steps;
            if (u > d.top) {
                d.top = u;
                d.collective = *c;
                d.step = step;
                d.steps = t.steps;
                d.progress = std::clamp(position - step, 0.0, 1.0);
            }
        }
    }
    snap.links.resize(m_linkBandwidth.size());
    for (size_t i = 0; i < acc.size(); ++i) {
        const bool forward = acc[i][0].utilisation >= acc[i][1].utilisation;
        const Direction& d = acc[i][forward ? 0 : 1];
        if (d.collective < 0)
            continue;
        snap.links[i] = {std::min(1.0, d.utilisation), d.bytes, forward, d.collective, d.step, d.steps, d.progress};
    }
    return snap;
}

double ActivityIndex::nextEvent(double timeUs) const
{
    double best = kInf;
    for (const Lane& l : m_lanes) {
        if (auto it = std::upper_bound(l.begin.begin(), l.begin.end(), timeUs); it != l.begin.end())
            best = std::min(best, *it);
        if (auto it = std::upper_bound(l.end.begin(), l.end.end(), timeUs); it != l.end.end())
            best = std::min(best, *it);
    }
    const auto [first, last] = activeAt(timeUs);
    for (const int* c = first; c != last; ++c) {
        const CollectiveRecord& rec = m_run->collectives[static_cast<size_t>(*c)];
        const int steps = m_traffic[static_cast<size_t>(m_trafficOf[static_cast<size_t>(*c)])].steps;
        long long k =
            static_cast<long long>(std::floor((timeUs - rec.startUs) / (rec.endUs - rec.startUs) * steps)) + 1;
        while (k <= steps && stepBoundary(rec, steps, k) <= timeUs)
            ++k;
        if (k <= steps)
            best = std::min(best, stepBoundary(rec, steps, k));
    }
    return std::isfinite(best) ? best : std::max(timeUs, m_endUs);
}

double ActivityIndex::previousEvent(double timeUs) const
{
    double best = -kInf;
    for (const Lane& l : m_lanes) {
        if (auto it = std::lower_bound(l.begin.begin(), l.begin.end(), timeUs); it != l.begin.begin())
            best = std::max(best, *(it - 1));
        if (auto it = std::lower_bound(l.end.begin(), l.end.end(), timeUs); it != l.end.begin())
            best = std::max(best, *(it - 1));
    }
    const auto [first, last] = activeAt(std::nextafter(timeUs, -kInf));
    for (const int* c = first; c != last; ++c) {
        const CollectiveRecord& rec = m_run->collectives[static_cast<size_t>(*c)];
        const int steps = m_traffic[static_cast<size_t>(m_trafficOf[static_cast<size_t>(*c)])].steps;
        long long k = static_cast<long long>(std::ceil((timeUs - rec.startUs) / (rec.endUs - rec.startUs) * steps)) - 1;
        while (k >= 0 && stepBoundary(rec, steps, k) >= timeUs)
            --k;
        if (k >= 0)
            best = std::max(best, stepBoundary(rec, steps, k));
    }
    return std::isfinite(best) ? best : std::min(timeUs, beginUs());
}

} // namespace shardlab
