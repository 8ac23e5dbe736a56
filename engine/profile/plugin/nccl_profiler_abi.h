// ShardLab's own declarations of NCCL's profiler plugin interface (NCCL_PROFILER_PLUGIN; NVIDIA/nccl
// ext-profiler/README.md describes it). Only the parts the plugin reads are spelled out; the
// layouts follow the interface versions NCCL 2.28 accepts (v3, v4, v5) field for field, since NCCL
// passes these structs by pointer. NCCL looks the tables up by their symbol names
// "ncclProfiler_v5", "ncclProfiler_v4", "ncclProfiler_v3", newest first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sys/types.h>

// NCCL's C headers declare structs inside anonymous unions, as these copies must; clang's
// -Wpedantic calls that an extension (-Wnested-anon-types), gcc does not.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnested-anon-types"
#endif

namespace shardlab::ncclabi {

// ncclResult_t is an int-sized enum; the plugin only ever answers success or a failed init.
using Result = int;
inline constexpr Result kSuccess = 0;
inline constexpr Result kInternalError = 3;

// NCCL's logger (level, flags, file, line, printf format, ...); kept to pass the type through.
using Logger = void (*)(int level, unsigned long flags, const char* file, int line, const char* fmt, ...);

// Event types: bits of the activation mask init returns, and the descriptor's `type`.
enum EventType : std::uint64_t {
    kGroup = 1u << 0,
    kColl = 1u << 1,
    kP2p = 1u << 2,
    kProxyOp = 1u << 3,
    kProxyStep = 1u << 4,
    kProxyCtrl = 1u << 5,
    kKernelCh = 1u << 6,
    kNetPlugin = 1u << 7,
    kGroupApi = 1u << 8,      // v5
    kCollApi = 1u << 9,       // v5
    kP2pApi = 1u << 10,       // v5
    kKernelLaunch = 1u << 11, // v5
};

// State transitions (one enum for every version); the plugin uses the kernel channel's end.
inline constexpr int kStateKernelChStop = 22; // v4, v5: args->kernelCh.pTimer is the GPU end

// ---- v5 (NCCL 2.27+) ----------------------------------------------------------------------
struct EventDescrV5 {
    std::uint64_t type;
    void* parentObj;
    int rank;
    union {
        struct {
            int graphCaptured;
            int groupDepth;
        } groupApi;
        struct {
            const char* func;
            std::size_t count;
            const char* datatype;
            int root;
            void* stream;
            bool graphCaptured;
        } collApi;
        struct {
            const char* func;
            std::size_t count;
            const char* datatype;
            void* stream;
            bool graphCaptured;
        } p2pApi;
        struct {
            void* stream;
        } kernelLaunch;
        struct {
            std::uint64_t seqNumber;
            const char* func;
            const void* sendBuff;
            void* recvBuff;
            std::size_t count;
            int root;
            const char* datatype;
            std::uint8_t nChannels;
            std::uint8_t nWarps;
            const char* algo;
            const char* proto;
            void* parentGroup;
        } coll;
        struct {
            const char* func;
            void* buff;
            const char* datatype;
            std::size_t count;
            int peer;
            std::uint8_t nChannels;
            void* parentGroup;
        } p2p;
        struct {
            pid_t pid;
            std::uint8_t channelId;
            int peer;
            int nSteps;
            int chunkSize;
            int isSend;
        } proxyOp;
        struct {
            int step;
        } proxyStep;
        struct {
            std::uint8_t channelId;
            std::uint64_t pTimer; // GPU globaltimer (ns) when the channel started
        } kernelCh;
        struct {
            std::int64_t id;
            void* data;
        } netPlugin;
    };
};

// v4 and v5 share the state arguments.
union StateArgsV4 {
    struct {
        std::size_t transSize;
    } proxyStep;
    struct {
        int appendedProxyOps;
    } proxyCtrl;
    struct {
        void* data;
    } netPlugin;
    struct {
        std::uint64_t pTimer; // GPU globaltimer (ns) when the channel ended
    } kernelCh;
};

struct ProfilerV5 {
    const char* name;
    Result (*init)(void** context, std::uint64_t commId, int* eActivationMask, const char* commName, int nNodes,
                   int nranks, int rank, Logger logfn);
    Result (*startEvent)(void* context, void** eHandle, EventDescrV5* eDescr);
    Result (*stopEvent)(void* eHandle);
    Result (*recordEventState)(void* eHandle, int eState, StateArgsV4* eStateArgs);
    Result (*finalize)(void* context);
};

// ---- v4 (NCCL 2.26) -------------------------------------------------------------------------
struct EventDescrV4 {
    std::uint8_t type;
    void* parentObj;
    int rank;
    union {
        struct {
            std::uint64_t seqNumber;
            const char* func;
            const void* sendBuff;
            void* recvBuff;
            std::size_t count;
            int root;
            const char* datatype;
            std::uint8_t nChannels;
            std::uint8_t nWarps;
            const char* algo;
            const char* proto;
        } coll;
        struct {
            const char* func;
            void* buff;
            const char* datatype;
            std::size_t count;
            int peer;
            std::uint8_t nChannels;
        } p2p;
        struct {
            pid_t pid;
            std::uint8_t channelId;
            int peer;
            int nSteps;
            int chunkSize;
            int isSend;
        } proxyOp;
        struct {
            int step;
        } proxyStep;
        struct {
            std::uint8_t channelId;
            std::uint64_t pTimer;
        } kernelCh;
        struct {
            std::int64_t id;
            void* data;
        } netPlugin;
    };
};

struct ProfilerV4 {
    const char* name;
    Result (*init)(void** context, int* eActivationMask, const char* commName, std::uint64_t commHash, int nNodes,
                   int nranks, int rank, Logger logfn);
    Result (*startEvent)(void* context, void** eHandle, EventDescrV4* eDescr);
    Result (*stopEvent)(void* eHandle);
    Result (*recordEventState)(void* eHandle, int eState, StateArgsV4* eStateArgs);
    Result (*finalize)(void* context);
};

// ---- v3 (NCCL 2.25): no communicator at init, no GPU timer; the descriptor names the comm --
struct EventDescrV3 {
    std::uint8_t type;
    void* parentObj;
    int rank;
    union {
        struct {
            const char* name;
            std::uint64_t commHash;
            std::uint64_t seqNumber;
            const char* func;
            const void* sendBuff;
            void* recvBuff;
            std::size_t count;
            int root;
            const char* datatype;
            std::uint8_t nMaxChannels;
            std::uint8_t nWarps;
            const char* algo;
            const char* proto;
        } coll;
        struct {
            const char* name;
            std::uint64_t commHash;
            const char* func;
            void* buff;
            const char* datatype;
            std::size_t count;
            int peer;
        } p2p;
        struct {
            std::uint8_t channelId;
        } kernelCh;
        struct {
            std::int64_t id;
            void* data;
        } netPlugin;
    };
};

union StateArgsV3 {
    struct {
        std::size_t transSize;
        int steps;
    } proxyOp;
    struct {
        int appendedProxyOps;
    } proxyCtrl;
};

struct ProfilerV3 {
    const char* name;
    Result (*init)(void** context, int* eActivationMask);
    Result (*startEvent)(void* context, void** eHandle, EventDescrV3* eDescr);
    Result (*stopEvent)(void* eHandle);
    Result (*recordEventState)(void* eHandle, int eState, StateArgsV3* eStateArgs);
    Result (*finalize)(void* context);
};

} // namespace shardlab::ncclabi

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
