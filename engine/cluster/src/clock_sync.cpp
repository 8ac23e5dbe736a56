#include "shardlab/cluster/clock_sync.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace shardlab {

double processClockUs()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Result<ClockOffset> estimateOffset(const std::vector<PingSample>& samples)
{
    if (samples.empty())
        return runFailed(Message("error.clock.no_exchange"));
    const PingSample* best = nullptr;
    for (const PingSample& s : samples) {
        if (!(s.roundTripUs() >= 0))
            return runFailed(Message("error.clock.not_monotonic").with("us", std::to_string(s.roundTripUs())));
        if (!best || s.roundTripUs() < best->roundTripUs())
            best = &s;
    }
    ClockOffset o;
    // Cristian: the peer stamped its clock somewhere between send and receive; take the middle.
    o.offsetUs = best->remoteUs - (best->sendUs + best->receiveUs) / 2;
    o.errorUs = best->roundTripUs() / 2;
    o.atUs = (best->sendUs + best->receiveUs) / 2;
    o.samples = static_cast<int>(samples.size());
    return o;
}

namespace {
constexpr double kMinDriftSpanUs = 10'000; // closer measurements say nothing useful about drift
constexpr double kMaxDrift = 1e-3;         // 1000 ppm: beyond any quartz; a measurement problem

// The slope to use, or nullopt when the two measurements cannot give a trustworthy drift.
std::optional<double> driftOf(const ProcessClockFit& f)
{
    if (!f.after || f.after->atUs - f.before.atUs < kMinDriftSpanUs)
        return std::nullopt;
    const double k = (f.after->offsetUs - f.before.offsetUs) / (f.after->atUs - f.before.atUs);
    if (std::fabs(k) > kMaxDrift)
        return std::nullopt;
    return k;
}
} // namespace

double ProcessClockFit::toRoot(double localUs) const
{
    if (auto k = driftOf(*this)) {
        // offset(t) = o1 + k (t - a1) in root time t, and local = t + offset(t):
        //   t = (local - o1 + k a1) / (1 + k)
        return (localUs - before.offsetUs + *k * before.atUs) / (1 + *k);
    }
    if (after) // two measurements too close together (or implausible drift): their mean
        return localUs - (before.offsetUs + after->offsetUs) / 2;
    return localUs - before.offsetUs;
}

double ProcessClockFit::errorUs() const
{
    if (!after)
        return before.errorUs;
    if (driftOf(*this))
        return std::max(before.errorUs, after->errorUs);
    return std::max(before.errorUs, after->errorUs) + std::fabs(after->offsetUs - before.offsetUs) / 2;
}

double ProcessClockFit::driftPpm() const
{
    auto k = driftOf(*this);
    return k ? *k * 1e6 : 0.0;
}

ProcessClockFit exactClock(double offsetUs)
{
    ProcessClockFit f;
    f.before.offsetUs = offsetUs;
    return f;
}

void applyClockFit(RunResult& run, const ProcessClockFit& fit)
{
    for (Span& s : run.spans) {
        s.beginUs = fit.toRoot(s.beginUs);
        s.endUs = fit.toRoot(s.endUs);
    }
    for (CollectiveRecord& c : run.collectives) {
        for (double& a : c.arrivalUs)
            if (!std::isnan(a))
                a = fit.toRoot(a);
        c.startUs = fit.toRoot(c.startUs);
        c.endUs = fit.toRoot(c.endUs);
    }
    for (IterationMark& m : run.iterations) {
        m.beginUs = fit.toRoot(m.beginUs);
        m.endUs = fit.toRoot(m.endUs);
    }
}

Result<std::vector<ClockOffset>> measureClockOffsets(Transport& t, const Clock& clock, int rounds, Deadline deadline)
{
    rounds = std::max(1, rounds);
    if (t.rank() != 0) {
        for (int i = 0; i < rounds; ++i) {
            auto ping = t.receive(0, Tag::Ping, deadline);
            if (!ping)
                return ping.error();
            if (!*ping)
                return runFailed(
                    Message("error.clock.no_ping").with("rank", t.rank()).with("number", i + 1).with("rounds", rounds));
            Bytes8 pong;
            putDouble(pong, clock()); // stamped as soon as the ping is in
            putDouble(pong, getDouble((*ping)->bytes, 0));
            if (Status st = t.send(0, Tag::Pong, std::move(pong)); !st)
                return st.error();
        }
        return std::vector<ClockOffset>{};
    }
    std::vector<ClockOffset> offsets(static_cast<size_t>(t.size()));
    offsets[0].samples = rounds;
    for (int peer = 1; peer < t.size(); ++peer) {
        std::vector<PingSample> samples;
        for (int i = 0; i < rounds; ++i) {
            PingSample s;
            Bytes8 ping;
            putDouble(ping, static_cast<double>(i));
            s.sendUs = clock();
            if (Status st = t.send(peer, Tag::Ping, std::move(ping)); !st)
                return st.error();
            auto pong = t.receive(peer, Tag::Pong, deadline);
            s.receiveUs = clock();
            if (!pong)
                return pong.error();
            if (!*pong)
                return runFailed(Message("error.clock.no_pong").with("number", i + 1).with("peer", peer));
            if (getDouble((*pong)->bytes, 8) != static_cast<double>(i))
                return runFailed(Message("error.clock.out_of_order").with("peer", peer).with("number", i + 1));
            s.remoteUs = getDouble((*pong)->bytes, 0);
            samples.push_back(s);
        }
        auto o = estimateOffset(samples);
        if (!o)
            return Error(o.error().kind,
                         Message("error.line.rank_says").with("rank", peer).with("reason", messageOf(o.error())));
        offsets[static_cast<size_t>(peer)] = *o;
    }
    return offsets;
}

std::string clockNote(const std::vector<ProcessClockFit>& fits, int rounds, const std::string& transport)
{
    return english(clockMessage(fits, rounds, transport));
}

Message clockMessage(const std::vector<ProcessClockFit>& fits, int rounds, const std::string& transport)
{
    double worst = 0, drift = 0;
    int worstRank = 0;
    bool after = false;
    for (size_t r = 0; r < fits.size(); ++r) {
        if (fits[r].errorUs() > worst) {
            worst = fits[r].errorUs();
            worstRank = static_cast<int>(r);
        }
        drift = std::max(drift, std::fabs(fits[r].driftPpm()));
        after = after || fits[r].after.has_value();
    }
    Message m = Message(after ? "live.clock.processes.drift" : "live.clock.processes")
                    .with("processes", static_cast<int>(fits.size()))
                    .with("rounds", rounds)
                    .with("transport", transport)
                    .with("error", number("%.1f", worst))
                    .with("rank", worstRank);
    if (after)
        m.arg("drift", static_cast<int>(std::ceil(drift)));
    return m;
}

ProcessClockFit heldBefore(const ProcessClockFit& fit)
{
    ProcessClockFit held;
    held.before = fit.before;
    return held;
}

double heldErrorUs(const ProcessClockFit& fit)
{
    if (!fit.after)
        return fit.before.errorUs;
    return std::fabs(fit.after->offsetUs - fit.before.offsetUs) + fit.after->errorUs + 2 * fit.before.errorUs;
}

std::string heldClockNote(const std::vector<ProcessClockFit>& fits, int rounds, const std::string& transport)
{
    return english(heldClockMessage(fits, rounds, transport));
}

Message heldClockMessage(const std::vector<ProcessClockFit>& fits, int rounds, const std::string& transport)
{
    double worst = 0, moved = 0;
    int worstRank = 0;
    bool after = false;
    for (size_t r = 0; r < fits.size(); ++r) {
        if (heldErrorUs(fits[r]) > worst) {
            worst = heldErrorUs(fits[r]);
            worstRank = static_cast<int>(r);
        }
        if (fits[r].after) {
            after = true;
            moved = std::max(moved, std::fabs(fits[r].after->offsetUs - fits[r].before.offsetUs));
        }
    }
    Message m = Message(after ? "live.clock.held.moved" : "live.clock.held")
                    .with("processes", static_cast<int>(fits.size()))
                    .with("rounds", rounds)
                    .with("transport", transport)
                    .with("error", number("%.1f", worst))
                    .with("rank", worstRank);
    if (after)
        m.arg("moved", number("%.1f", moved));
    return m;
}

} // namespace shardlab
