// Failure behaviour of a multi-process run: heartbeats on a thread of their own, so that a rank
// that dies or hangs makes the others abort within the deadline, with a message naming the rank
// and its last completed collective, instead of leaving the job hanging (docs/mpi.md, "When a
// rank dies or hangs").
//
// Every rank sends rank 0 a heartbeat (its state and last completed collective) every
// beatInterval; rank 0 sends its own to every rank. Rank 0 watches every rank, the others watch
// rank 0. A watched rank that is silent for `silenceMs` has died or is stopped; one whose
// progress has not moved for `stallMs` while it should be running has hung; one that reports a
// failure has failed. The watcher that sees it first reports it once (onFailure: print, abort).
#pragma once

#include "shardlab/text/message.h"
#include "shardlab/cluster/transport.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace shardlab {

enum class ProcessState { Starting, Running, Done, Failed, Leaving };

struct Heartbeat {
    int rank = 0;
    ProcessState state = ProcessState::Starting;
    long long progress = 0; // grows with every completed collective or iteration
    int lastCompleted = -1; // ordinal of the rank's last completed collective (-1: none)
    std::string lastLabel;  // what that was: "all_reduce 'grads' (step 3, iteration 2)"
    std::string activity;   // what it is doing now: "in all_reduce 'grads' (step 3, iteration 3)"
    std::string host;
    std::string message; // Failed: why
    bool operator==(const Heartbeat&) const = default;
};
Bytes8 encodeHeartbeat(const Heartbeat& beat);
Result<Heartbeat> decodeHeartbeat(const Bytes8& bytes);

// Shared between the live executor (which reports) and the monitor (which reads). Thread-safe.
class RankProgress {
public:
    // Collective number `ordinal` (counted over all of this rank's collectives, from 0) completed.
    void collectiveCompleted(int ordinal, std::string label);
    void iterationCompleted(int iteration);
    void setActivity(std::string activity);
    // Fills rank-independent fields of a heartbeat.
    void fill(Heartbeat& beat) const;

private:
    mutable std::mutex m_mutex;
    long long m_progress = 0;
    int m_lastCompleted = -1;
    std::string m_lastLabel, m_activity;
};

struct MonitorOptions {
    double beatIntervalMs = 100;
    // mpirun ends the job about two seconds after a process dies: report before it does.
    double silenceMs = 1000;
    // No progress for this long while running: hung (0: do not check). The live executor's own
    // watchdog (LiveOptions::watchdogMs) normally fires first; this is the backstop.
    double stallMs = 0;
};

// The pure part of watching: what the beats heard so far mean at time `nowMs`. Rank 0 watches
// every other rank; the others watch rank 0.
class FailureDetector {
public:
    FailureDetector(int self, int size, const MonitorOptions& options, double nowMs);
    void heard(const Heartbeat& beat, double nowMs);
    // Records this process's own state (for the table of every rank in messages).
    void self(const Heartbeat& beat);
    // The failure to report, if any: a message naming the rank, what happened and its last
    // completed collective, followed by every rank's last completed collective as known here.
    // In English; verdict() is the same as a Message (live.inc), to be worded in the user's language.
    std::optional<std::string> check(double nowMs) const;
    std::optional<Message> verdict(double nowMs) const;

private:
    struct Watched {
        std::optional<Heartbeat> last;
        double heardMs = 0;
        double progressedMs = 0;
    };
    Message describeLast(int rank) const;
    Message table() const;
    Message who(int rank) const;

    int m_self, m_size;
    MonitorOptions m_options;
    std::vector<Watched> m_watched; // by rank
};

// The thread: sends this rank's beats, listens, and calls onFailure(message) once if a watched
// rank fails. Stop it before the process says goodbye (stop() sends a Leaving beat so that the
// watchers do not take the exit for a death).
class JobMonitor {
public:
    using Clock = std::function<double()>; // milliseconds
    JobMonitor(Transport& transport, RankProgress& progress, std::string host, const MonitorOptions& options,
               std::function<void(const Message&)> onFailure, Clock clockMs = {});
    ~JobMonitor();
    JobMonitor(const JobMonitor&) = delete;
    JobMonitor& operator=(const JobMonitor&) = delete;

    void setState(ProcessState state, std::string message = {});
    void stop();
    bool failed() const { return m_failed.load(); }
    // Watch cycles completed: each sends this rank's beat, takes in what arrived and ends with a
    // verdict at the clock's time. A cycle that starts after a beat was sent to this rank has
    // heard it by its end, so tests with their own clock wait on this instead of sleeping.
    long long cycles() const { return m_cycles.load(); }

private:
    void loop();
    Heartbeat beat() const;

    Transport& m_transport;
    RankProgress& m_progress;
    std::string m_host;
    MonitorOptions m_options;
    std::function<void(const Message&)> m_onFailure;
    Clock m_clock;
    mutable std::mutex m_mutex;
    ProcessState m_state = ProcessState::Starting;
    std::string m_message;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_failed{false};
    std::atomic<long long> m_cycles{0};
    std::thread m_thread;
};

} // namespace shardlab
