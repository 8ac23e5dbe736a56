#include "activityframe.h"

namespace shardlab::gui {

namespace {

RankActivity toRankActivity(RankState s)
{
    switch (s) {
    case RankState::Idle: return RankActivity::Idle;
    case RankState::Compute: return RankActivity::Compute;
    case RankState::Communicate: return RankActivity::Communicate;
    case RankState::Wait: return RankActivity::Wait;
    }
    return RankActivity::Idle;
}

} // namespace

ActivityFrame toActivityFrame(const ActivitySnapshot& s)
{
    ActivityFrame f;
    f.timeUs = s.timeUs;
    f.ranks.reserve(s.ranks.size());
    for (RankState r : s.ranks)
        f.ranks.push_back(toRankActivity(r));
    f.waitingFor = s.waitingFor;
    f.links.reserve(s.links.size());
    for (const LinkActivity& l : s.links)
        f.links.push_back({l.utilisation, l.bytesInFlight, l.forward, l.step, l.steps, l.stepProgress});
    return f;
}

} // namespace shardlab::gui
