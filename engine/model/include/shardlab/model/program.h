// The step program: what every rank does in one iteration, in order.
#pragma once

#include "shardlab/base/units.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/enum_names.h"
#include "shardlab/model/gemm_shape.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

// Nvls and NvlsTree reduce in the NVSwitch (NVLink SHARP); they apply only where the topology's
// NVSwitch says it has it (SwitchNode::nvls), as NCCL enables them only on such fabrics.
enum class Algorithm { Auto, Ring, Tree, Direct, Hierarchical, Nvls, NvlsTree };
enum class Protocol { LL, LL128, Simple };

// Their names in scenario and result files, on the command line and in the step editor.
inline constexpr EnumName<Algorithm> kAlgorithmNames[] = {
    {Algorithm::Auto, "auto"},
    {Algorithm::Ring, "ring"},
    {Algorithm::Tree, "tree"},
    {Algorithm::Direct, "direct"},
    {Algorithm::Hierarchical, "hierarchical"},
    {Algorithm::Nvls, "nvls"},
    {Algorithm::NvlsTree, "nvls-tree"},
};
static_assert(listsEveryValueInOrder(kAlgorithmNames, Algorithm::NvlsTree));
inline constexpr EnumName<Protocol> kProtocolNames[] = {
    {Protocol::LL, "LL"},
    {Protocol::LL128, "LL128"},
    {Protocol::Simple, "Simple"},
};
static_assert(listsEveryValueInOrder(kProtocolNames, Protocol::Simple));

constexpr const char* algorithmName(Algorithm algorithm) { return nameIn(kAlgorithmNames, algorithm); }
constexpr std::optional<Algorithm> algorithmFromName(std::string_view name) { return valueIn(kAlgorithmNames, name); }
constexpr const char* protocolName(Protocol protocol) { return nameIn(kProtocolNames, protocol); }

// The largest group a collective may force Algorithm::Direct on. Direct is every rank sending to
// every other at once: n(n-1) transfers, each routed and priced, so time and memory grow as n^2
// (1,024 ranks: about half a second and 170 MB; 10,000 would need some 16 GB). NCCL uses one-shot
// algorithms only inside a node; larger groups use ring, tree or the model's choice (auto).
constexpr int kMaxDirectRanks = 1024;

struct Op {
    OpKind kind = OpKind::Compute;
    std::string name; // label in tables and timelines; defaults to the op name
    std::string item; // workload item it works on or communicates; may be empty

    // Compute: total work over the whole item, in FLOP. Each rank does its computeShares() of it
    // (the share of the item it owns, or all of it once gathered), at its GPU's rate, times its
    // slowdown.
    double flops = 0;
    // Compute, live mode only: the matrix multiplications (bf16, cuBLAS) that every rank with a
    // share of this op runs (its own shard's shapes, not the whole item's), and the fraction of the
    // op's time the model gives them. Live mode runs the GEMMs, then the timed compute kernel for
    // the rest of the time (1 - gemmShare of it, stretched by the rank's slowdown and jitter).
    // Simulation prices the op by `flops` alone. Empty: live mode runs the timed kernel only.
    std::vector<OpGemm> gemms;
    double gemmShare = 0;

    // Collectives: size in nccl-tests' convention (the full buffer). Unset: the item's size.
    std::optional<Bytes> bytes;
    std::vector<int> group; // participating ranks; empty = every rank
    int root = 0;           // reduce / broadcast root; send_recv: the sender
    int peer = 1;           // send_recv: the receiver
    Algorithm algorithm = Algorithm::Auto;

    // Split into this many equal pieces, run back to back (gradient buckets, micro-batches).
    int buckets = 1;
    // Issue on the communication stream and let compute go on. A bucketed collective with
    // overlap that follows a compute op with the same bucket count interleaves with it: bucket k
    // is issued as soon as compute slice k ends (PyTorch DDP's overlap of backward and all-reduce).
    bool overlap = false;

    std::string nameZh = {}; // its name in Chinese, where the file gives one ("name_zh"); see namedIn()

    bool operator==(const Op&) const = default;
};

// One step of an iteration: a program op, or one bucket of it.
struct ProgramStep {
    int op = 0; // program index
    int bucket = 0;
};

// The order in which every rank runs an iteration: each op's buckets in turn, except that a
// bucketed compute op followed by an overlapped collective with the same bucket count interleaves
// with it (compute slice k, then collective bucket k). Shared by the simulator and the live engine.
std::vector<ProgramStep> expandSteps(const std::vector<Op>& program);

} // namespace shardlab
