#include "timeline/timelinedata.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>

namespace shardlab::gui {

std::atomic<std::uint64_t> TimelineData::s_nextId{0};

void TimelineTrack::push(double b, double e, int s)
{
    if (reach.empty() && !end.empty() && e < end.back()) {
        // the first span that ends before an earlier one: from now on the max end is stored
        reach.reserve(end.capacity());
        reach.push_back(end.front());
        for (size_t i = 1; i < end.size(); ++i)
            reach.push_back(std::max(end[i], reach.back()));
    }
    if (!reach.empty())
        reach.push_back(std::max(e, reach.back()));
    covered.push_back((covered.empty() ? 0.0 : covered.back()) + (e - b));
    begin.push_back(b);
    end.push_back(e);
    span.push_back(s);
}

void TimelineTrack::reserve(size_t n)
{
    begin.reserve(n);
    end.reserve(n);
    covered.reserve(n);
    span.reserve(n);
    if (!reach.empty())
        reach.reserve(n);
}

size_t TimelineTrack::firstEndingAfter(double us) const
{
    const std::vector<double>& r = reached();
    return static_cast<size_t>(std::upper_bound(r.begin(), r.end(), us) - r.begin());
}

namespace {

// The first element of sorted `v` from `from` on for which `past` holds, galloping: steps of
// 1, 2, 4... from `from`, then a binary search in the last step. A left-to-right sweep over a
// lane (timelinelod.cpp) finds its next span in O(log distance), touching memory near the
// last one instead of the middle of a million-span array.
template <typename Past>
size_t gallopTo(const std::vector<double>& v, size_t from, Past past)
{
    size_t lo = std::min(from, v.size()), hi = lo, step = 1;
    while (hi < v.size() && !past(v[hi])) {
        lo = hi + 1;
        hi = from + step;
        step *= 2;
    }
    hi = std::min(hi, v.size());
    return static_cast<size_t>(std::partition_point(v.begin() + static_cast<long>(lo),
                                                    v.begin() + static_cast<long>(hi),
                                                    [&](double x) { return !past(x); })
                               - v.begin());
}

} // namespace

size_t TimelineTrack::firstEndingAfter(double us, size_t from) const
{
    return gallopTo(reached(), from, [us](double reached) { return reached > us; });
}

size_t TimelineTrack::firstBeginningAt(double us, size_t from) const
{
    return gallopTo(begin, from, [us](double b) { return b >= us; });
}

double TimelineTrack::coveredBetween(size_t first, size_t last) const
{
    if (last <= first)
        return 0;
    return covered[last - 1] - (first > 0 ? covered[first - 1] : 0.0);
}

int TimelineTrack::at(double us) const
{
    const std::vector<double>& r = reached();
    const auto it = std::upper_bound(begin.begin(), begin.end(), us);
    // walk back over the (rare) spans that an earlier, longer one overlaps
    for (size_t i = static_cast<size_t>(it - begin.begin()); i > 0 && r[i - 1] > us; --i)
        if (us < end[i - 1])
            return static_cast<int>(i - 1);
    return -1;
}

std::shared_ptr<TimelineData> TimelineData::build(std::shared_ptr<const RunResult> run,
                                                  std::shared_ptr<const RunResult> reference)
{
    auto d = std::make_shared<TimelineData>();
    d->m_id = ++s_nextId;
    d->m_run = std::move(run);
    d->m_reference = std::move(reference);
    const RunResult& r = *d->m_run;
    d->m_layout.ranks = r.ranks;
    d->m_layout.commStream = std::any_of(r.spans.begin(), r.spans.end(), [](const Span& s) { return s.stream != 0; });
    d->m_layout.reference = d->m_reference != nullptr;
    d->makeLanes();
    const std::vector<int> order = byBeginning(r.spans);
    d->reserveTracks(r.spans, false);
    d->addOrdered(r.spans, 0, false, order.data(), order.data() + order.size());
    if (d->m_reference) {
        d->reserveTracks(d->m_reference->spans, true);
        const std::vector<int> refOrder = byBeginning(d->m_reference->spans);
        d->addOrdered(d->m_reference->spans, 0, true, refOrder.data(), refOrder.data() + refOrder.size());
    }
    d->m_endUs = std::max(d->m_endUs, r.endUs());
    d->sortCollectives();
    return d;
}

std::shared_ptr<TimelineData> TimelineData::streaming(int ranks, std::vector<std::string> devices)
{
    auto d = std::make_shared<TimelineData>();
    d->m_id = ++s_nextId;
    d->m_owned = std::make_shared<RunResult>();
    d->m_owned->ranks = ranks;
    d->m_owned->devices = std::move(devices);
    d->m_run = d->m_owned;
    d->m_layout.ranks = ranks;
    d->makeLanes();
    return d;
}

void TimelineData::append(std::vector<Span> spans, const std::vector<CollectiveRecord>& collectives,
                          const std::vector<IterationMark>& iterations, std::vector<int> order)
{
    beginAppend(std::move(spans), collectives, iterations, std::move(order));
    while (continueAppend(std::numeric_limits<size_t>::max())) {
    }
}

void TimelineData::beginAppend(std::vector<Span> spans, std::vector<CollectiveRecord> collectives,
                               const std::vector<IterationMark>& iterations, std::vector<int> order)
{
    if (!m_owned)
        return; // a finished run does not grow
    while (continueAppend(std::numeric_limits<size_t>::max())) {
    }
    RunResult& r = *m_owned;
    const size_t collectivesFrom = r.collectives.size();
    r.collectives.insert(r.collectives.end(), std::make_move_iterator(collectives.begin()),
                         std::make_move_iterator(collectives.end()));
    r.iterations.insert(r.iterations.end(), iterations.begin(), iterations.end());
    for (const IterationMark& m : iterations)
        m_endUs = std::max(m_endUs, m.endUs);
    sortCollectives(collectivesFrom);
    if (!m_layout.commStream && std::any_of(spans.begin(), spans.end(), [](const Span& s) { return s.stream != 0; }))
        m_layout.commStream = true;
    if (order.size() != spans.size())
        order = byBeginning(spans);
    m_chunkStart.push_back(runSpanCount());
    m_chunks.push_back(std::move(spans));
    m_pending = PendingAppend{m_chunks.size() - 1, std::move(order), 0};
}

bool TimelineData::continueAppend(size_t maxSpans)
{
    if (!m_pending)
        return false;
    PendingAppend& p = *m_pending;
    const size_t end = p.order.size() - p.next > maxSpans ? p.next + maxSpans : p.order.size();
    addOrdered(m_chunks[p.chunk], static_cast<int>(m_chunkStart[p.chunk]), false, p.order.data() + p.next,
               p.order.data() + end);
    p.next = end;
    if (p.next < p.order.size())
        return true;
    m_pending.reset();
    return false;
}

std::vector<int> TimelineData::byBeginning(const std::vector<Span>& spans)
{
    std::vector<int> order(spans.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return spans[static_cast<size_t>(a)].beginUs < spans[static_cast<size_t>(b)].beginUs;
    });
    return order;
}

void TimelineData::expectGrowth(double factor)
{
    if (m_grew || !(factor > 1))
        return;
    m_grew = true;
    for (TimelineLane& l : m_lanes)
        for (TimelineTrack& t : l.kinds) {
            t.reserve(static_cast<size_t>(static_cast<double>(t.size()) * factor * 1.05) + 16);
        }
    // the collectives too: growing their vector by doubling moved every record in one slice
    const size_t collectives = static_cast<size_t>(static_cast<double>(m_run->collectives.size()) * factor * 1.05) + 16;
    if (m_owned)
        m_owned->collectives.reserve(collectives);
    m_collectivesByStart.reserve(collectives);
    m_collectiveStarts.reserve(collectives);
}

const Span& TimelineData::span(LaneBand band, int index) const
{
    if (band == LaneBand::Reference && m_reference)
        return m_reference->spans.at(static_cast<size_t>(index));
    if (m_chunks.empty())
        return m_run->spans.at(static_cast<size_t>(index));
    const size_t i = static_cast<size_t>(index);
    const size_t chunk =
        static_cast<size_t>(std::upper_bound(m_chunkStart.begin(), m_chunkStart.end(), i) - m_chunkStart.begin()) - 1;
    return m_chunks.at(chunk).at(i - m_chunkStart[chunk]);
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

void TimelineData::addOrdered(const std::vector<Span>& spans, int base, bool reference, const int* first,
                              const int* last)
{
    // New spans follow the old ones in time (a stream delivers whole iterations); should one
    // not, only the tail of its track from the first span it precedes is re-sorted (a live run's
    // ranks report a little out of step: re-sorting whole tracks of millions would stall).
    // Each entry: the track, its size when the first span out of order came, and whether its
    // ends were sorted until then.
    struct Unsorted {
        TimelineTrack* track;
        size_t sortedUpTo;
        bool endsSorted;
    };
    std::vector<Unsorted> unsorted;
    auto push = [&unsorted](TimelineTrack& t, const Span& s, int index) {
        if (!t.begin.empty() && s.beginUs < t.begin.back()
            && std::none_of(unsorted.begin(), unsorted.end(), [&](const Unsorted& u) { return u.track == &t; }))
            unsorted.push_back({&t, t.size(), t.reach.empty()});
        t.push(s.beginUs, s.endUs, index);
    };
    for (const int* it = first; it != last; ++it) {
        const int i = *it;
        const Span& s = spans[static_cast<size_t>(i)];
        const std::optional<LaneBand> band = bandOf(s, reference);
        if (!band)
            continue;
        TimelineLane& lane = laneFor(s.rank, *band);
        push(lane.kinds[static_cast<size_t>(s.kind)], s, base + i);
        const bool paging = s.kind == SpanKind::Compute && s.detail == SpanDetail::Paging;
        if (paging) {
            push(lane.paging, s, base + i);
            m_hasPaging = true;
        }
        lane.summary.add(s.kind, paging, s.beginUs, s.endUs);
        m_endUs = std::max(m_endUs, s.endUs);
    }
    for (const Unsorted& u : unsorted)
        resortTail(*u.track, u.sortedUpTo, u.endsSorted);
    for (TimelineLane& l : m_lanes)
        l.summary.finish(); // nothing to do where nothing was added
}

std::optional<LaneBand> TimelineData::bandOf(const Span& s, bool reference) const
{
    if (s.rank < 0 || s.rank >= m_layout.ranks || !(s.endUs > s.beginUs))
        return std::nullopt;
    if (reference)
        return s.stream != 0 ? std::nullopt
                             : std::optional(LaneBand::Reference); // the reference lane shows the compute stream
    return s.stream != 0 ? LaneBand::CommStream : LaneBand::Main;
}

void TimelineData::reserveTracks(const std::vector<Span>& spans, bool reference)
{
    // a finished run's tracks at their exact size: 28 bytes a span, not up to twice that
    std::vector<size_t> n(m_lanes.size() * 4, 0);
    for (const Span& s : spans)
        if (const std::optional<LaneBand> band = bandOf(s, reference)) {
            const size_t lane = static_cast<size_t>(s.rank) * 3 + static_cast<size_t>(*band);
            ++n[lane * 4 + static_cast<size_t>(s.kind)];
            if (s.kind == SpanKind::Compute && s.detail == SpanDetail::Paging)
                ++n[lane * 4 + 3];
        }
    for (size_t l = 0; l < m_lanes.size(); ++l) {
        for (size_t k = 0; k < 3; ++k)
            m_lanes[l].kinds[k].reserve(m_lanes[l].kinds[k].size() + n[l * 4 + k]);
        m_lanes[l].paging.reserve(m_lanes[l].paging.size() + n[l * 4 + 3]);
    }
}

void TimelineData::resortTail(TimelineTrack& t, size_t sortedUpTo, bool endsSorted)
{
    // [0, sortedUpTo) and [sortedUpTo, size) are each sorted by beginning (the second came in
    // one sorted slice); only what follows the first span that the new ones precede moves.
    const double firstNew = *std::min_element(t.begin.begin() + static_cast<long>(sortedUpTo), t.begin.end());
    const size_t from = static_cast<size_t>(
        std::upper_bound(t.begin.begin(), t.begin.begin() + static_cast<long>(sortedUpTo), firstNew) - t.begin.begin());
    std::vector<size_t> idx(t.size() - from);
    std::iota(idx.begin(), idx.end(), from);
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return t.begin[a] < t.begin[b]; });
    std::vector<double> b, e;
    std::vector<int> s;
    b.reserve(idx.size());
    e.reserve(idx.size());
    s.reserve(idx.size());
    for (size_t k : idx) {
        b.push_back(t.begin[k]);
        e.push_back(t.end[k]);
        s.push_back(t.span[k]);
    }
    for (std::vector<double>* v : {&t.begin, &t.end, &t.covered})
        v->resize(from);
    t.span.resize(from);
    // the late span made push() keep the running maximum; sorted, it may not be needed
    if (endsSorted)
        t.reach.clear();
    else
        t.reach.resize(from);
    for (size_t k = 0; k < b.size(); ++k)
        t.push(b[k], e[k], s[k]);
}

void TimelineData::sortCollectives(size_t from)
{
    const RunResult& r = *m_run;
    auto earlier = [&](int a, int b) {
        return r.collectives[static_cast<size_t>(a)].startUs < r.collectives[static_cast<size_t>(b)].startUs;
    };
    if (from != m_collectivesByStart.size())
        from = 0; // out of step: start over
    m_collectivesByStart.resize(from);
    for (size_t c = from; c < r.collectives.size(); ++c)
        m_collectivesByStart.push_back(static_cast<int>(c));
    // sort what is new, then merge it in from the first old one it precedes (a stream's new
    // collectives usually all come later: then nothing old moves, and a chunk costs its own size,
    // not the run's)
    const auto middle = m_collectivesByStart.begin() + static_cast<long>(from);
    std::stable_sort(middle, m_collectivesByStart.end(), earlier);
    size_t moved = from;
    if (middle != m_collectivesByStart.end()) {
        const double firstNew = r.collectives[static_cast<size_t>(*middle)].startUs;
        moved = static_cast<size_t>(
            std::upper_bound(m_collectiveStarts.begin(), m_collectiveStarts.begin() + static_cast<long>(from), firstNew)
            - m_collectiveStarts.begin());
        std::inplace_merge(m_collectivesByStart.begin() + static_cast<long>(moved), middle, m_collectivesByStart.end(),
                           earlier);
    }
    m_collectiveStarts.resize(moved);
    for (size_t k = moved; k < m_collectivesByStart.size(); ++k)
        m_collectiveStarts.push_back(r.collectives[static_cast<size_t>(m_collectivesByStart[k])].startUs);
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
