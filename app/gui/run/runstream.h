// The bounded buffer between a streaming run and the GUI (PlotJuggler's habit): the engine
// thread appends what each finished iteration added, the GUI takes it all at once on a ~30 ms
// timer. Stale data (an older run's) is refused. The capacity bounds what the GUI thread has to
// take in at once: an iteration whose spans would overflow it is left out of the live view (the
// chunk is marked incomplete; the final result has every span), while collectives and iteration
// marks are always kept (spans refer to them).
#pragma once

#include "run/runtypes.h"

#include <mutex>
#include <optional>

namespace shardlab::gui {

class RunStream {
public:
    explicit RunStream(size_t capacitySpans = 50'000) : m_capacity(capacitySpans) {}

    // GUI thread: a new run begins; forget everything else.
    void reset(quint64 id);
    // Engine thread (or a stream parser's): copies what `soFar` gained since the last push of this
    // run. True when the buffer was empty before, i.e. when the GUI needs telling.
    bool push(quint64 id, const RunResult& soFar, int done, int total);
    // GUI thread: everything pending for run `id`, or nothing.
    std::optional<RunChunk> take(quint64 id);
    void setCapacity(size_t spans);

private:
    std::mutex m_mutex;
    size_t m_capacity;
    quint64 m_id = 0;
    size_t m_spansSeen = 0, m_collectivesSeen = 0, m_iterationsSeen = 0;
    RunChunk m_pending;
    bool m_hasPending = false;
};

} // namespace shardlab::gui
