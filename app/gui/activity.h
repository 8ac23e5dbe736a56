// What the topology diagram shows at one instant of a run's playback: each rank's state and each
// link's traffic. Produced by the playback (run page) from the engine's RunResult, consumed by the
// topology diagram. A plain value: cheap to copy at 60 frames per second.
#pragma once

#include <vector>

namespace shardlab::gui {

enum class RankActivity { Idle, Compute, Communicate, Wait };

struct LinkTraffic {
    double utilisation = 0;  // 0..1 of the link's bandwidth in use (both directions, the larger)
    double bytesInFlight = 0;// bytes crossing the link in the current algorithm step
    bool forward = true;     // direction of the larger flow: true = from Link::a to Link::b
    // The algorithm step of the collective that loads the link most (ring steps at a slow
    // playback speed): step from 0, -1 when idle; stepProgress 0..1 through it.
    int step = -1;
    int steps = 0;
    double stepProgress = 0;
};

struct ActivityFrame {
    double timeUs = 0;
    std::vector<RankActivity> ranks;  // by rank
    std::vector<int> waitingFor;      // by rank: the rank it waits for, or -1
    std::vector<LinkTraffic> links;   // by index into Topology::links
    bool empty() const { return ranks.empty(); }
};

} // namespace shardlab::gui
