#include "timelinedata.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace shardlab::gui {

void TimelineTrack::push(double b, double e, int s)
{
    begin.push_back(b);
    end.push_back(e);
    reach.push_back(reach.empty() ? e : std::max(e, reach.back()));
    span.push_back(s);
}

size_t TimelineTrack::firstEndingAfter(double us) const
{
    return static_cast<size_t>(std::upper_bound(reach.begin(), reach.end(), us) - reach.begin());
}

int TimelineTrack::at(double us) const
{
    const auto it = std::upper_bound(begin.begin(), begin.end(), us);
    // walk back over the (rare) spans that an earlier, longer one overlaps
    for (size_t i = static_cast<size_t>(it - begin.begin()); i > 0 && reach[i - 1] > us; --i)
        if (us < end[i - 1])
            return static_cast<int>(i - 1);
    return -1;
}

std::shared_ptr<TimelineData> TimelineData::build(std::shared_ptr<const RunResult> run, std::shared_ptr<const RunResult> reference)
{
    auto d = std::make_shared<TimelineData>();
    d->m_run = std::move(run);
    d->m_reference = std::move(reference);
    const RunResult& r = *d->m_run;
    d->m_layout.ranks = r.ranks;
    d->m_layout.commStream = std::any_of(r.spans.begin(), r.spans.end(), [](const Span& s) { return s.stream != 0; });
    d->m_layout.reference = d->m_reference != nullptr;
    d->makeLanes();
    d->addSpans(r, 0, false);
    if (d->m_reference)
        d->addSpans(*d->m_reference, 0, true);
    d->m_endUs = std::max(d->m_endUs, r.endUs());
    d->sortCollectives();
    return d;
}

std::shared_ptr<TimelineData> TimelineData::streaming(int ranks, std::vector<std::string> devices)
{
    auto d = std::make_shared<TimelineData>();
    d->m_owned = std::make_shared<RunResult>();
    d->m_owned->ranks = ranks;
    d->m_owned->devices = std::move(devices);
    d->m_run = d->m_owned;
    d->m_layout.ranks = ranks;
    d->makeLanes();
    return d;
}

void TimelineData::append(const std::vector<Span>& spans, const std::vector<CollectiveRecord>& collectives,
                          const std::vector<IterationMark>& iterations, const std::vector<int>* order)
{
    if (!m_owned)
        return; // a finished run does not grow
    RunResult& r = *m_owned;
    const size_t from = r.spans.size();
    const size_t collectivesFrom = r.collectives.size();
    r.spans.insert(r.spans.end(), spans.begin(), spans.end());
    r.collectives.insert(r.collectives.end(), collectives.begin(), collectives.end());
    r.iterations.insert(r.iterations.end(), iterations.begin(), iterations.end());
    if (!m_layout.commStream && std::any_of(spans.begin(), spans.end(), [](const Span& s) { return s.stream != 0; }))
        m_layout.commStream = true;
    addSpans(r, from, false, order && order->size() == spans.size() ? order : nullptr);
    for (const IterationMark& m : iterations)
        m_endUs = std::max(m_endUs, m.endUs);
    sortCollectives(collectivesFrom);
}

void TimelineData::makeLanes()
{
    // three bands per rank, rank-major
    m_lanes.resize(static_cast<size_t>(std::max(m_layout.ranks, 0)) * 3);
    for (size_t k = 0; k < m_lanes.size(); ++k) {
        m_lanes[k].rank = static_cast<int>(k / 3);
        m_lanes[k].band = static_cast<LaneBand>(k % 3);
    }
}

TimelineLane& TimelineData::laneFor(int rank, LaneBand band)
{
    return m_lanes[static_cast<size_t>(rank) * 3 + static_cast<size_t>(band)];
}

const TimelineLane* TimelineData::lane(int rank, LaneBand band) const
{
    const size_t i = static_cast<size_t>(rank) * 3 + static_cast<size_t>(band);
    return rank >= 0 && i < m_lanes.size() ? &m_lanes[i] : nullptr;
}

void TimelineData::addSpans(const RunResult& run, size_t from, bool reference, const std::vector<int>* given)
{
    // Sort the new spans by beginning (unless the caller did), then append each to its track.
    // New spans follow the old ones in time (a stream delivers whole iterations); should one
    // not, its track is re-sorted.
    std::vector<int> order;
    if (given) {
        order.reserve(given->size());
        for (int i : *given)
            order.push_back(static_cast<int>(from) + i);
    } else {
        order.resize(run.spans.size() - from);
        std::iota(order.begin(), order.end(), static_cast<int>(from));
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return run.spans[static_cast<size_t>(a)].beginUs < run.spans[static_cast<size_t>(b)].beginUs; });
    }
    std::vector<TimelineTrack*> unsorted;
    for (int i : order) {
        const Span& s = run.spans[static_cast<size_t>(i)];
        if (s.rank < 0 || s.rank >= m_layout.ranks || !(s.endUs > s.beginUs))
            continue;
        const LaneBand band = reference ? LaneBand::Reference : s.stream != 0 ? LaneBand::CommStream : LaneBand::Main;
        if (reference && s.stream != 0)
            continue; // the reference lane shows what the compute stream did
        TimelineTrack& t = laneFor(s.rank, band).kinds[static_cast<size_t>(s.kind)];
        if (!t.begin.empty() && s.beginUs < t.begin.back() && std::find(unsorted.begin(), unsorted.end(), &t) == unsorted.end())
            unsorted.push_back(&t);
        t.push(s.beginUs, s.endUs, i);
        m_endUs = std::max(m_endUs, s.endUs);
    }
    for (TimelineTrack* t : unsorted) {
        std::vector<size_t> idx(t->size());
        std::iota(idx.begin(), idx.end(), size_t{0});
        std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return t->begin[a] < t->begin[b]; });
        TimelineTrack sorted;
        for (size_t k : idx)
            sorted.push(t->begin[k], t->end[k], t->span[k]);
        *t = std::move(sorted);
    }
}

void TimelineData::sortCollectives(size_t from)
{
    const RunResult& r = *m_run;
    auto earlier = [&](int a, int b) { return r.collectives[static_cast<size_t>(a)].startUs < r.collectives[static_cast<size_t>(b)].startUs; };
    if (from != m_collectivesByStart.size())
        from = 0; // out of step: start over
    m_collectivesByStart.resize(from);
    for (size_t c = from; c < r.collectives.size(); ++c)
        m_collectivesByStart.push_back(static_cast<int>(c));
    // sort what is new, then merge it in (a stream's new collectives usually all come later)
    const auto middle = m_collectivesByStart.begin() + static_cast<long>(from);
    std::stable_sort(middle, m_collectivesByStart.end(), earlier);
    std::inplace_merge(m_collectivesByStart.begin(), middle, m_collectivesByStart.end(), earlier);
    m_collectiveStarts.clear();
    m_collectiveStarts.reserve(m_collectivesByStart.size());
    for (int c : m_collectivesByStart)
        m_collectiveStarts.push_back(r.collectives[static_cast<size_t>(c)].startUs);
}

size_t TimelineData::spanCount() const
{
    size_t n = 0;
    for (const TimelineLane& l : m_lanes)
        for (const TimelineTrack& t : l.kinds)
            n += t.size();
    return n;
}

std::optional<TimelineData::Hit> TimelineData::spanAt(int rank, LaneBand band, double us, const TimeScale& scale,
                                                      double tolerancePx) const
{
    const TimelineLane* l = lane(rank, band);
    if (!l)
        return std::nullopt;
    // exact hit first (wait and comm before compute: they are the ones people point at)
    for (SpanKind kind : {SpanKind::Wait, SpanKind::Comm, SpanKind::Compute}) {
        const TimelineTrack& t = l->track(kind);
        if (const int i = t.at(us); i >= 0)
            return Hit{band, t.span[static_cast<size_t>(i)]};
    }
    if (tolerancePx <= 0)
        return std::nullopt;
    const double tol = tolerancePx * scale.usPerPixel();
    double bestDistance = tol;
    std::optional<Hit> best;
    for (const TimelineTrack& t : l->kinds) {
        const size_t i = t.firstEndingAfter(us - tol);
        for (size_t k = i; k < t.size() && t.begin[k] <= us + tol; ++k) {
            const double d = us < t.begin[k] ? t.begin[k] - us : us > t.end[k] ? us - t.end[k] : 0.0;
            if (d <= bestDistance) {
                bestDistance = d;
                best = Hit{band, t.span[k]};
            }
        }
    }
    return best;
}

} // namespace shardlab::gui
