#include "run/runstream.h"

#include <algorithm>
#include <numeric>

namespace shardlab::gui {

void RunStream::setCapacity(size_t spans)
{
    std::lock_guard lock(m_mutex);
    m_capacity = spans;
}

void RunStream::reset(quint64 id)
{
    std::lock_guard lock(m_mutex);
    m_id = id;
    m_spansSeen = m_collectivesSeen = m_iterationsSeen = 0;
    m_pending = {};
    m_hasPending = false;
}

bool RunStream::push(quint64 id, const RunResult& soFar, int done, int total)
{
    std::lock_guard lock(m_mutex);
    if (id != m_id)
        return false;
    const bool wasEmpty = !m_hasPending;
    const size_t newSpans = soFar.spans.size() - std::min(m_spansSeen, soFar.spans.size());
    if (m_pending.spans.size() + newSpans <= m_capacity) {
        // sorted here, on the engine thread, so that the GUI thread only appends
        const int base = static_cast<int>(m_pending.spans.size());
        std::vector<int> order(newSpans);
        std::iota(order.begin(), order.end(), base);
        m_pending.spans.insert(m_pending.spans.end(), soFar.spans.begin() + static_cast<long>(m_spansSeen),
                               soFar.spans.end());
        const std::vector<Span>& all = m_pending.spans;
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return all[static_cast<size_t>(a)].beginUs < all[static_cast<size_t>(b)].beginUs;
        });
        // chunks of later iterations begin later: merging keeps the whole pending list sorted
        const auto middle = m_pending.order.insert(m_pending.order.end(), order.begin(), order.end());
        std::inplace_merge(m_pending.order.begin(), middle, m_pending.order.end(), [&](int a, int b) {
            return all[static_cast<size_t>(a)].beginUs < all[static_cast<size_t>(b)].beginUs;
        });
    } else {
        m_pending.incomplete = true;
    }
    m_spansSeen = soFar.spans.size();
    m_pending.collectives.insert(m_pending.collectives.end(),
                                 soFar.collectives.begin() + static_cast<long>(m_collectivesSeen),
                                 soFar.collectives.end());
    m_collectivesSeen = soFar.collectives.size();
    m_pending.iterations.insert(m_pending.iterations.end(),
                                soFar.iterations.begin() + static_cast<long>(m_iterationsSeen), soFar.iterations.end());
    m_iterationsSeen = soFar.iterations.size();
    m_pending.done = done;
    m_pending.total = total;
    m_hasPending = true;
    return wasEmpty;
}

std::optional<RunChunk> RunStream::take(quint64 id)
{
    std::lock_guard lock(m_mutex);
    if (id != m_id || !m_hasPending)
        return std::nullopt;
    RunChunk out = std::move(m_pending);
    m_pending = {};
    m_hasPending = false;
    return out;
}

} // namespace shardlab::gui
