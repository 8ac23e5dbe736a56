// The plugin's recorder: what NCCL tells it, kept in fixed-size per-thread buffers and written as
// JSON lines (docs/profiling.md, "Record files") to <SHARDLAB_PROFILE_RECORDS_DIR>/<host>-<pid>.nccl-profile.jsonl.
//
// The hot path (record()) takes no lock and allocates nothing: a thread writes into its own
// buffer (allocated once, on the thread's first event) and publishes the record with a release
// store of the buffer's count. A full buffer is written out by its own thread; so is a buffer
// whose oldest unwritten record is older than the flush interval (SHARDLAB_PROFILE_FLUSH_MS,
// default 200 ms; `off` never), checked on the hot path by one compare of the record's own time
// stamp with a thread-owned field, so that `shardlab profile --live` sees a running program's
// records while it runs. Finalize, process exit and flush() write every thread's unwritten
// records under the file's lock (a reader that only reads records below the published count
// never races the writer). If anything fails (no
// folder, a file that cannot be opened or written, no memory for a buffer) the recorder turns
// itself off and says why once on standard error; NCCL and the program go on unaffected.
#pragma once

#include <atomic>
#include <cstdint>

namespace shardlab::profplugin {

enum class Kind : std::uint8_t { Comm, Coll, P2p, Stop, KernelCh, KernelChStop, Group, Fin };

// One event as the hot path stores it (fixed size; strings truncated).
struct Record {
    Kind kind = Kind::Coll;
    std::uint8_t nChannels = 0;
    std::uint8_t nWarps = 0;
    std::int64_t ctx = 0;     // the communicator context (Comm, Coll, P2p, Fin)
    std::int32_t a = -1;      // Comm: rank; Coll: root; P2p: peer; KernelCh: channel; Coll (v3): rank
    std::int32_t b = -1;      // Comm: nranks
    std::int32_t c = -1;      // Comm: nodes
    std::uint64_t id = 0;     // the event's id (Coll, P2p, KernelCh, Group; Stop/KernelChStop: whose)
    std::uint64_t parent = 0; // KernelCh: its collective or p2p; Coll, P2p: its group (0: none)
    std::uint64_t seq = 0;    // Coll: sequence number in the communicator
    std::uint64_t count = 0;  // Coll, P2p: elements
    std::uint64_t hash = 0;   // Comm (and v3 Coll): communicator hash
    std::uint64_t hostNs = 0; // CLOCK_MONOTONIC when the plugin was called
    std::uint64_t gpuNs = 0;  // KernelCh, KernelChStop: GPU globaltimer; Comm, Fin: CLOCK_REALTIME
    char func[16] = {};
    char dtype[16] = {};
    char algo[16] = {};
    char proto[8] = {};
    char name[32] = {}; // Comm: the communicator's name
};

inline constexpr int kRecordsPerThread = 8192; // ~1.3 MB per thread that calls the plugin
inline constexpr int kMaxThreads = 1024;
// A thread's records reach the file at most this long after the first of them (unless it makes no
// further call: then at finalize or exit). SHARDLAB_PROFILE_FLUSH_MS overrides it.
inline constexpr std::uint64_t kDefaultFlushAfterNs = 200'000'000;
inline constexpr const char* kFlushVariable = "SHARDLAB_PROFILE_FLUSH_MS";

// CLOCK_MONOTONIC in ns (the clock every host time in the file is on).
std::uint64_t monotonicNs();
std::uint64_t realtimeNs();

// Copies at most N-1 characters and a terminating 0 (null -> "").
template <int N>
void copyText(char (&to)[N], const char* from)
{
    int i = 0;
    if (from)
        for (; i < N - 1 && from[i]; ++i)
            to[i] = from[i];
    to[i] = 0;
}

class Recorder {
public:
    static Recorder& instance();
    // False (and why, once, on stderr) when recording is off.
    bool start();
    bool enabled() const { return m_enabled.load(std::memory_order_relaxed); }
    std::uint64_t nextId() { return m_nextId.fetch_add(1, std::memory_order_relaxed); }
    std::int64_t nextContext() { return m_nextCtx.fetch_add(1, std::memory_order_relaxed); }
    // The hot path: copy into this thread's buffer.
    void record(const Record& r);
    // Writes every thread's unwritten records to the file (finalize, exit).
    void flush();
    // Turns recording off and says why on stderr, the first time only.
    void disable(const char* why, const char* detail = nullptr);
    std::uint64_t dropped() const { return m_dropped.load(std::memory_order_relaxed); }
    // Communicators' contexts alive (init .. finalize).
    void contextOpened() { m_contexts.fetch_add(1, std::memory_order_relaxed); }
    void contextClosed() { m_contexts.fetch_sub(1, std::memory_order_relaxed); }
    // When the library is unloaded (NCCL closes it once its last communicator is gone) or the
    // process exits with no communicator left: the records written out, the file closed, the
    // buffers and the recorder freed. With a communicator still alive (a process exiting without
    // destroying it, whose threads may still call in) the recorder is kept, as before.
    static void releaseIfIdle();

private:
    struct ThreadBuffer;
    ThreadBuffer* bufferOfThisThread();
    void writeOut(ThreadBuffer& b); // holds m_fileLock
    void writeOwn(ThreadBuffer& b); // takes m_fileLock
    bool openFile();

    std::atomic<bool> m_enabled{false};
    std::atomic<bool> m_started{false};
    std::atomic<std::uint64_t> m_nextId{1};
    std::atomic<std::int64_t> m_nextCtx{0};
    std::atomic<std::uint64_t> m_dropped{0};
    std::atomic<int> m_threads{0};
    std::atomic<int> m_contexts{0};
    std::atomic<ThreadBuffer*> m_buffers[kMaxThreads] = {};
    std::atomic<bool> m_said{false};
    std::atomic<std::uint64_t> m_flushAfterNs{kDefaultFlushAfterNs}; // UINT64_MAX: only when full
    int m_fd = -1;
    char m_path[4096] = {};
};

} // namespace shardlab::profplugin
