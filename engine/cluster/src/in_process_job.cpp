#include "shardlab/cluster/in_process_job.h"

#include <algorithm>

namespace shardlab {

class InProcessTransport final : public Transport {
public:
    InProcessTransport(InProcessJob& job, int rank) : m_job(job), m_rank(rank) {}

    int rank() const override { return m_rank; }
    int size() const override { return m_job.m_size; }
    int localRank() const override { return m_job.m_ranksPerHost > 0 ? m_rank % m_job.m_ranksPerHost : m_rank; }
    int localSize() const override
    {
        if (m_job.m_ranksPerHost <= 0)
            return m_job.m_size;
        const int host = m_rank / m_job.m_ranksPerHost;
        return std::min(m_job.m_ranksPerHost, m_job.m_size - host * m_job.m_ranksPerHost);
    }
    std::string describe() const override { return "in-process (" + std::to_string(m_job.m_size) + " threads)"; }

    Status send(int peer, Tag tag, Bytes8 bytes) override
    {
        std::lock_guard lock(m_job.m_mutex);
        if (peer < 0 || peer >= m_job.m_size)
            return runFailed(Message("error.cluster.sent_outside").with("rank", m_rank).with("peer", peer));
        if (m_job.m_aborted)
            return abortedError();
        if (m_job.m_dead[static_cast<size_t>(m_rank)] || m_job.m_dead[static_cast<size_t>(peer)])
            return {}; // lost, as with a dead process
        m_job.m_boxes[static_cast<size_t>(peer)].push_back({m_rank, tag, std::move(bytes)});
        m_job.m_cv.notify_all();
        return {};
    }

    Result<std::optional<TransportMessage>> receive(int peer, Tag tag, Deadline deadline) override
    {
        std::unique_lock lock(m_job.m_mutex);
        auto& box = m_job.m_boxes[static_cast<size_t>(m_rank)];
        for (;;) {
            if (m_job.m_aborted)
                return abortedError();
            if (m_job.m_dead[static_cast<size_t>(m_rank)])
                return runFailed(Message("error.cluster.was_killed").with("rank", m_rank));
            for (auto it = box.begin(); it != box.end(); ++it)
                if (it->tag == tag && (peer == kAnyPeer || it->from == peer)) {
                    TransportMessage m = std::move(*it);
                    box.erase(it);
                    return std::optional<TransportMessage>(std::move(m));
                }
            if (m_job.m_cv.wait_until(lock, deadline) == std::cv_status::timeout
                && std::chrono::steady_clock::now() >= deadline)
                return std::optional<TransportMessage>();
        }
    }

    Status flush(Deadline) override { return {}; }

    void abort(int exitStatus) override
    {
        std::lock_guard lock(m_job.m_mutex);
        if (!m_job.m_aborted && !m_job.m_dead[static_cast<size_t>(m_rank)]) // the dead abort nothing
            m_job.m_aborted = std::make_pair(m_rank, exitStatus);
        m_job.m_cv.notify_all();
    }

private:
    Error abortedError() const
    {
        return runFailed(Message("error.cluster.aborted_by")
                             .with("rank", m_job.m_aborted->first)
                             .with("status", m_job.m_aborted->second));
    }

    InProcessJob& m_job;
    int m_rank;
};

InProcessJob::InProcessJob(int size, int ranksPerHost)
    : m_size(std::max(1, size)), m_ranksPerHost(ranksPerHost), m_boxes(static_cast<size_t>(m_size)),
      m_dead(static_cast<size_t>(m_size), false)
{
    for (int r = 0; r < m_size; ++r)
        m_transports.push_back(std::make_unique<InProcessTransport>(*this, r));
}

InProcessJob::~InProcessJob() = default;

Transport& InProcessJob::transport(int rank) { return *m_transports.at(static_cast<size_t>(rank)); }

void InProcessJob::kill(int rank)
{
    std::lock_guard lock(m_mutex);
    m_dead.at(static_cast<size_t>(rank)) = true;
    m_boxes[static_cast<size_t>(rank)].clear();
    m_cv.notify_all();
}

std::optional<std::pair<int, int>> InProcessJob::aborted() const
{
    std::lock_guard lock(m_mutex);
    return m_aborted;
}

} // namespace shardlab
