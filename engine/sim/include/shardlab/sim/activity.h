// What every rank and every link does at one instant of a run: the engine side of playback.
//
// A rank computes, communicates, waits (and for whom) or idles, read from its spans. A link
// carries the collectives running at that instant: each collective's flows (CostModel::
// patternFlows over the model's ring order) follow their routes (Router), and each flow carries
// CollectiveCost::movedBytes times its weight over the collective's duration, spread evenly over
// its algorithm steps. docs/playback.md gives the formulas.
//
// ActivityIndex is built once per run (sorting spans per rank and stream, sweeping collectives
// into time segments) and answers at(t) with binary searches, fast enough for 60 frames per
// second. It is immutable after construction and keeps the run alive: share it across threads.
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/cost_model.h"

#include <memory>
#include <vector>

namespace shardlab {

// Paging: a compute span spent moving unified memory (SpanDetail::Paging).
enum class ActivityState { Idle, Compute, Communicate, Wait, Paging };

struct LinkActivity {
    // Bytes per second the running collectives push through the link, over its nominal
    // bandwidth (Link::bandwidthGBps), in the busier direction; clamped to 0..1.
    double utilisation = 0;
    double bytesInFlight = 0; // bytes crossing it in the current algorithm step (busier direction)
    bool forward = true;      // busier direction: true = from Link::a to Link::b
    int collective = -1;      // the collective that loads it most (index into RunResult::collectives)
    int step = -1;            // that collective's current algorithm step, from 0; -1: idle
    int steps = 0;            // its number of steps
    double stepProgress = 0;  // 0..1 through the current step
};

struct ActivitySnapshot {
    double timeUs = 0;
    std::vector<ActivityState> ranks;            // by rank
    std::vector<int> waitingFor;                 // by rank: the rank it waits for, or -1
    std::vector<int> collective;                 // by rank: the collective it waits in or runs, or -1
    std::vector<LinkActivity> links;             // by index into Topology::links
    bool empty() const { return ranks.empty(); } // no run: nothing to show
};

// One collective's load on one direction of one link, over its whole duration.
struct LinkLoad {
    int link = 0;
    bool forward = true;
    double bytes = 0;
};

class ActivityIndex {
public:
    // `model` must be the cost model of the scenario's topology and profile (the one the run was
    // simulated with): it supplies ring orders, routes and moved bytes. Not kept.
    ActivityIndex(const Scenario& scenario, std::shared_ptr<const RunResult> run, CostModel& model);

    ActivitySnapshot at(double timeUs) const;

    // The first instant after `timeUs` at which something changes: a span begins or ends, or a
    // running collective enters its next algorithm step. endUs() when nothing follows.
    double nextEvent(double timeUs) const;
    // The last such instant before `timeUs`; beginUs() when none precedes.
    double previousEvent(double timeUs) const;

    double beginUs() const { return 0; }
    double endUs() const { return m_endUs; }
    int rankCount() const { return m_ranks; }
    const RunResult& run() const { return *m_run; }

    // What a collective puts on the links, and in how many steps.
    const std::vector<LinkLoad>& loadsOf(int collective) const;
    int stepsOf(int collective) const;

    // The span a rank is in at `timeUs` on `stream` (index into run().spans), or -1.
    int spanAt(int rank, int stream, double timeUs) const;

private:
    struct Lane {
        std::vector<double> begin; // sorted; spans of one lane never overlap, so ends are sorted too
        std::vector<double> end;
        std::vector<int> span;
    };
    struct Traffic {
        std::vector<LinkLoad> loads;
        int steps = 1;
    };
    const Lane& lane(int rank, int stream) const { return m_lanes[static_cast<size_t>(rank * kStreams + stream)]; }
    // Collectives running at `timeUs` (start <= t < end).
    std::pair<const int*, const int*> activeAt(double timeUs) const;

    static constexpr int kStreams = 2;
    std::shared_ptr<const RunResult> m_run;
    int m_ranks = 0;
    double m_endUs = 0;
    std::vector<Lane> m_lanes;           // rank * kStreams + stream
    std::vector<double> m_linkBandwidth; // nominal GB/s per direction, by link
    std::vector<Traffic> m_traffic;      // distinct traffic patterns
    std::vector<int> m_trafficOf;        // by collective
    std::vector<double> m_segmentStart;  // elementary time segments of the collectives' sweep
    std::vector<int> m_segmentOffset;    // segment i's active collectives: m_active[offset[i]..offset[i+1])
    std::vector<int> m_active;
};

} // namespace shardlab
