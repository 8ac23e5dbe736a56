#include "activityframe.h"

namespace shardlab::gui {

namespace {

RankActivity toRankActivity(ActivityState s)
{
    switch (s) {
    case ActivityState::Idle: return RankActivity::Idle;
    case ActivityState::Compute: return RankActivity::Compute;
    case ActivityState::Communicate: return RankActivity::Communicate;
    case ActivityState::Wait: return RankActivity::Wait;
    }
    return RankActivity::Idle;
}

} // namespace

ActivityFrame toActivityFrame(const ActivitySnapshot& s)
{
    ActivityFrame f;
    f.timeUs = s.timeUs;
    f.ranks.reserve(s.ranks.size());
    for (ActivityState r : s.ranks)
        f.ranks.push_back(toRankActivity(r));
    f.waitingFor = s.waitingFor;
    f.links.reserve(s.links.size());
    for (const LinkActivity& l : s.links)
        f.links.push_back({l.utilisation, l.bytesInFlight, l.forward, l.step, l.steps, l.stepProgress});
    return f;
}

} // namespace shardlab::gui
