// What the timeline draws: a run's spans sorted into lanes (one per rank and stream, plus the
// reference run's lanes) and, per lane, one sorted track per span kind, so that drawing and
// hit-testing are binary searches (traceshark's lanes-as-few-graphs idea). No Qt: it is built
// on the engine thread for finished runs and appended to on the GUI thread while a run streams.
#pragma once

#include "timeline/lanesummary.h"
#include "timeline/timescale.h"

#include "shardlab/model/run_result.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace shardlab::gui {

// The spans of one kind on one lane, sorted by beginning; they never overlap, so the ends are
// sorted too.
// 28 bytes a span (begin, end, covered, span) while the ends are sorted; a track where a
// measured run overlaps itself keeps `reach` too (36 bytes).
struct TimelineTrack {
    std::vector<double> begin;
    std::vector<double> end;
    // Max end so far; empty while that is `end` itself (spans that never overlap): see reached().
    std::vector<double> reach;
    // covered[i]: the summed durations of spans [0, i) (covered[0] = 0 is implicit, so covered
    // has size() entries: covered[i] is the sum up to and including span i). Lets the
    // level-of-detail pass (timelinelod.h) tell how much of a pixel column a kind covers with
    // two binary searches, whatever the number of spans in it.
    std::vector<double> covered;
    std::vector<int> span; // index into the lane's run's spans
    size_t size() const { return span.size(); }
    void push(double b, double e, int s);
    void reserve(size_t n);
    const std::vector<double>& reached() const { return reach.empty() ? end : reach; }
    // First span ending after `us` (the first that can be visible from `us` on).
    size_t firstEndingAfter(double us) const;
    // The same, searching only from `from` on (a left-to-right sweep).
    size_t firstEndingAfter(double us, size_t from) const;
    // First span beginning at or after `us`, from `from` on.
    size_t firstBeginningAt(double us, size_t from = 0) const;
    // Summed durations of spans [first, last).
    double coveredBetween(size_t first, size_t last) const;
    // The span containing `us`, or -1.
    int at(double us) const;
};

struct TimelineLane {
    int rank = 0;
    LaneBand band = LaneBand::Main;
    std::array<TimelineTrack, 3> kinds; // by SpanKind
    // The compute spans spent paging unified memory, again (they stay in the compute track,
    // where the tooltip and the selection find them): drawn over it in the paging colour.
    TimelineTrack paging;
    // How much of each time bin every kind covers, at several resolutions: a zoomed-out view
    // reads it instead of the tracks (timelinelod.h).
    LaneSummary summary;
    const TimelineTrack& track(SpanKind kind) const { return kinds[static_cast<size_t>(kind)]; }
};

class TimelineData {
public:
    // A finished run, and optionally the simulated run of the same scenario to compare with.
    static std::shared_ptr<TimelineData> build(std::shared_ptr<const RunResult> run,
                                               std::shared_ptr<const RunResult> reference = {});
    // An empty timeline that grows with append() while a run streams in.
    static std::shared_ptr<TimelineData> streaming(int ranks, std::vector<std::string> devices);

    // Appends spans, collectives and iteration marks that follow what is already there (the
    // simulator's per-iteration stream). Span collective indices refer to the whole run.
    // `order`, when it lists every span, gives them by beginning (sorted by the caller, off the
    // GUI thread). The spans are kept as the chunk they came in (moved, never copied into one
    // big vector: growing that would stall the GUI thread).
    void append(std::vector<Span> spans, const std::vector<CollectiveRecord>& collectives,
                const std::vector<IterationMark>& iterations, std::vector<int> order = {});
    // The same in slices, so that no turn of the event loop takes long: beginAppend() stores the
    // chunk, each continueAppend() puts up to `maxSpans` of its spans into the lanes and says
    // whether some remain. A new beginAppend() first finishes the one before.
    void beginAppend(std::vector<Span> spans, std::vector<CollectiveRecord> collectives,
                     const std::vector<IterationMark>& iterations, std::vector<int> order = {});
    bool continueAppend(size_t maxSpans);
    // Reserves room in every track for `factor` times what it holds (a stream that knows how
    // much of the run it has seen); once.
    void expectGrowth(double factor);

    // The run: devices, collectives, iterations; its spans through span() (a streaming run keeps
    // them in chunks, and run().spans is empty).
    const RunResult& run() const { return *m_run; }
    // Tells this object from any other made before or after (caches key on it with spanCount()).
    std::uint64_t id() const { return m_id; }
    const Span& span(LaneBand band, int index) const;
    size_t runSpanCount() const
    {
        return m_chunks.empty() ? m_run->spans.size() : m_chunkStart.back() + m_chunks.back().size();
    }
    const RunResult* reference() const { return m_reference.get(); }
    const RunResult& runOf(LaneBand band) const
    {
        return band == LaneBand::Reference && m_reference ? *m_reference : *m_run;
    }
    const LaneLayout& layout() const { return m_layout; }
    const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    const TimelineLane* lane(int rank, LaneBand band) const;
    double endUs() const { return m_endUs; }
    size_t spanCount() const;
    // Whether some span of the run or its reference is unified-memory paging (its legend entry).
    bool hasPaging() const { return m_hasPaging; }

    // Collectives by start time (indices into run().collectives), for the joins between lanes.
    const std::vector<int>& collectivesByStart() const { return m_collectivesByStart; }
    const std::vector<double>& collectiveStarts() const { return m_collectiveStarts; }

    struct Hit {
        LaneBand band = LaneBand::Main;
        int span = -1; // index into runOf(band).spans
        // Spans of the lane in the pixel column under the point (TimelineView::hitAt): more
        // than one where the view aggregates them into one block.
        int inPixel = 1;
    };
    // The span at `us` on rank's band; with `tolerancePx` > 0 the nearest span within that many
    // pixels of `us` on `scale` (spans thinner than a pixel stay pickable).
    std::optional<Hit> spanAt(int rank, LaneBand band, double us, const TimeScale& scale, double tolerancePx = 0) const;

private:
    // Sorted by beginning, spans[*first..*last) go to their tracks (as index base + i).
    void addOrdered(const std::vector<Span>& spans, int base, bool reference, const int* first, const int* last);
    static std::vector<int> byBeginning(const std::vector<Span>& spans);
    // The lane band a span goes to, or none (out of range, empty, or the reference's comm stream).
    std::optional<LaneBand> bandOf(const Span& s, bool reference) const;
    void reserveTracks(const std::vector<Span>& spans, bool reference);
    static void resortTail(TimelineTrack& t, size_t sortedUpTo, bool endsSorted);
    void sortCollectives(size_t from = 0);
    void makeLanes();
    TimelineLane& laneFor(int rank, LaneBand band);

    static std::atomic<std::uint64_t> s_nextId;
    std::uint64_t m_id = 0;
    std::shared_ptr<const RunResult> m_run;
    std::shared_ptr<RunResult> m_owned; // the growing run while streaming (same object as m_run)
    std::shared_ptr<const RunResult> m_reference;
    std::vector<std::vector<Span>> m_chunks; // a streaming run's spans, chunk by chunk
    std::vector<size_t> m_chunkStart;        // index of each chunk's first span
    bool m_grew = false;
    bool m_hasPaging = false;
    struct PendingAppend {
        size_t chunk = 0;
        std::vector<int> order;
        size_t next = 0;
    };
    std::optional<PendingAppend> m_pending;
    LaneLayout m_layout;
    std::vector<TimelineLane> m_lanes; // rank-major: all bands of rank 0, then rank 1...
    double m_endUs = 0;
    std::vector<int> m_collectivesByStart;
    std::vector<double> m_collectiveStarts;
};

} // namespace shardlab::gui
