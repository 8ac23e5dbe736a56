// The Transport over MPI (transport.h), built as the module libshardlab_mpi.so and loaded by
// openMpiTransport(). Messages use nonblocking sends and probed receives on a duplicate of
// MPI_COMM_WORLD, and no call blocks without a deadline: a dead or hung process becomes a timeout
// that names it. One mutex serialises MPI calls, so MPI_THREAD_SERIALIZED suffices (the heartbeat
// thread and the main thread share the transport).
#include "../src/mpi_module.h"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace shardlab {
namespace {

std::string mpiError(int code)
{
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    MPI_Error_string(code, text, &len);
    return std::string(text, static_cast<size_t>(len));
}

class MpiTransport final : public Transport {
public:
    explicit MpiTransport(int threadLevel) : m_threadLevel(threadLevel)
    {
        MPI_Comm_dup(MPI_COMM_WORLD, &m_comm);
        MPI_Comm_set_errhandler(m_comm, MPI_ERRORS_RETURN);
        MPI_Comm_rank(m_comm, &m_rank);
        MPI_Comm_size(m_comm, &m_size);
        MPI_Comm local;
        MPI_Comm_split_type(m_comm, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &local);
        MPI_Comm_rank(local, &m_localRank);
        MPI_Comm_size(local, &m_localSize);
        MPI_Comm_free(&local);
        char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
        int len = 0;
        MPI_Get_library_version(version, &len);
        m_describe = std::string(version, static_cast<size_t>(len));
        // "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4"
        m_describe = m_describe.substr(0, m_describe.find_first_of(",\n"));
    }

    ~MpiTransport() override
    {
        if (m_aborted)
            return;
        (void)flush(std::chrono::steady_clock::now() + std::chrono::seconds(10));
        std::lock_guard lock(m_mutex);
        MPI_Comm_free(&m_comm);
        MPI_Finalize();
    }

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    int localRank() const override { return m_localRank; }
    int localSize() const override { return m_localSize; }
    std::string describe() const override { return m_describe; }

    Status send(int peer, Tag tag, Bytes8 bytes) override
    {
        if (bytes.size() > static_cast<size_t>(INT_MAX))
            return runFailed(Message("error.mpi.too_large")
                                 .with("rank", m_rank)
                                 .with("bytes", std::to_string(bytes.size()))
                                 .with("max", "2 GiB"));
        std::lock_guard lock(m_mutex);
        progressSends();
        auto buffer = std::make_unique<Bytes8>(std::move(bytes));
        MPI_Request request;
        const int rc = MPI_Isend(buffer->data(), static_cast<int>(buffer->size()), MPI_BYTE, peer,
                                 static_cast<int>(tag), m_comm, &request);
        if (rc != MPI_SUCCESS)
            return runFailed(
                Message("error.mpi.send_failed").with("rank", m_rank).with("peer", peer).with("why", mpiError(rc)));
        m_pending.push_back({request, std::move(buffer)});
        return {};
    }

    Result<std::optional<TransportMessage>> receive(int peer, Tag tag, Deadline deadline) override
    {
        const auto start = std::chrono::steady_clock::now();
        for (;;) {
            {
                std::lock_guard lock(m_mutex);
                progressSends();
                int flag = 0;
                MPI_Status status;
                int rc =
                    MPI_Iprobe(peer == kAnyPeer ? MPI_ANY_SOURCE : peer, static_cast<int>(tag), m_comm, &flag, &status);
                if (rc != MPI_SUCCESS)
                    return runFailed(Message("error.mpi.poll_failed").with("rank", m_rank).with("why", mpiError(rc)));
                if (flag) {
                    int count = 0;
                    MPI_Get_count(&status, MPI_BYTE, &count);
                    TransportMessage m;
                    m.from = status.MPI_SOURCE;
                    m.tag = tag;
                    m.bytes.resize(static_cast<size_t>(count));
                    // The message is there (probed under the same lock), so this returns.
                    rc = MPI_Recv(m.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, static_cast<int>(tag), m_comm,
                                  MPI_STATUS_IGNORE);
                    if (rc != MPI_SUCCESS)
                        return runFailed(Message("error.mpi.receive_failed")
                                             .with("rank", m_rank)
                                             .with("peer", status.MPI_SOURCE)
                                             .with("why", mpiError(rc)));
                    return std::optional<TransportMessage>(std::move(m));
                }
            }
            const auto now = std::chrono::steady_clock::now();
            if (now >= deadline)
                return std::optional<TransportMessage>();
            // Clock exchanges spin briefly (their round trip is the clock error); everything else,
            // the heartbeat thread above all, polls gently so as not to take a core from the run.
            const bool clockExchange = tag == Tag::Ping || tag == Tag::Pong;
            if (clockExchange && now - start < std::chrono::milliseconds(2))
                std::this_thread::yield();
            else
                std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }

    Status flush(Deadline deadline) override
    {
        for (;;) {
            {
                std::lock_guard lock(m_mutex);
                progressSends();
                if (m_pending.empty())
                    return {};
            }
            if (std::chrono::steady_clock::now() >= deadline)
                return runFailed(Message("error.mpi.undelivered").with("rank", m_rank));
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }

    void abort(int exitStatus) override
    {
        // Under MPI_THREAD_SERIALIZED no other MPI call may run at the same time; but a thread
        // stuck in MPI (receiving from a process that died mid-message) must not keep the job
        // alive, so after a while abort regardless.
        std::unique_lock lock(m_mutex, std::defer_lock);
        if (m_threadLevel < MPI_THREAD_MULTIPLE)
            (void)lock.try_lock_for(std::chrono::seconds(2));
        m_aborted = true;
        std::fflush(stdout);
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, exitStatus);
    }

private:
    // Completes finished sends and frees their buffers. Called with m_mutex held.
    void progressSends()
    {
        for (size_t i = 0; i < m_pending.size();) {
            int done = 0;
            MPI_Test(&m_pending[i].request, &done, MPI_STATUS_IGNORE);
            if (done) {
                m_pending[i] = std::move(m_pending.back());
                m_pending.pop_back();
            } else {
                ++i;
            }
        }
    }

    struct Pending {
        MPI_Request request;
        std::unique_ptr<Bytes8> buffer;
    };
    MPI_Comm m_comm = MPI_COMM_NULL;
    int m_rank = 0, m_size = 1, m_localRank = 0, m_localSize = 1;
    std::string m_describe;
    int m_threadLevel = MPI_THREAD_SERIALIZED;
    std::timed_mutex m_mutex;
    std::vector<Pending> m_pending;
    bool m_aborted = false;
};

} // namespace
} // namespace shardlab

extern "C" {

__attribute__((visibility("default"))) int shardlab_mpi_abi() { return shardlab::detail::kMpiModuleAbi; }

__attribute__((visibility("default"))) shardlab::Transport* shardlab_mpi_open(char* error, std::size_t errorSize)
{
    int initialized = 0;
    int provided = 0;
    MPI_Initialized(&initialized);
    if (initialized) {
        MPI_Query_thread(&provided);
    } else {
        if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
            std::snprintf(error, errorSize, "MPI_Init_thread failed");
            return nullptr;
        }
    }
    if (provided < MPI_THREAD_SERIALIZED) {
        std::snprintf(error, errorSize,
                      "this MPI library offers no thread support (MPI_THREAD_SERIALIZED at least is needed for the "
                      "heartbeat thread)");
        if (!initialized)
            MPI_Finalize();
        return nullptr;
    }
    return new shardlab::MpiTransport(provided);
}
}
