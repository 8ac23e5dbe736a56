// One rank's PyTorch profiler (Kineto) Chrome trace, reduced to what a job's timeline needs: who
// the rank is (distributedInfo), its process groups, the clock base, and its NCCL kernels with the
// collective's arguments PyTorch attaches to them. Read as a stream (nlohmann's SAX interface, which
// keeps the few fields of one event at a time): memory stays the same whatever the file's size,
// which is why this parser and not a document parser (kineto_trace.cpp says why this one;
// docs/benchmarks.md, "Importing big traces").
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/import/import_job.h"
#include "shardlab/import/input_file.h"

#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

struct KinetoGroup {
    std::string name;        // pg_name ("0"), what kernels name in "Process Group Name"
    std::string description; // pg_desc ("default_pg")
    std::vector<int> ranks;  // global ranks, in the group's rank order
};

struct KinetoCollective {
    std::string kernel;     // "ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)"
    std::string func;       // NCCL's function: "AllReduce", "Send", ... ("" where not known)
    std::string collective; // PyTorch's "Collective name" ("allreduce"); "" when the kernel has none
    std::int64_t inElements = -1, outElements = -1; // "In msg nelems", "Out msg nelems"; -1: absent
    std::string dtype;                              // PyTorch's ("Float")
    int groupSize = 0;
    std::string group; // "Process Group Name"
    std::vector<int> groupRanks;
    std::optional<std::int64_t> sequence; // "Seq" where the trace has it
    // Send and receive: the peer's global rank ("Dst Rank", "Src Rank"), else its rank in the
    // group (PyTorch's "Rank" of a send or receive is the peer's group rank); -1: not recorded.
    int peerGlobal = -1, peerInGroup = -1;
    double tsUs = 0, durUs = 0; // on the trace's clock (µs after baseTimeNanoseconds)
    int line = 0;               // its place among the trace's events (for messages)
};

struct KinetoTrace {
    std::string path;
    int rank = -1, worldSize = 0; // distributedInfo; -1: none
    std::string ncclVersion;
    std::vector<KinetoGroup> groups;           // pg_config
    std::int64_t baseTimeNs = 0;               // baseTimeNanoseconds (0: absent: timestamps are epoch µs)
    double firstUs = 0, lastUs = 0;            // the earliest begin and latest end of any timed event
    std::vector<KinetoCollective> collectives; // NCCL kernels, in order of start
    // Without distributedInfo (a trace exported after the process group was destroyed): the rank
    // a collective's record_param_comms names (its group rank, put through the group's ranks), and
    // the largest group seen.
    int inferredRank = -1;
    int largestGroup = 0;
    int computeKernels = 0;
    int profilerSteps = 0; // ProfilerStep#N ranges
    int events = 0;
};

// `origin` names the trace in messages.
Result<KinetoTrace> parseKinetoTrace(std::istream& in, const std::string& origin);
Result<KinetoTrace> parseKinetoText(std::string_view text, const std::string& origin);
Result<KinetoTrace> readKinetoTrace(const std::filesystem::path& path, const ReadProgress& progress = {});

// The traces of one job's ranks (one per rank, any order) as ShardLab's run: what importFiles does
// with Kineto traces once they are read. Refused, naming the files: a trace that does not say its
// rank, a rank outside the world, two traces of one rank, a missing rank, traces of different jobs
// or that do not overlap in time.
Result<ImportedJob> kinetoJob(std::vector<KinetoTrace> traces, const ImportOptions& options = {});

// NCCL's function from a kernel's name, under both namings (ncclKernel_AllReduce_RING_LL_Sum_f32,
// ncclDevKernel_AllReduce_Sum_f32_RING_LL, ncclDevKernel_SendRecv): "AllReduce"; "" for a kernel
// that is not NCCL's.
std::string ncclFuncFromKernel(std::string_view kernel);
// PyTorch's "Collective name" as NCCL's function ("allreduce", "all_reduce" -> "AllReduce");
// "" for one ShardLab does not know.
std::string ncclFuncFromCollectiveName(std::string_view name);
// PyTorch's dtype name as NCCL's ("Float" -> "ncclFloat32"); "" for one ShardLab does not know.
std::string ncclDatatypeFromTorch(std::string_view dtype);

} // namespace shardlab
