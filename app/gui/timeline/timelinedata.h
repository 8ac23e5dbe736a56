// What the timeline draws: a run's spans sorted into lanes (one per rank and stream, plus the
// reference run's lanes) and, per lane, one sorted track per span kind, so that drawing and
// hit-testing are binary searches (traceshark's lanes-as-few-graphs idea). No Qt: it is built
// on the engine thread for finished runs and appended to on the GUI thread while a run streams.
#pragma once

#include "timescale.h"

#include "shardlab/run_result.h"

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace shardlab::gui {

// The spans of one kind on one lane, sorted by beginning; they never overlap, so the ends are
// sorted too.
struct TimelineTrack {
    std::vector<double> begin;
    std::vector<double> end;
    std::vector<double> reach; // max end so far: equals end unless a measured run overlaps itself
    std::vector<int> span;     // index into the lane's run's spans
    size_t size() const { return span.size(); }
    void push(double b, double e, int s);
    // First span ending after `us` (the first that can be visible from `us` on).
    size_t firstEndingAfter(double us) const;
    // The span containing `us`, or -1.
    int at(double us) const;
};

struct TimelineLane {
    int rank = 0;
    LaneBand band = LaneBand::Main;
    std::array<TimelineTrack, 3> kinds; // by SpanKind
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
    // `order`, when given, lists `spans` by beginning (sorted by the caller, off this thread).
    void append(const std::vector<Span>& spans, const std::vector<CollectiveRecord>& collectives,
                const std::vector<IterationMark>& iterations, const std::vector<int>* order = nullptr);

    const RunResult& run() const { return *m_run; }
    const RunResult* reference() const { return m_reference.get(); }
    const RunResult& runOf(LaneBand band) const { return band == LaneBand::Reference && m_reference ? *m_reference : *m_run; }
    const LaneLayout& layout() const { return m_layout; }
    const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    const TimelineLane* lane(int rank, LaneBand band) const;
    double endUs() const { return m_endUs; }
    size_t spanCount() const;

    // Collectives by start time (indices into run().collectives), for the joins between lanes.
    const std::vector<int>& collectivesByStart() const { return m_collectivesByStart; }
    const std::vector<double>& collectiveStarts() const { return m_collectiveStarts; }

    struct Hit {
        LaneBand band = LaneBand::Main;
        int span = -1; // index into runOf(band).spans
    };
    // The span at `us` on rank's band; with `tolerancePx` > 0 the nearest span within that many
    // pixels of `us` on `scale` (spans thinner than a pixel stay pickable).
    std::optional<Hit> spanAt(int rank, LaneBand band, double us, const TimeScale& scale, double tolerancePx = 0) const;

private:
    void addSpans(const RunResult& run, size_t from, bool reference, const std::vector<int>* order = nullptr);
    void sortCollectives(size_t from = 0);
    void makeLanes();
    TimelineLane& laneFor(int rank, LaneBand band);

    std::shared_ptr<const RunResult> m_run;
    std::shared_ptr<RunResult> m_owned; // the growing run while streaming (same object as m_run)
    std::shared_ptr<const RunResult> m_reference;
    LaneLayout m_layout;
    std::vector<TimelineLane> m_lanes; // rank-major: all bands of rank 0, then rank 1...
    double m_endUs = 0;
    std::vector<int> m_collectivesByStart;
    std::vector<double> m_collectiveStarts;
};

} // namespace shardlab::gui
