// A scenario: topology + workload + ownership + step program + perturbations. The unit a user
// edits, saves, simulates and runs live.
#pragma once

#include "shardlab/model/program.h"
#include "shardlab/model/topology.h"
#include "shardlab/model/workload.h"
#include "shardlab/text/language.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

// How a rank that owns more than its GPU holds is treated.
enum class MemoryMode {
    Strict,  // the rank does not fit; the run is flagged "capacity"
    Unified, // unified memory: the excess pages over the host link every iteration (simulation)
};

struct Delay {
    int rank = 0;
    int op = 0;         // program index
    int iteration = -1; // -1: every iteration
    double ms = 0;      // idle time added before the op starts
    bool operator==(const Delay&) const = default;
};

// A deliberate mistake on one rank, to teach hangs.
struct Mismatch {
    enum class Type { WrongOp, WrongCount, Skip };
    Type type = Type::WrongOp;
    int rank = 0;
    int op = 0; // program index of the collective to change
    int iteration = 0;
    OpKind replacement = OpKind::AllGather; // WrongOp
    Bytes bytes = 0;                        // WrongCount
    bool operator==(const Mismatch&) const = default;
};

struct Perturbations {
    std::vector<double> slowdown; // per rank; missing ranks run at 1.0
    double jitterPct = 0;         // each compute phase lasts (1 + u) times, u uniform in ±pct/100
    std::uint64_t seed = 1;       // jitter is reproducible for a seed
    std::vector<Delay> delays;
    std::vector<Mismatch> mismatches;
    bool operator==(const Perturbations&) const = default;

    double slowdownOf(int rank) const;
    // The factor a compute phase's time is multiplied by: 1 + u * jitterPct / 100, u uniform in
    // [-1, 1) and reproducible for (seed, rank, op, iteration, bucket). Shared by the simulator and
    // the live engine so that both perturb the same phases by the same amounts.
    double jitterFactor(int rank, int op, int iteration, int bucket) const;
};

// The strategy of a scenario made from a profile (shardlab profile): the program's own work as
// observed, with no workload or ownership ShardLab knows of, so no one-GPU time and no memory.
inline constexpr const char* kObservedStrategy = "observed";

// The device mesh a transformer plan lays its ranks on (`shardlab plan --scenario` writes it): the
// sizes of the TP, CP, PP and DP axes (their product is the rank count) and the order in which
// they number the ranks, innermost first ("tp,cp,pp,dp": TP on consecutive ranks). The diagram
// colours each GPU by its pipeline stage and names its place on the mesh. Absent elsewhere; a mesh
// whose product is no longer the rank count (a GPU added or removed since) is not drawn.
// Its order is read by meshOrderFromText() (mesh_order.h), the parser the planner uses too.
// `gpus`: which GPU plays each place on the mesh (place p, numbered by `order`, is GPU gpus[p]);
// empty when place p is GPU p. Dragging a pipeline stage or a TP group onto other GPUs in the
// diagram swaps GPUs' roles (swapRanks, scenario_edit.h), and this records where each place went.
struct ScenarioMesh {
    int tp = 1, cp = 1, pp = 1, dp = 1;
    std::string order = "tp,cp,pp,dp";
    std::vector<int> gpus = {};
    bool operator==(const ScenarioMesh&) const = default;
    long long ranks() const { return static_cast<long long>(tp) * cp * pp * dp; }
    int gpuAt(int place) const { return gpus.empty() ? place : gpus[static_cast<size_t>(place)]; }
    // The place GPU `gpu` plays (-1: none, a GPU beyond the mesh).
    int placeOf(int gpu) const;
};

struct Scenario {
    std::string name;
    std::string description;
    Topology topology;
    Workload workload;
    std::vector<Op> program;
    Perturbations perturbations;
    int iterations = 1;
    MemoryMode memoryMode = MemoryMode::Strict;
    std::string strategy;    // the strategy that generated the ownership, if any (informational);
                             // kObservedStrategy: a profiled program, as ShardLab's NCCL profiler saw it
    std::string costProfile; // named calibration profile; empty: the built-in defaults
    // The name and description in Chinese, where the file gives them ("name_zh", "description_zh":
    // the shipped examples do; items and steps have a nameZh too). namedIn() puts them in place.
    std::string nameZh = {};
    std::string descriptionZh = {};
    std::optional<ScenarioMesh> mesh = {};
    bool operator==(const Scenario&) const = default;

    int ranks() const { return topology.rankCount(); }
    // The group an op runs on: its own group, or every rank.
    std::vector<int> groupOf(const Op& op) const;
    // The bytes a collective moves: op.bytes or the size of its item.
    Bytes bytesOf(const Op& op) const;
};

// The share of each compute step's work (op.flops) each rank does: one entry a step of the
// program (empty for a step that is not compute), one share a rank. A rank does the share of the
// step's item it owns (owning a quarter of the parameters, a quarter of the work: tensor and
// pipeline parallel), or all of it where an earlier step of the program brought the whole item to
// the rank: an all-gather, all-gather-v or broadcast of all the item's bytes on a group the rank
// is in (ZeRO-3 and FSDP compute with the whole layer they gathered, so sharding the parameters
// does not shrink the work). A step without an item: 1 on every rank. One pass over the program.
std::vector<std::vector<double>> computeShares(const Scenario& scenario);
// The same, one compute step at a time (its index and shares) without keeping them: for a
// scenario too large to hold a share a rank for every step.
void forEachComputeShare(const Scenario& scenario,
                         const std::function<void(size_t, const std::vector<double>&)>& visit);

// Semantic checks beyond the file format (ranks exist, groups non-empty, items exist, shards
// cover their items...). Messages use JSON paths ("$.program[2].group") so that file loaders
// and the GUI report the same thing.
Status validateScenario(const Scenario& scenario);

// The scenario as a user of `language` opens it: in Chinese the scenario's, items' and steps'
// names (and the description) are their Chinese ones where the file gives them, and the steps
// follow their items' new names; whatever has none keeps its name as written (a user's own
// scenario is unchanged). The Chinese names are then dropped in either language: the scenario's
// names are what it shows, edits and saves from then on.
Scenario namedIn(Scenario scenario, Language language);

} // namespace shardlab
