// How the processes of a multi-process run talk: a small message-passing interface, with an MPI
// implementation (a separately built module, mpi_loader.h) and an in-process one for tests
// (InProcessJob: one thread per rank). Everything above it (setup agreement, clock alignment,
// trace gathering, heartbeats) is written once against this interface and tested without mpirun.
//
// Every wait has a deadline: a process that died or hung shows up as a timeout that names it,
// never as a job that hangs for ever.
#pragma once

#include "shardlab/base/bytes.h"
#include "shardlab/base/result.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

using Deadline = std::chrono::steady_clock::time_point;
// now + ms (ms <= 0 or huge: practically never)
Deadline deadlineIn(double ms);

inline constexpr int kAnyPeer = -1;

// Message tags: each protocol step has its own, so that heartbeats (on the monitor's thread) and
// the main thread's steps never take each other's messages.
enum class Tag : int { Setup = 1, Decision, Ping, Pong, Part, Final, Topology, Barrier, Chunk, Scenario, Beat = 20 };

struct TransportMessage {
    int from = -1;
    Tag tag = Tag::Setup;
    Bytes8 bytes;
};

class Transport {
public:
    virtual ~Transport() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Rank among the processes on this host, and how many there are (from the transport itself:
    // MPI_Comm_split_type(SHARED) for MPI).
    virtual int localRank() const = 0;
    virtual int localSize() const = 0;
    // "Open MPI v4.1.4" or "in-process (test)"
    virtual std::string describe() const = 0;

    // Queues `bytes` for `peer` and returns at once. Messages from one process to another with
    // the same tag arrive in the order sent. `peer` may be this process (rank 0 of a streamed job
    // hands its own iterations to its merger that way). Safe to call from several threads.
    virtual Status send(int peer, Tag tag, Bytes8 bytes) = 0;
    // The next message with `tag` from `peer` (kAnyPeer: from anyone), waiting until `deadline`.
    // nullopt when the deadline passed (the caller says what the silence means); an error when the
    // transport itself failed or the job was aborted. Safe to call from several threads.
    virtual Result<std::optional<TransportMessage>> receive(int peer, Tag tag, Deadline deadline) = 0;
    // Waits until everything this process sent has left it (before it exits).
    virtual Status flush(Deadline deadline) = 0;
    // Ends every process of the job with `exitStatus` (MPI_Abort). In an MPI job it does not return.
    virtual void abort(int exitStatus) = 0;
};

// The steps built on send/receive. `what` names the data in messages (Message("error.exchange.setup_report"):
// "setup report"); as English text, the error.exchange.* entry of that English words it, else it stays verbatim.
// Root sends `bytes` to every rank; every rank returns root's bytes.
Result<Bytes8> broadcastBytes(Transport& t, Bytes8 bytes, int root, Tag tag, Deadline deadline, const Message& what);
Result<Bytes8> broadcastBytes(Transport& t, Bytes8 bytes, int root, Tag tag, Deadline deadline,
                              const std::string& what);
// Root returns every rank's bytes, indexed by rank (its own included); the others return {}.
// A rank that sends nothing before the deadline is named in the error.
Result<std::vector<Bytes8>> gatherBytes(Transport& t, Bytes8 mine, int root, Tag tag, Deadline deadline,
                                        const Message& what);
Result<std::vector<Bytes8>> gatherBytes(Transport& t, Bytes8 mine, int root, Tag tag, Deadline deadline,
                                        const std::string& what);

// Returns once every rank has entered it (through rank 0), naming those that did not by the deadline.
Status barrier(Transport& t, Deadline deadline);

// Little-endian fixed-width encodings for the few binary fields (clock stamps, frame headers).
void putU64(Bytes8& out, std::uint64_t v);
std::uint64_t getU64(const Bytes8& in, size_t offset); // 0 when out of range
void putDouble(Bytes8& out, double v);
double getDouble(const Bytes8& in, size_t offset); // 0 when out of range

} // namespace shardlab
