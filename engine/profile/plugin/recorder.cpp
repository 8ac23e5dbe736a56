#include "recorder.h"

#include "shardlab/profile/profile_format.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <mutex>
#include <new>
#include <unistd.h>

namespace shardlab::profplugin {

namespace {

std::mutex g_fileLock; // the file and every buffer's `written` index

// What a flush formats into before one write(2).
constexpr size_t kChunk = 1 << 16;

// A JSON string's contents (NCCL's names are plain identifiers; anything else is escaped).
size_t appendEscaped(char* out, size_t cap, const char* s)
{
    size_t n = 0;
    for (; *s && n + 7 < cap; ++s) {
        const unsigned char ch = static_cast<unsigned char>(*s);
        if (ch == '"' || ch == '\\') {
            out[n++] = '\\';
            out[n++] = static_cast<char>(ch);
        } else if (ch < 0x20) {
            n += static_cast<size_t>(std::snprintf(out + n, cap - n, "\\u%04x", ch));
        } else {
            out[n++] = static_cast<char>(ch);
        }
    }
    out[n] = 0;
    return n;
}

// One record as one line of the file (docs/profiling.md lists the fields).
int formatRecord(char* out, size_t cap, const Record& r)
{
    char func[64], dtype[64], algo[64], proto[32], name[160];
    appendEscaped(func, sizeof func, r.func);
    appendEscaped(dtype, sizeof dtype, r.dtype);
    appendEscaped(algo, sizeof algo, r.algo);
    appendEscaped(proto, sizeof proto, r.proto);
    appendEscaped(name, sizeof name, r.name);
    switch (r.kind) {
    case Kind::Comm:
        return std::snprintf(out, cap,
                             "{\"k\":\"comm\",\"ctx\":%" PRId64 ",\"hash\":\"%016" PRIx64
                             "\",\"rank\":%d,\"nranks\":%d,\"nodes\":%d,"
                             "\"name\":\"%s\",\"t\":%" PRIu64 ",\"real\":%" PRIu64 "}\n",
                             r.ctx, r.hash, r.a, r.b, r.c, name, r.hostNs, r.gpuNs);
    case Kind::Coll:
        if (r.hash) // v3: the descriptor names the communicator
            return std::snprintf(
                out, cap,
                "{\"k\":\"coll\",\"id\":%" PRIu64 ",\"ctx\":%" PRId64 ",\"hash\":\"%016" PRIx64 "\",\"rank\":%d,"
                "\"seq\":%" PRIu64 ",\"func\":\"%s\",\"count\":%" PRIu64 ",\"dtype\":\"%s\",\"root\":%d,"
                "\"algo\":\"%s\",\"proto\":\"%s\",\"nch\":%u,\"group\":%" PRIu64 ",\"t\":%" PRIu64 "}\n",
                r.id, r.ctx, r.hash, r.c, r.seq, func, r.count, dtype, r.a, algo, proto, r.nChannels, r.parent,
                r.hostNs);
        return std::snprintf(
            out, cap,
            "{\"k\":\"coll\",\"id\":%" PRIu64 ",\"ctx\":%" PRId64 ",\"seq\":%" PRIu64
            ",\"func\":\"%s\",\"count\":%" PRIu64
            ",\"dtype\":\"%s\",\"root\":%d,\"algo\":\"%s\",\"proto\":\"%s\",\"nch\":%u,\"group\":%" PRIu64
            ",\"t\":%" PRIu64 "}\n",
            r.id, r.ctx, r.seq, func, r.count, dtype, r.a, algo, proto, r.nChannels, r.parent, r.hostNs);
    case Kind::P2p:
        return std::snprintf(out, cap,
                             "{\"k\":\"p2p\",\"id\":%" PRIu64 ",\"ctx\":%" PRId64 ",\"func\":\"%s\",\"count\":%" PRIu64
                             ",\"dtype\":\"%s\",\"peer\":%d,\"nch\":%u,\"group\":%" PRIu64 ",\"t\":%" PRIu64 "}\n",
                             r.id, r.ctx, func, r.count, dtype, r.a, r.nChannels, r.parent, r.hostNs);
    case Kind::Stop:
        return std::snprintf(out, cap, "{\"k\":\"stop\",\"id\":%" PRIu64 ",\"t\":%" PRIu64 "}\n", r.id, r.hostNs);
    case Kind::KernelCh:
        return std::snprintf(out, cap,
                             "{\"k\":\"kch\",\"id\":%" PRIu64 ",\"op\":%" PRIu64 ",\"ch\":%d,\"gpu\":%" PRIu64
                             ",\"t\":%" PRIu64 "}\n",
                             r.id, r.parent, r.a, r.gpuNs, r.hostNs);
    case Kind::KernelChStop:
        return std::snprintf(out, cap, "{\"k\":\"kchstop\",\"id\":%" PRIu64 ",\"gpu\":%" PRIu64 ",\"t\":%" PRIu64 "}\n",
                             r.id, r.gpuNs, r.hostNs);
    case Kind::Group:
        return std::snprintf(out, cap, "{\"k\":\"group\",\"id\":%" PRIu64 ",\"t\":%" PRIu64 "}\n", r.id, r.hostNs);
    case Kind::Fin:
        return std::snprintf(out, cap,
                             "{\"k\":\"fin\",\"ctx\":%" PRId64 ",\"t\":%" PRIu64 ",\"real\":%" PRIu64
                             ",\"dropped\":%" PRIu64 "}\n",
                             r.ctx, r.hostNs, r.gpuNs, r.seq);
    }
    return 0;
}

bool writeAll(int fd, const char* data, size_t n)
{
    while (n > 0) {
        const ssize_t w = ::write(fd, data, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        data += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

Recorder* g_recorder = nullptr; // made by instance(), freed by releaseIfIdle()

void flushAtExit()
{
    if (g_recorder)
        g_recorder->flush();
}

// Its destructor runs when the library is unloaded (dlclose) or the process exits.
struct UnloadHook {
    ~UnloadHook() { Recorder::releaseIfIdle(); }
} g_unloadHook;

} // namespace

struct Recorder::ThreadBuffer {
    std::atomic<int> count{0}; // records published (written by the owner only)
    int written = 0;           // records already in the file (under g_fileLock)
    // The owner's own: the time stamp of the first record since the owner last wrote the buffer
    // out (0: none). Another thread's flush() may have written them meanwhile; the owner's write
    // then finds nothing new, which is harmless.
    std::uint64_t pendingSinceNs = 0;
    Record records[kRecordsPerThread];
};

std::uint64_t monotonicNs()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(t.tv_nsec);
}

std::uint64_t realtimeNs()
{
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(t.tv_nsec);
}

Recorder& Recorder::instance()
{
    // Not destroyed while a communicator is alive: NCCL's threads may still call in while the
    // process exits (releaseIfIdle).
    if (!g_recorder)
        g_recorder = new Recorder;
    return *g_recorder;
}

void Recorder::releaseIfIdle()
{
    Recorder* r = g_recorder;
    if (!r || r->m_contexts.load() > 0)
        return;
    r->flush();
    {
        std::lock_guard<std::mutex> lock(g_fileLock);
        const int threads = std::min(r->m_threads.load(), kMaxThreads);
        for (int i = 0; i < threads; ++i)
            delete r->m_buffers[i].exchange(nullptr);
        if (r->m_fd >= 0)
            ::close(r->m_fd);
        r->m_fd = -1;
    }
    g_recorder = nullptr;
    delete r;
}

void Recorder::disable(const char* why, const char* detail)
{
    m_enabled.store(false, std::memory_order_relaxed);
    if (!m_said.exchange(true))
        std::fprintf(stderr, "shardlab NCCL profiler: %s%s%s; not recording (the program runs on unaffected)\n", why,
                     detail ? ": " : "", detail ? detail : "");
}

bool Recorder::openFile()
{
    const char* dir = std::getenv(profile_format::kRecordsDirVariable);
    if (!dir || !*dir) {
        disable("SHARDLAB_PROFILE_RECORDS_DIR is not set (run the program under `shardlab profile`, or set it to a "
                "folder)");
        return false;
    }
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0)
        copyText(host, "host");
    const int n = std::snprintf(m_path, sizeof m_path, "%s/%s-%d%s", dir, host, static_cast<int>(getpid()),
                                profile_format::kFileSuffix);
    if (n <= 0 || static_cast<size_t>(n) >= sizeof m_path) {
        disable("the record file's path is too long", dir);
        return false;
    }
    // NCCL closes the plugin when its last communicator is destroyed and opens it again for the
    // next one: this process's file then goes on, with ids and contexts above every earlier one
    // (each took at least one byte of the file). Never through a link planted at the name (the
    // folder may be shared; the name, host and pid, is predictable).
    m_fd = ::open(m_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (m_fd < 0) {
        char why[4400];
        std::snprintf(why, sizeof why, "%s (%s)", m_path, std::strerror(errno));
        disable("cannot create the record file", why);
        return false;
    }
    struct stat st {};
    const std::uint64_t already = ::fstat(m_fd, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
    m_nextId.store(already + 1);
    m_nextCtx.store(static_cast<std::int64_t>(already));
    if (already > 0)
        return true;
    char line[1024];
    char hostEsc[600];
    appendEscaped(hostEsc, sizeof hostEsc, host);
    const int len = std::snprintf(line, sizeof line,
                                  "{\"%s\":%d,\"host\":\"%s\",\"pid\":%d,\"t\":%" PRIu64 ",\"real\":%" PRIu64 "}\n",
                                  profile_format::kMagicKey, profile_format::kVersion, hostEsc,
                                  static_cast<int>(getpid()), monotonicNs(), realtimeNs());
    if (!writeAll(m_fd, line, static_cast<size_t>(len))) {
        disable("cannot write the record file", m_path);
        return false;
    }
    return true;
}

bool Recorder::start()
{
    if (m_started.exchange(true))
        return enabled();
    std::lock_guard<std::mutex> lock(g_fileLock);
    if (!openFile())
        return false;
    std::atexit(flushAtExit);
    if (const char* v = std::getenv(kFlushVariable); v && *v) {
        char* end = nullptr;
        const unsigned long long ms = std::strtoull(v, &end, 10);
        if (std::strcmp(v, "off") == 0)
            m_flushAfterNs.store(UINT64_MAX);
        else if (end && *end == 0 && ms <= 86'400'000ull)
            m_flushAfterNs.store(ms * 1'000'000ull);
        else
            std::fprintf(stderr,
                         "shardlab NCCL profiler: %s=%s is not a number of milliseconds (0 to 86400000) or `off`; "
                         "writing records every 200 ms\n",
                         kFlushVariable, v);
    }
    m_enabled.store(true);
    return true;
}

Recorder::ThreadBuffer* Recorder::bufferOfThisThread()
{
    thread_local ThreadBuffer* mine = nullptr;
    thread_local bool failed = false;
    if (mine || failed)
        return mine;
    const int slot = m_threads.fetch_add(1);
    if (slot >= kMaxThreads) {
        failed = true;
        disable("more than 1024 threads called the profiler");
        return nullptr;
    }
    mine = new (std::nothrow) ThreadBuffer;
    if (!mine) {
        failed = true;
        disable("no memory for a record buffer");
        return nullptr;
    }
    m_buffers[slot].store(mine, std::memory_order_release);
    return mine;
}

void Recorder::record(const Record& r)
{
    ThreadBuffer* b = bufferOfThisThread();
    if (!b || !enabled()) {
        m_dropped.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    int n = b->count.load(std::memory_order_relaxed);
    if (n == kRecordsPerThread) { // full: this thread writes it out (one of the two locks an event can meet)
        std::lock_guard<std::mutex> lock(g_fileLock);
        writeOut(*b);
        b->written = 0;
        b->count.store(0, std::memory_order_release);
        b->pendingSinceNs = 0;
        n = 0;
        if (!enabled()) {
            m_dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
    }
    b->records[n] = r;
    b->count.store(n + 1, std::memory_order_release);
    // Time-based flush: one compare of stamps the record already carries (no clock read).
    if (b->pendingSinceNs == 0)
        b->pendingSinceNs = r.hostNs;
    if (r.hostNs - b->pendingSinceNs >= m_flushAfterNs.load(std::memory_order_relaxed))
        writeOwn(*b);
}

void Recorder::writeOwn(ThreadBuffer& b)
{
    std::lock_guard<std::mutex> lock(g_fileLock);
    writeOut(b);
    b.pendingSinceNs = 0;
}

void Recorder::writeOut(ThreadBuffer& b)
{
    if (m_fd < 0)
        return;
    static char chunk[kChunk];
    size_t used = 0;
    const int upTo = b.count.load(std::memory_order_acquire);
    for (int i = b.written; i < upTo; ++i) {
        if (used + 1024 > kChunk) {
            if (!writeAll(m_fd, chunk, used)) {
                disable("cannot write the record file (disk full?)", m_path);
                ::close(m_fd);
                m_fd = -1;
                return;
            }
            used = 0;
        }
        const int len = formatRecord(chunk + used, kChunk - used, b.records[i]);
        if (len > 0)
            used += static_cast<size_t>(len);
    }
    b.written = upTo;
    if (used > 0 && !writeAll(m_fd, chunk, used)) {
        disable("cannot write the record file (disk full?)", m_path);
        ::close(m_fd);
        m_fd = -1;
    }
}

void Recorder::flush()
{
    std::lock_guard<std::mutex> lock(g_fileLock);
    const int threads = std::min(m_threads.load(), kMaxThreads);
    for (int i = 0; i < threads; ++i)
        if (ThreadBuffer* b = m_buffers[i].load(std::memory_order_acquire))
            writeOut(*b);
}

} // namespace shardlab::profplugin
