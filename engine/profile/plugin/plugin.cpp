// libshardlab_nccl_profiler.so: the tables NCCL looks up (ncclProfiler_v5, _v4, _v3) and what each
// call records (recorder.h). Every call returns success, except an init that cannot record, which
// tells NCCL to leave the plugin out. Event handles are not pointers: each is an event's id and
// kind packed into a non-null value, so that nothing is allocated per event and a handle NCCL
// passes back (a stop, a kernel channel's parent) needs no lookup.
#include "nccl_profiler_abi.h"
#include "recorder.h"

#include <cstdint>
#include <new>

namespace shardlab::profplugin {
namespace {

using namespace shardlab::ncclabi;

enum Tag : std::uintptr_t { kTagColl = 1, kTagP2p = 2, kTagKernelCh = 3, kTagGroup = 4 };

void* handleOf(std::uint64_t id, Tag tag)
{
    return reinterpret_cast<void*>(static_cast<std::uintptr_t>(id << 3) | tag);
}
std::uint64_t idOf(const void* handle)
{
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(handle) >> 3);
}
Tag tagOf(const void* handle) { return static_cast<Tag>(reinterpret_cast<std::uintptr_t>(handle) & 7u); }
// The id of a handle of the given kinds, else 0.
std::uint64_t idIf(const void* handle, Tag a, Tag b)
{
    return handle && (tagOf(handle) == a || tagOf(handle) == b) ? idOf(handle) : 0;
}

struct Context {
    std::int64_t id = 0;
};

constexpr int kMask = kGroup | kColl | kP2p | kKernelCh;

Result initCommon(void** context, int* mask, std::uint64_t hash, const char* name, int nodes, int nranks, int rank,
                  bool known)
{
    *mask = 0;
    *context = nullptr;
    Recorder& rec = Recorder::instance();
    if (!rec.start())
        return kInternalError; // NCCL leaves the plugin out for this communicator
    Context* c = new (std::nothrow) Context;
    if (!c) {
        rec.disable("no memory for a communicator's context");
        return kInternalError;
    }
    c->id = rec.nextContext();
    rec.contextOpened();
    *context = c;
    *mask = kMask;
    if (known) {
        Record r;
        r.kind = Kind::Comm;
        r.ctx = c->id;
        r.hash = hash;
        r.a = rank;
        r.b = nranks;
        r.c = nodes;
        copyText(r.name, name);
        r.hostNs = monotonicNs();
        r.gpuNs = realtimeNs();
        rec.record(r);
    }
    return kSuccess;
}

Result finalizeAny(void* context)
{
    Recorder& rec = Recorder::instance();
    if (Context* c = static_cast<Context*>(context)) {
        if (rec.enabled()) {
            Record r;
            r.kind = Kind::Fin;
            r.ctx = c->id;
            r.hostNs = monotonicNs();
            r.gpuNs = realtimeNs();
            r.seq = rec.dropped();
            rec.record(r);
        }
        delete c;
        rec.contextClosed();
    }
    rec.flush();
    return kSuccess;
}

Result stopAny(void* handle)
{
    if (!handle)
        return kSuccess;
    const Tag tag = tagOf(handle);
    if (tag == kTagKernelCh) // its end came with recordEventState
        return kSuccess;
    Recorder& rec = Recorder::instance();
    if (!rec.enabled())
        return kSuccess;
    Record r;
    r.kind = Kind::Stop;
    r.id = idOf(handle);
    r.hostNs = monotonicNs();
    rec.record(r);
    return kSuccess;
}

// v4 and v5: the kernel channel's end carries the GPU timer.
Result recordStateV4(void* handle, int state, StateArgsV4* args)
{
    if (!handle || tagOf(handle) != kTagKernelCh || state != kStateKernelChStop || !args)
        return kSuccess;
    Recorder& rec = Recorder::instance();
    if (!rec.enabled())
        return kSuccess;
    Record r;
    r.kind = Kind::KernelChStop;
    r.id = idOf(handle);
    r.gpuNs = args->kernelCh.pTimer;
    r.hostNs = monotonicNs();
    rec.record(r);
    return kSuccess;
}

Result recordStateV3(void*, int, StateArgsV3*) { return kSuccess; }

// A collective as every version describes it (its `coll` member): what it is and how NCCL runs it.
template <class Coll>
void fillCollective(Record& r, const Coll& coll)
{
    r.kind = Kind::Coll;
    r.seq = coll.seqNumber;
    copyText(r.func, coll.func);
    r.count = coll.count;
    copyText(r.dtype, coll.datatype);
    r.a = coll.root;
    copyText(r.algo, coll.algo);
    copyText(r.proto, coll.proto);
}

// The fields v4 and v5 share; `group` is the parent group's handle.
template <class Descr>
Result startV4V5(void* context, void** handle, Descr* d, void* group)
{
    *handle = nullptr;
    Recorder& rec = Recorder::instance();
    if (!context || !d || !rec.enabled())
        return kSuccess;
    const Context* c = static_cast<const Context*>(context);
    Record r;
    r.hostNs = monotonicNs();
    r.ctx = c->id;
    if (d->type == kColl) {
        fillCollective(r, d->coll);
        r.id = rec.nextId();
        r.nChannels = d->coll.nChannels;
        r.nWarps = d->coll.nWarps;
        r.parent = idIf(group, kTagGroup, kTagGroup);
        *handle = handleOf(r.id, kTagColl);
    } else if (d->type == kP2p) {
        r.kind = Kind::P2p;
        r.id = rec.nextId();
        copyText(r.func, d->p2p.func);
        r.count = d->p2p.count;
        copyText(r.dtype, d->p2p.datatype);
        r.a = d->p2p.peer;
        r.nChannels = d->p2p.nChannels;
        r.parent = idIf(group, kTagGroup, kTagGroup);
        *handle = handleOf(r.id, kTagP2p);
    } else if (d->type == kKernelCh) {
        r.kind = Kind::KernelCh;
        r.id = rec.nextId();
        r.parent = idIf(d->parentObj, kTagColl, kTagP2p);
        r.a = d->kernelCh.channelId;
        r.gpuNs = d->kernelCh.pTimer;
        *handle = handleOf(r.id, kTagKernelCh);
    } else if (d->type == kGroup) {
        r.kind = Kind::Group;
        r.id = rec.nextId();
        *handle = handleOf(r.id, kTagGroup);
    } else {
        return kSuccess;
    }
    rec.record(r);
    return kSuccess;
}

// ---- v5 ----
Result initV5(void** context, std::uint64_t commId, int* mask, const char* name, int nodes, int nranks, int rank,
              Logger)
{
    return initCommon(context, mask, commId, name, nodes, nranks, rank, true);
}
Result startV5(void* context, void** handle, EventDescrV5* d)
{
    void* group = nullptr;
    if (d && d->type == kColl)
        group = d->coll.parentGroup;
    else if (d && d->type == kP2p)
        group = d->p2p.parentGroup;
    return startV4V5(context, handle, d, group);
}

// ---- v4 ----
Result initV4(void** context, int* mask, const char* name, std::uint64_t hash, int nodes, int nranks, int rank, Logger)
{
    return initCommon(context, mask, hash, name, nodes, nranks, rank, true);
}
Result startV4(void* context, void** handle, EventDescrV4* d)
{
    return startV4V5(context, handle, d, d ? d->parentObj : nullptr);
}

// ---- v3: the communicator is named by each event; no GPU timer ----
Result initV3(void** context, int* mask) { return initCommon(context, mask, 0, nullptr, 0, 0, 0, false); }
Result startV3(void* context, void** handle, EventDescrV3* d)
{
    *handle = nullptr;
    Recorder& rec = Recorder::instance();
    if (!context || !d || !rec.enabled())
        return kSuccess;
    Record r;
    r.hostNs = monotonicNs();
    r.ctx = static_cast<const Context*>(context)->id;
    if (d->type == kColl) {
        fillCollective(r, d->coll);
        r.id = rec.nextId();
        r.hash = d->coll.commHash;
        r.c = d->rank;
        r.nChannels = d->coll.nMaxChannels;
        r.parent = idIf(d->parentObj, kTagGroup, kTagGroup);
        *handle = handleOf(r.id, kTagColl);
    } else if (d->type == kGroup) {
        r.kind = Kind::Group;
        r.id = rec.nextId();
        *handle = handleOf(r.id, kTagGroup);
    } else {
        return kSuccess;
    }
    rec.record(r);
    return kSuccess;
}

} // namespace
} // namespace shardlab::profplugin

using namespace shardlab::profplugin;

#define SHARDLAB_EXPORT extern "C" __attribute__((visibility("default")))

SHARDLAB_EXPORT const shardlab::ncclabi::ProfilerV5 ncclProfiler_v5 = {"ShardLab", initV5,        startV5,
                                                                       stopAny,    recordStateV4, finalizeAny};
SHARDLAB_EXPORT const shardlab::ncclabi::ProfilerV4 ncclProfiler_v4 = {"ShardLab", initV4,        startV4,
                                                                       stopAny,    recordStateV4, finalizeAny};
SHARDLAB_EXPORT const shardlab::ncclabi::ProfilerV3 ncclProfiler_v3 = {"ShardLab", initV3,        startV3,
                                                                       stopAny,    recordStateV3, finalizeAny};
