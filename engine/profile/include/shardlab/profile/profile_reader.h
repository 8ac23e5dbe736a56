// Reading the plugin's record files (docs/profiling.md, "Record files"): one file per profiled
// process, JSON lines, the first line naming the format and its version. Each record is joined to
// what it belongs to here (a kernel channel to its collective, a stop to its event), so that the
// builder (profile_build.h) sees one ProfiledOp per collective or point-to-point call.
#pragma once

#include "shardlab/base/result.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <string>
#include <vector>

namespace shardlab {

// One communicator as one rank of it saw it (the plugin's init).
struct ProfiledComm {
    std::int64_t context = 0; // the plugin's context id, unique in the file
    std::uint64_t hash = 0;   // NCCL's communicator hash: the same on every member
    int rank = -1;
    int ranks = 0; // 0: unknown (interface v3 names no size)
    int nodes = 0;
    std::string name;
    double initNs = 0; // host clock (CLOCK_MONOTONIC) at init
};

// One GPU channel of a collective's kernel, as NCCL's proxy thread reported it.
struct KernelChannel {
    int channel = 0;
    // GPU globaltimer (ns since 1970 on most GPUs: kept whole, since a double would round to 256 ns)
    std::uint64_t gpuStartNs = 0;
    std::optional<std::uint64_t> gpuEndNs;
    double hostSeenNs = 0; // host clock when the plugin heard of the start (after it happened)
    int line = 0;          // its `kch` record's line in the file (for messages)
};

struct ProfiledOp {
    std::uint64_t id = 0;
    std::int64_t context = 0;
    bool p2p = false;
    std::uint64_t sequence = 0; // collectives: NCCL's sequence number in the communicator
    std::string func;           // "AllReduce", "Send", ...
    std::uint64_t count = 0;
    std::string datatype; // "ncclFloat32", ...
    int root = -1;        // collectives: root; p2p: peer
    std::string algorithm, protocol;
    int channels = 0;
    std::uint64_t group = 0; // the group event it was issued in (0: none recorded)
    double hostNs = 0;       // host clock when NCCL started the event (before the kernel's launch)
    std::optional<double> stopNs;
    std::vector<KernelChannel> kernel;
    // Interface v3 names the communicator on each event instead of at init.
    std::optional<std::uint64_t> hash;
    std::optional<int> rank;
    int line = 0; // its `coll` or `p2p` record's line in the file (for messages)
};

struct ProfileFile {
    std::string path;
    std::string host;
    long long pid = 0;
    // CLOCK_MONOTONIC and CLOCK_REALTIME (ns since 1970: kept whole) when the file was opened, and
    // the same at the last finalize, where one happened.
    double startNs = 0;
    std::int64_t startRealNs = 0;
    std::optional<double> endNs;
    std::optional<std::int64_t> endRealNs;
    std::uint64_t dropped = 0; // events the plugin could not keep (it said why on stderr)
    std::vector<ProfiledComm> comms;
    std::vector<ProfiledOp> ops; // in the order NCCL started them
    int groups = 0;
};

// One record file read as its bytes arrive (in any pieces), for `shardlab profile --live`, which
// reads the files while the program still writes them (profile_tail.h); parseProfileText is this
// fed the whole text at once.
class ProfileRecordParser {
public:
    explicit ProfileRecordParser(std::string origin);
    // Parses every complete line (an incomplete last one waits for the rest). The first problem
    // stops reading and is returned again by every later call.
    Status feed(std::string_view bytes);
    // The input is complete: a last line without its new line is read when it is whole, else left
    // out (a process killed while writing it).
    Status finish();
    bool sawHeader() const { return m_header; }
    // The records so far, each joined to what it belongs to. `whole`: every record is in, and an
    // event of a communicator the file never initialises is an error; otherwise (the file still
    // grows) such events are left out for now: their thread's init may still be in its buffer.
    Result<ProfileFile> file(bool whole) const;

private:
    struct PendingChannel {
        std::uint64_t id = 0, op = 0;
        KernelChannel channel;
    };
    struct Stamp { // a stop's host time or a channel's end on the GPU timer, and its record's line
        double ns = 0;
        std::uint64_t gpuNs = 0;
        int line = 0;
    };
    Status parseLine(const std::string& line, bool complete);

    std::string m_origin;
    std::string m_pending; // an incomplete last line
    int m_lineNo = 0;
    bool m_header = false;
    std::optional<Error> m_problem;
    ProfileFile m_file;
    std::map<std::uint64_t, size_t> m_opIndex; // event id -> ops[]
    std::vector<PendingChannel> m_channels;
    std::vector<std::pair<std::uint64_t, Stamp>> m_stops;
    std::map<std::uint64_t, Stamp> m_channelEnds;
    std::set<std::int64_t> m_contexts;
};

// The file's records, or an error naming the file, the line and what is wrong with it. A last
// line cut short (a process killed while writing) is left out, not an error.
Result<ProfileFile> parseProfileText(const std::string& text, const std::string& origin);
Result<ProfileFile> readProfileFile(const std::filesystem::path& path);
// Every record file (*.nccl-profile.jsonl) in `dir`, sorted by name; an error when there is none.
Result<std::vector<ProfileFile>> readProfileDirectory(const std::filesystem::path& dir);

// Bytes of one element of an NCCL datatype named as the profiler names it ("ncclFloat32", 4), or
// nullopt for a name ShardLab does not know.
std::optional<int> ncclDatatypeBytes(const std::string& name);

// A collective's size as nccl-tests counts it on a communicator of `ranks` ranks (`gathered`:
// all-gather and reduce-scatter, whose count is per rank: count x element size x ranks), checked:
// the reader refuses counts whose count x element size exceeds kMaxBytes (1 PB, the largest
// collective a scenario holds), and this refuses the gathered size beyond it, naming `op`'s file
// (`path`), line and field. The datatype must be one ncclDatatypeBytes knows.
Result<std::uint64_t> collectiveBytes(const ProfiledOp& op, const std::string& path, bool gathered, int ranks);

} // namespace shardlab
