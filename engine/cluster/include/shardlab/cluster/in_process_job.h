// An in-process job: the Transport of a multi-process run with one thread per rank, talking
// through mailboxes. Tests use it to run every step of a multi-process run without mpirun,
// including ranks that die (kill) and a job that is aborted.
#pragma once

#include "shardlab/cluster/transport.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>

namespace shardlab {

// An in-process job: `size` ranks, each with its own Transport, talking through mailboxes. For
// tests and for running the multi-process logic inside one process. Ranks are numbered 0..size-1;
// `ranksPerHost` > 0 puts them on pretend hosts of that many ranks.
class InProcessJob {
public:
    explicit InProcessJob(int size, int ranksPerHost = 0);
    ~InProcessJob();
    InProcessJob(const InProcessJob&) = delete;
    InProcessJob& operator=(const InProcessJob&) = delete;

    Transport& transport(int rank);
    int size() const { return m_size; }
    // The rank stops as if its process died: what it sends is lost, what is sent to it is dropped,
    // and its own receives fail.
    void kill(int rank);
    // Set once some rank called abort(): (rank that aborted, exit status).
    std::optional<std::pair<int, int>> aborted() const;

private:
    friend class InProcessTransport;
    int m_size;
    int m_ranksPerHost;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::vector<std::deque<TransportMessage>> m_boxes; // per destination rank
    std::vector<bool> m_dead;
    std::optional<std::pair<int, int>> m_aborted;
    std::vector<std::unique_ptr<Transport>> m_transports;
};

} // namespace shardlab
