// Nsight Systems SQLite exports (`nsys export --type sqlite --include-blobs=true REPORT`;
// docs/importing.md, "Nsight Systems"): NCCL's kernels as CUPTI recorded them on each process's
// GPU (CUPTI_ACTIVITY_KIND_KERNEL, names in StringIds), each joined to the NCCL calls that launched
// it: NCCL's own NVTX ranges (ncclAllReduce, ncclSend, ...) on the thread whose CUDA launch
// (CUPTI_ACTIVITY_KIND_RUNTIME, by correlation id) made the kernel, with their typed payloads
// (NVTX_EVENTS.binaryData, laid out by NVTX_PAYLOAD_SCHEMAS and _ENTRIES: communicator, message
// size, peer, root) and each communicator's membership from ncclCommInitRank's (rank, ranks).
// The file is opened read-only with SQLite's defensive settings (no views, no triggers, no
// untrusted schema functions, bounded value sizes): it is a file a user brings, not one we wrote.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/import/input_file.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

// One NCCL call (an NVTX range of NCCL's domain) with what its payload says.
struct NsightCall {
    std::string func; // NCCL's function without "nccl": "AllReduce", "Send", ...
    std::int64_t startNs = 0, endNs = 0;
    bool decoded = false;    // its payload was there and in the layout its schema names
    std::uint64_t comm = 0;  // NCCL's communicator hash (commHash)
    std::uint64_t bytes = 0; // NCCL's count x type size (per rank for AllGather and ReduceScatter)
    int peer = -1, root = -1;
};

struct NsightKernel {
    std::string name;                    // CUPTI's short name, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"
    std::string func;                    // from the name: "AllReduce", "SendRecv", "Generic", ...
    std::int64_t startNs = 0, endNs = 0; // on the export's clock
    int device = 0;
    std::int64_t stream = 0;
    std::vector<NsightCall> calls; // the NCCL calls its launch belongs to (none: not found)
};

// One communicator a process joined, as its ncclCommInitRank (or Split, Destroy) payload says.
struct NsightMember {
    std::uint64_t comm = 0;
    int rank = -1, ranks = 0;
};

struct NsightProcess {
    long long pid = 0;
    std::string name;
    int device = 0;                    // of its first NCCL kernel
    std::vector<NsightKernel> kernels; // NCCL's, in order of start
    std::vector<NsightMember> comms;
};

struct NsightExport {
    std::string origin;
    std::string version; // Nsight Systems' ("2026.2.1.210"); empty where the export does not say
    std::string host;    // the profiled machine's name; empty where not recorded
    // The session's start on the export's clock and in ns since 1970 (both 0 where not recorded).
    std::int64_t clockStartNs = 0, utcStartNs = 0;
    std::vector<NsightProcess> processes; // those with NCCL kernels, by (device, pid)
    int ncclRanges = 0;                   // NCCL calls (NVTX ranges of its functions) in the export
    bool blobColumn = false;              // NVTX_EVENTS has payload blobs (exported with --include-blobs=true)
    int payloads = 0;                     // NCCL calls whose payload was read
    int unreadPayloads = 0;               // NCCL calls with a payload not in their function's layout (left unread)
};

// The export at `path`; an error names the file and what is missing ("no CUDA kernels: profile
// with -t cuda") or wrong. `progress` is called between the stages (false cancels).
Result<NsightExport> readNsightExport(const std::filesystem::path& path, const ReadProgress& progress = {});
// The same from the file's bytes in memory (tests and the fuzzer), named `origin` in messages.
Result<NsightExport> parseNsightExport(std::string_view bytes, const std::string& origin);

// NCCL's function from its kernel's name: "ncclDevKernel_AllReduce_Sum_f32_RING_LL" and the older
// "ncclKernel_AllReduce_RING_LL_Sum_float" -> "AllReduce"; "" for a kernel that is not NCCL's.
std::string ncclKernelFunction(std::string_view kernelName);

// A call of NCCL's point-to-point functions ("Send", "Recv").
inline bool ncclPointToPoint(std::string_view func) { return func == "Send" || func == "Recv"; }

} // namespace shardlab
