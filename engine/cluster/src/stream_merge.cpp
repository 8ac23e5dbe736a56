#include "shardlab/cluster/stream_merge.h"

#include <algorithm>
#include <cmath>

namespace shardlab {

RunResult entriesSince(const RunResult& run, size_t spans, size_t collectives, size_t iterations)
{
    RunResult out;
    out.mode = run.mode;
    out.ranks = run.ranks;
    const int base = static_cast<int>(collectives);
    for (size_t i = std::min(spans, run.spans.size()); i < run.spans.size(); ++i) {
        Span s = run.spans[i];
        s.collective = s.collective >= base ? s.collective - base : -1;
        out.spans.push_back(s);
    }
    for (size_t i = std::min(collectives, run.collectives.size()); i < run.collectives.size(); ++i)
        out.collectives.push_back(run.collectives[i]);
    for (size_t i = std::min(iterations, run.iterations.size()); i < run.iterations.size(); ++i)
        out.iterations.push_back(run.iterations[i]);
    return out;
}

IterationMerger::IterationMerger(int ranks, std::vector<ProcessClockFit> fits, double tieUs)
    : m_ranks(ranks), m_fits(std::move(fits)), m_tieUs(tieUs), m_pending(static_cast<size_t>(std::max(0, ranks)))
{
    m_soFar.mode = RunMode::Live;
    m_soFar.ranks = ranks;
}

void IterationMerger::add(int from, RunResult iteration)
{
    if (from >= 0 && from < m_ranks)
        m_pending[static_cast<size_t>(from)].push_back(std::move(iteration));
}

Result<int> IterationMerger::mergeReady()
{
    int count = 0;
    while (m_ranks > 0 && std::all_of(m_pending.begin(), m_pending.end(), [](const auto& q) { return !q.empty(); })) {
        std::vector<RankPart> parts;
        for (int r = 0; r < m_ranks; ++r) {
            auto& q = m_pending[static_cast<size_t>(r)];
            RankPart p;
            p.ranks = {r};
            p.run = std::move(q.front());
            q.pop_front();
            p.run.ranks = m_ranks;
            p.clock = static_cast<size_t>(r) < m_fits.size() ? m_fits[static_cast<size_t>(r)] : exactClock(0);
            parts.push_back(std::move(p));
        }
        MergeOptions mo;
        mo.tieUs = m_tieUs;
        mo.startAtZero = false; // shifted below by the first iteration's start, as the whole merge is
        auto one = mergeRankParts(std::move(parts), mo);
        if (!one)
            return Error(one.error().kind, Message("error.merge.in_iteration")
                                               .with("iteration", merged() + 1)
                                               .with("reason", messageOf(one.error())));
        if (m_soFar.iterations.empty()) {
            const double t0 = firstMomentOf(*one);
            m_originUs = std::isfinite(t0) ? t0 : 0;
        }
        // x - origin, the very operation mergeRankParts' startAtZero applies to the whole run
        applyClockFit(*one, exactClock(m_originUs));
        const int base = static_cast<int>(m_soFar.collectives.size());
        for (Span s : one->spans) {
            if (s.collective >= 0)
                s.collective += base;
            m_soFar.spans.push_back(s);
        }
        for (CollectiveRecord& c : one->collectives)
            m_soFar.collectives.push_back(std::move(c));
        for (const IterationMark& m : one->iterations)
            m_soFar.iterations.push_back(m);
        ++count;
    }
    return count;
}

} // namespace shardlab
