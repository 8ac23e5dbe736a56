// The transport of processes that ShardLab starts itself on one machine (`shardlab live
// --share-gpu N`, shared_gpu_launch.h): every pair of processes holds the two ends of one local
// socket pair (AF_UNIX, a full mesh), made by the launcher before it starts them and passed down as
// inherited file descriptors. No network, no MPI library, no port to pick.
//
// Frames: a 16-byte header (tag, then the length of the bytes, little-endian) and the bytes. A
// process that ends in order says goodbye first; one whose socket closes without it has died, and
// a receive that waits for that process fails at once, naming it. abort() tells every peer to end
// with its exit status and ends this process, as MPI_Abort does.
#pragma once

#include "shardlab/cluster/launch.h"
#include "shardlab/cluster/transport.h"

#include <memory>
#include <string>
#include <vector>

namespace shardlab {

// fds[r][p]: rank r's end of the socket pair it shares with rank p (-1 where r == p). Every
// descriptor is close-on-exec; the launcher clears that flag on the ones a child inherits.
struct SocketMesh {
    std::vector<std::vector<int>> fds;
};
Result<SocketMesh> makeSocketMesh(int size);
// Closes every descriptor of the mesh that is still open (the launcher, once its children hold theirs).
void closeSocketMesh(SocketMesh& mesh);

// A transport over this process's ends of the mesh (`peerFds[p]`, -1 at `rank`); it owns them.
std::unique_ptr<Transport> socketMeshTransport(int rank, std::vector<int> peerFds);

// The variable that hands a child its ends of the mesh: "5,-,7" (a descriptor per rank, '-' at
// its own), next to SHARDLAB_SHARED_RANK and SHARDLAB_SHARED_SIZE (launch.h, Launcher::SharedGpu).
inline constexpr const char* kSharedFdsVariable = "SHARDLAB_SHARED_FDS";
std::string meshFdsText(const std::vector<int>& peerFds, int rank);
// The transport of a process started by the launcher; an error naming the variable when it is
// missing or does not describe `launch`'s rank and size.
Result<std::unique_ptr<Transport>> openSocketMeshTransport(const LaunchInfo& launch, const Environment& env);

} // namespace shardlab
