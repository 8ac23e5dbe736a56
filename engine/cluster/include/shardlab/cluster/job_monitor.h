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
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace shardlab {

// Finishing: its program has ended (or hung and was aborted), its communicator still open until
// every rank's program has ended too (JobMonitor::endTogether).
enum class ProcessState { Starting, Running, Finishing, Done, Failed, Leaving };

struct Heartbeat {
    int rank = 0;
    ProcessState state = ProcessState::Starting;
    long long progress = 0; // grows with every completed collective or iteration
    int lastCompleted = -1; // ordinal of the rank's last completed collective (-1: none)
    Message lastLabel;      // what that was: "all_reduce 'grads' (step 3, iteration 2)"
    Message activity;       // what it is doing now: "in all_reduce 'grads' (step 3, iteration 3)"
    std::string host;
    Message why; // Failed: why, to be worded in the reader's language
    bool operator==(const Heartbeat&) const = default;
};
Bytes8 encodeHeartbeat(const Heartbeat& beat);
Result<Heartbeat> decodeHeartbeat(const Bytes8& bytes);

// Shared between the live executor (which reports) and the monitor (which reads). Thread-safe.
class RankProgress {
public:
    // Collective number `ordinal` (counted over all of this rank's collectives, from 0) completed.
    void collectiveCompleted(int ordinal, Message label);
    void iterationCompleted(int iteration);
    void setActivity(Message activity);
    // Fills rank-independent fields of a heartbeat.
    void fill(Heartbeat& beat) const;
    // The rank's program has ended (or hung and was aborted); its NCCL communicator is still open.
    // Called by the executor before it destroys that communicator, and returns once the job says
    // every rank's program has ended too (JobMonitor::endTogether): a process that leaves first
    // would make NCCL over sockets fail a peer still inside a collective at once ("remote process
    // exited"), hiding the hang that the peer's watchdog is about to explain. Without a job (a
    // one-process run, a test) it returns at once.
    void programEnded();
    void onProgramEnded(std::function<void()> wait);

private:
    mutable std::mutex m_mutex;
    std::function<void()> m_onProgramEnded;
    long long m_progress = 0;
    int m_lastCompleted = -1;
    Message m_lastLabel, m_activity;
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
    // Records this process's own state and progress (for the table of every rank in messages,
    // and for the stall check, where rank 0 is a running rank too).
    void self(const Heartbeat& beat, double nowMs);
    // The failure to report, if any: a message naming the rank, what happened and its last
    // completed collective, followed by every rank's last completed collective as known here.
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

    void setState(ProcessState state, Message why = {});
    // This rank's program has ended: returns once every rank's has, as far as the beats tell, or
    // after timeoutMs, or when the job failed; true if every rank's has. Rank r != 0 says
    // Finishing and waits for rank 0 to say it; rank 0 waits for every other rank to say
    // Finishing (or Done, Failed, Leaving), then says it. So no rank goes on before all have ended.
    bool endTogether(double timeoutMs);
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
    Message m_why;
    std::vector<std::optional<ProcessState>> m_heard; // by rank: the state its last beat said
    bool m_over = false;                              // the watch ended (failure, transport gone, stop)
    std::condition_variable m_changed;                // m_heard or m_over changed
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_failed{false};
    std::atomic<long long> m_cycles{0};
    std::thread m_thread;
};

} // namespace shardlab
