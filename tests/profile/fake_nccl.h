// Playing NCCL's part for the profiler plugin, without a GPU: opens libshardlab_nccl_profiler.so as
// NCCL does (dlopen, the ncclProfiler_vN table) and makes the calls NCCL makes for a collective on
// each rank of a communicator: init, group and collective events, the kernel's channels (their GPU
// timer stamps) and finalize. The "GPU timer" of fake rank r is this host's CLOCK_MONOTONIC plus
// an offset of the test's choosing, read between the collective's start and the channel's report
// exactly as a real GPU's reading lies between them; every stamp is kept so that a test can work
// out by hand what the profile must show.
#pragma once

#include "nccl_profiler_abi.h"

#include <cstdint>
#include <ctime>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace shardlab::fakenccl {

inline std::uint64_t hostNs()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(t.tv_nsec);
}

// Spins until `ns` of this host's clock have passed (a rank "computing").
inline void spinFor(std::uint64_t ns)
{
    const std::uint64_t until = hostNs() + ns;
    while (hostNs() < until) {
    }
}

struct Plugin {
    void* lib = nullptr;
    const ncclabi::ProfilerV5* v5 = nullptr;
    const ncclabi::ProfilerV4* v4 = nullptr;
    const ncclabi::ProfilerV3* v3 = nullptr;
    std::string error;
    explicit Plugin(const std::string& path)
    {
        lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            error = dlerror();
            return;
        }
        v5 = static_cast<const ncclabi::ProfilerV5*>(dlsym(lib, "ncclProfiler_v5"));
        v4 = static_cast<const ncclabi::ProfilerV4*>(dlsym(lib, "ncclProfiler_v4"));
        v3 = static_cast<const ncclabi::ProfilerV3*>(dlsym(lib, "ncclProfiler_v3"));
        if (!v5 || !v4 || !v3)
            error = "the plugin does not export ncclProfiler_v5, _v4 and _v3";
    }
};

// What the fake GPU of one rank did for one collective (its timer's values).
struct KernelStamps {
    std::uint64_t gpuStartNs = 0, gpuEndNs = 0;
};

// One communicator of `offsets.size()` ranks, driven through interface v5 from this thread: all
// of its ranks, or (onlyRank >= 0) that one, as one process of a multi-process job.
class Communicator {
public:
    Communicator(const Plugin& plugin, std::uint64_t hash, std::vector<std::int64_t> gpuOffsetsNs, int onlyRank = -1)
        : m_p(plugin), m_offsets(std::move(gpuOffsetsNs))
    {
        const int n = static_cast<int>(m_offsets.size());
        m_ctx.assign(m_offsets.size(), nullptr);
        m_open.assign(m_offsets.size(), {});
        m_seq.assign(m_offsets.size(), 0);
        for (int r = 0; r < n; ++r) {
            if (onlyRank >= 0 && r != onlyRank)
                continue;
            int mask = 0;
            if (m_p.v5->init(&m_ctx[static_cast<size_t>(r)], hash, &mask, "fake", 1, n, r, nullptr)
                != ncclabi::kSuccess)
                m_failed = true;
            m_mask = mask;
        }
    }
    bool failed() const { return m_failed; }
    int mask() const { return m_mask; }
    int ranks() const { return static_cast<int>(m_offsets.size()); }
    std::uint64_t gpuNow(int r) const
    {
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(hostNs()) + m_offsets[static_cast<size_t>(r)]);
    }

    // NCCL enqueues the collective on rank r (group, collective event) and its kernel starts on
    // `channels` channels right away: returns the GPU start stamp.
    std::uint64_t start(int r, const char* func, std::size_t count, const char* dtype, int channels = 2, int root = 0)
    {
        Open& o = m_open[static_cast<size_t>(r)];
        ncclabi::EventDescrV5 g{};
        g.type = ncclabi::kGroup;
        g.rank = r;
        m_p.v5->startEvent(m_ctx[static_cast<size_t>(r)], &o.group, &g);
        ncclabi::EventDescrV5 c{};
        c.type = ncclabi::kColl;
        c.rank = r;
        c.parentObj = o.group;
        c.coll.seqNumber = m_seq[static_cast<size_t>(r)]++;
        c.coll.func = func;
        c.coll.count = count;
        c.coll.datatype = dtype;
        c.coll.root = root;
        c.coll.nChannels = static_cast<std::uint8_t>(channels);
        c.coll.nWarps = 16;
        c.coll.algo = "RING";
        c.coll.proto = "SIMPLE";
        c.coll.parentGroup = o.group;
        m_p.v5->startEvent(m_ctx[static_cast<size_t>(r)], &o.coll, &c);
        const std::uint64_t gpuStart = gpuNow(r); // the kernel starts after its event...
        o.channels.assign(static_cast<size_t>(channels), nullptr);
        for (int ch = 0; ch < channels; ++ch) {
            ncclabi::EventDescrV5 k{};
            k.type = ncclabi::kKernelCh;
            k.rank = r;
            k.parentObj = o.coll;
            k.kernelCh.channelId = static_cast<std::uint8_t>(ch);
            k.kernelCh.pTimer = gpuStart;
            m_p.v5->startEvent(m_ctx[static_cast<size_t>(r)], &o.channels[static_cast<size_t>(ch)],
                               &k); // ...and is reported after
        }
        o.stamps.gpuStartNs = gpuStart;
        return gpuStart;
    }
    // The kernel on rank r ends now (every channel), then NCCL stops the events.
    KernelStamps finish(int r)
    {
        Open& o = m_open[static_cast<size_t>(r)];
        const std::uint64_t gpuEnd = gpuNow(r);
        for (void* ch : o.channels) {
            ncclabi::StateArgsV4 a{};
            a.kernelCh.pTimer = gpuEnd;
            m_p.v5->recordEventState(ch, ncclabi::kStateKernelChStop, &a);
            m_p.v5->stopEvent(ch);
        }
        m_p.v5->stopEvent(o.coll);
        m_p.v5->stopEvent(o.group);
        o.stamps.gpuEndNs = gpuEnd;
        return o.stamps;
    }
    void finalize()
    {
        for (void*& c : m_ctx) {
            if (!c)
                continue;
            m_p.v5->finalize(c);
            c = nullptr;
        }
    }

private:
    struct Open {
        void* group = nullptr;
        void* coll = nullptr;
        std::vector<void*> channels;
        KernelStamps stamps;
    };
    const Plugin& m_p;
    std::vector<std::int64_t> m_offsets;
    std::vector<void*> m_ctx;
    std::vector<Open> m_open;
    std::vector<std::uint64_t> m_seq;
    bool m_failed = false;
    int m_mask = 0;
};

} // namespace shardlab::fakenccl
