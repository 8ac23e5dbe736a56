#include "shardlab/cluster/job_monitor.h"
#include "shardlab/base/message_json.h"

#include "seconds_text.h"
#include "shardlab/text/foreign_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace shardlab {

using nlohmann::json;

Bytes8 encodeHeartbeat(const Heartbeat& b)
{
    return json::to_cbor(json{{"r", b.rank},
                              {"s", static_cast<int>(b.state)},
                              {"p", b.progress},
                              {"c", b.lastCompleted},
                              {"l", messageToJson(b.lastLabel)},
                              {"a", messageToJson(b.activity)},
                              {"h", b.host},
                              {"m", messageToJson(b.why)}});
}

Result<Heartbeat> decodeHeartbeat(const Bytes8& bytes)
{
    try {
        const json d = json::from_cbor(bytes);
        Heartbeat b;
        b.rank = d.at("r").get<int>();
        const int state = d.at("s").get<int>();
        if (state < 0 || state > static_cast<int>(ProcessState::Leaving))
            return runFailed(Message("error.cluster.heartbeat_state").with("state", state));
        b.state = static_cast<ProcessState>(state);
        b.progress = d.at("p").get<long long>();
        b.lastCompleted = d.at("c").get<int>();
        b.lastLabel = messageFromJson(d.at("l"));
        b.activity = messageFromJson(d.at("a"));
        b.host = d.at("h").get<std::string>();
        b.why = messageFromJson(d.at("m"));
        return b;
    } catch (const json::exception& e) {
        return runFailed(Message("error.cluster.heartbeat_unreadable").with("why", parserMessage(e.what())));
    }
}

void RankProgress::collectiveCompleted(int ordinal, Message label)
{
    std::lock_guard lock(m_mutex);
    ++m_progress;
    m_lastCompleted = ordinal;
    m_lastLabel = std::move(label);
}

void RankProgress::iterationCompleted(int)
{
    std::lock_guard lock(m_mutex);
    ++m_progress;
}

void RankProgress::setActivity(Message activity)
{
    std::lock_guard lock(m_mutex);
    m_activity = std::move(activity);
}

void RankProgress::onProgramEnded(std::function<void()> wait)
{
    std::lock_guard lock(m_mutex);
    m_onProgramEnded = std::move(wait);
}

void RankProgress::programEnded()
{
    std::function<void()> wait;
    {
        std::lock_guard lock(m_mutex);
        wait = m_onProgramEnded;
    }
    if (wait)
        wait(); // outside the lock: the heartbeats read this rank's progress meanwhile
}

void RankProgress::fill(Heartbeat& beat) const
{
    std::lock_guard lock(m_mutex);
    beat.progress = m_progress;
    beat.lastCompleted = m_lastCompleted;
    beat.lastLabel = m_lastLabel;
    beat.activity = m_activity;
}

// ---- FailureDetector ----

using detail::secondsText;

FailureDetector::FailureDetector(int self, int size, const MonitorOptions& options, double nowMs)
    : m_self(self), m_size(size), m_options(options), m_watched(static_cast<size_t>(std::max(size, 1)))
{
    for (Watched& w : m_watched)
        w.heardMs = w.progressedMs = nowMs;
}

void FailureDetector::heard(const Heartbeat& beat, double nowMs)
{
    if (beat.rank < 0 || beat.rank >= m_size)
        return;
    Watched& w = m_watched[static_cast<size_t>(beat.rank)];
    if (!w.last || beat.progress != w.last->progress || beat.state != w.last->state)
        w.progressedMs = nowMs;
    w.last = beat;
    w.heardMs = nowMs;
}

void FailureDetector::self(const Heartbeat& beat, double nowMs)
{
    // This process's progress counts in the stall check like any other rank's: rank 0 may be
    // the last one running, still completing collectives, after every other rank has ended.
    heard(beat, nowMs);
}

Message FailureDetector::describeLast(int rank) const
{
    const Watched& w = m_watched[static_cast<size_t>(rank)];
    if (!w.last || w.last->lastCompleted < 0)
        return Message("job.last.none");
    if (w.last->lastLabel.empty())
        return Message("job.last").with("number", w.last->lastCompleted);
    return Message("job.last.labelled").with("number", w.last->lastCompleted).with("label", w.last->lastLabel);
}

Message FailureDetector::table() const
{
    std::vector<Message> ranks;
    for (int r = 0; r < m_size; ++r) {
        const Watched& w = m_watched[static_cast<size_t>(r)];
        ranks.push_back(Message(!w.last                     ? "job.table.unknown"
                                : w.last->lastCompleted < 0 ? "job.table.none"
                                                            : "job.table.number")
                            .with("rank", r)
                            .with("number", w.last ? w.last->lastCompleted : -1));
    }
    return Message("job.table").with("self", m_self).with("ranks", listOf(std::move(ranks)));
}

Message FailureDetector::who(int r) const
{
    const Watched& w = m_watched[static_cast<size_t>(r)];
    if (w.last && !w.last->host.empty())
        return Message("job.who.host").with("rank", r).with("host", w.last->host);
    return Message("job.who").with("rank", r);
}

std::optional<Message> FailureDetector::verdict(double nowMs) const
{
    std::vector<int> watched;
    for (int r = 0; r < m_size; ++r)
        if (r != m_self && (m_self == 0 || r == 0))
            watched.push_back(r);
    for (int r : watched) {
        const Watched& w = m_watched[static_cast<size_t>(r)];
        if (w.last && w.last->state == ProcessState::Leaving)
            continue;
        if (nowMs - w.heardMs > m_options.silenceMs) {
            Message what = Message("job.silent")
                               .with("who", who(r))
                               .with("seconds", secondsText(nowMs - w.heardMs))
                               .with("last", describeLast(r));
            if (w.last && !w.last->activity.empty()) // what it was doing
                what = Message("job.silent.doing").with("silent", std::move(what)).with("activity", w.last->activity);
            return Message("job.verdict").with("what", std::move(what)).with("table", table());
        }
    }
    for (int r : watched) {
        const Watched& w = m_watched[static_cast<size_t>(r)];
        if (w.last && w.last->state == ProcessState::Failed)
            return Message("job.verdict")
                .with("what",
                      Message("job.failed").with("who", who(r)).with("why", w.last->why).with("last", describeLast(r)))
                .with("table", table());
    }
    if (m_self != 0 || m_options.stallMs <= 0)
        return std::nullopt;
    // Hung: every running rank has made no progress for stallMs. Name the one furthest behind.
    int behind = -1;
    double quiet = 1e300;
    for (int r = 0; r < m_size; ++r) {
        const Watched& w = m_watched[static_cast<size_t>(r)];
        if (!w.last || w.last->state != ProcessState::Running)
            continue;
        quiet = std::min(quiet, nowMs - w.progressedMs);
        if (behind < 0 || w.last->lastCompleted < m_watched[static_cast<size_t>(behind)].last->lastCompleted)
            behind = r;
    }
    if (behind < 0 || quiet <= m_options.stallMs)
        return std::nullopt;
    const Watched& w = m_watched[static_cast<size_t>(behind)];
    Message what = Message("job.hung")
                       .with("who", who(behind))
                       .with("seconds", secondsText(quiet))
                       .with("rank", behind)
                       .with("last", describeLast(behind));
    if (!w.last->activity.empty())
        what = Message("job.hung.doing").with("hung", std::move(what)).with("activity", w.last->activity);
    return Message("job.verdict").with("what", std::move(what)).with("table", table());
}

// ---- JobMonitor ----

JobMonitor::JobMonitor(Transport& transport, RankProgress& progress, std::string host, const MonitorOptions& options,
                       std::function<void(const Message&)> onFailure, Clock clockMs)
    : m_transport(transport), m_progress(progress), m_host(std::move(host)), m_options(options),
      m_onFailure(std::move(onFailure)), m_clock(std::move(clockMs))
{
    if (!m_clock)
        m_clock = [] {
            return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
                .count();
        };
    m_heard.assign(static_cast<size_t>(std::max(m_transport.size(), 1)), std::nullopt);
    m_thread = std::thread([this] { loop(); });
}

JobMonitor::~JobMonitor() { stop(); }

void JobMonitor::setState(ProcessState state, Message why)
{
    std::lock_guard lock(m_mutex);
    m_state = state;
    m_why = std::move(why);
}

bool JobMonitor::endTogether(double timeoutMs)
{
    const int self = m_transport.rank();
    const int size = m_transport.size();
    const auto ended = [&](int r) { // under m_mutex
        const auto& s = m_heard[static_cast<size_t>(r)];
        return s && *s != ProcessState::Starting && *s != ProcessState::Running;
    };
    const auto together = [&] {
        if (self != 0)
            return ended(0);
        for (int r = 1; r < size; ++r)
            if (!ended(r))
                return false;
        return true;
    };
    if (self != 0)
        setState(ProcessState::Finishing);
    bool all = false;
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait_for(lock, std::chrono::duration<double, std::milli>(timeoutMs),
                           [&] { return together() || m_over; });
        all = together();
    }
    if (self == 0)
        setState(ProcessState::Finishing); // its next beat lets the others go on
    return all;
}

Heartbeat JobMonitor::beat() const
{
    Heartbeat b;
    b.rank = m_transport.rank();
    b.host = m_host;
    m_progress.fill(b);
    std::lock_guard lock(m_mutex);
    b.state = m_state;
    b.why = m_why;
    return b;
}

void JobMonitor::loop()
{
    const int self = m_transport.rank();
    const int size = m_transport.size();
    FailureDetector detector(self, size, m_options, m_clock());
    struct Over { // however the watch ends, endTogether() stops waiting
        JobMonitor& m;
        ~Over()
        {
            {
                std::lock_guard lock(m.m_mutex);
                m.m_over = true;
            }
            m.m_changed.notify_all();
        }
    } over{*this};
    auto sendBeat = [&](const Heartbeat& b) {
        const Bytes8 bytes = encodeHeartbeat(b);
        for (int r = 0; r < size; ++r)
            if (r != self && (self == 0 || r == 0))
                (void)m_transport.send(r, Tag::Beat, bytes); // a lost beat is what the watcher detects
    };
    while (!m_stop.load()) {
        const Heartbeat mine = beat();
        detector.self(mine, m_clock());
        sendBeat(mine);
        const Deadline next = deadlineIn(m_options.beatIntervalMs);
        while (!m_stop.load()) {
            auto m = m_transport.receive(kAnyPeer, Tag::Beat, std::min(next, deadlineIn(20)));
            if (!m)
                return; // the job is over (aborted) or the transport failed: nothing left to watch
            if (*m) {
                if (auto b = decodeHeartbeat((*m)->bytes)) {
                    detector.heard(*b, m_clock());
                    if (b->rank >= 0 && b->rank < size) {
                        {
                            std::lock_guard lock(m_mutex);
                            m_heard[static_cast<size_t>(b->rank)] = b->state;
                        }
                        m_changed.notify_all();
                    }
                }
            } else if (std::chrono::steady_clock::now() >= next) {
                break;
            }
        }
        if (auto failure = detector.verdict(m_clock()); failure && !m_stop.load()) {
            m_failed = true;
            if (m_onFailure)
                m_onFailure(*failure);
            return;
        }
        ++m_cycles;
    }
    // Say goodbye so that the watchers do not take this process's exit for a death.
    Heartbeat bye = beat();
    bye.state = ProcessState::Leaving;
    sendBeat(bye);
}

void JobMonitor::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace shardlab
