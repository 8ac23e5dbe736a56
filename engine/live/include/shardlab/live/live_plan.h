// How the live engine turns a scenario into work on this machine's GPUs: communicator groups,
// each rank's call at each step (perturbations applied), element counts and buffer sizes, and how
// sizes are scaled when the scenario asks for more memory than the GPUs have free. Plain C++ with
// no CUDA, so that the rules are tested on any machine (docs/live-engine.md explains them).
#pragma once

#include "shardlab/model/scenario.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/event_estimate.h"
#include "shardlab/text/message.h"

#include <cstdint>
#include <string>
#include <vector>

namespace shardlab {

// Live mode moves float elements: a size in bytes becomes whole elements.
inline constexpr Bytes kLiveElementBytes = 4;

// What one rank calls at one step, after mismatches (perturbations) were applied.
struct LiveCall {
    OpKind kind = OpKind::AllReduce;
    Bytes bytes = 0;      // nccl-tests size (the full buffer), after scaling
    bool skipped = false; // the rank does not call it at all (Mismatch::Skip)
    bool mismatched = false;
};

// Element counts of one call as one member of its group sees it.
struct CallShape {
    std::uint64_t count = 0;     // elements of the full buffer (nccl-tests' count)
    std::uint64_t perRank = 0;   // all-gather / reduce-scatter: the piece each member contributes or keeps
    std::uint64_t sendCount = 0; // elements read from this member's send buffer
    std::uint64_t recvCount = 0; // elements written to this member's receive buffer
};

// The shape of `kind` on `bytes` for member `member` of a group of `members` whose root (reduce,
// broadcast, the sender of send/recv) is member `rootMember`. `pieces` (elements per member) is
// used by all-gather-v only. Rules (out of place, as nccl-tests):
//   all-reduce            send = recv = count
//   reduce                send = count; recv = count on the root, 0 elsewhere
//   broadcast             send = count on the root, 0 elsewhere; recv = count
//   all-gather            send = count / n; recv = count            (count rounded to n pieces)
//   all-gather-v          send = pieces[member]; recv = sum(pieces)
//   reduce-scatter        send = count; recv = count / n
//   reduce-scatter + all-gather: send = count; recv = count (the scattered piece lands in place)
//   send/recv             the sender sends count, the receiver receives count
CallShape callShape(OpKind kind, Bytes bytes, int members, int member, int rootMember,
                    const std::vector<std::uint64_t>& pieces = {});

struct LivePlan {
    std::vector<ProgramStep> steps;                 // one iteration, in order (expandSteps)
    std::vector<std::vector<int>> groups;           // communicators: ascending ranks, distinct
    std::vector<int> opGroup;                       // program index -> group index; -1 for compute
    std::vector<std::vector<std::uint64_t>> pieces; // all-gather-v: elements per member per bucket, by program index
    double scale = 1.0;                             // every collective size is multiplied by this (<= 1)
    std::vector<Bytes> sendBytes, recvBytes;        // per rank: the buffers every collective of the run shares
    std::vector<Message> notes;                     // in words: scaling, paging that live mode does not do (live.inc)
    std::vector<std::vector<double>>
        computeShares; // by program index: each rank's share of a compute step (model/scenario.h)
};

// Builds the plan. `freeBytes` is each rank's free device memory; `reservedBytes` what the engine
// needs besides the collective buffers on each rank (compute scratch, stamps). Buffers may take
// `memoryFraction` of what is free minus the reserve. When the largest need is over that budget
// on some rank and `fitToMemory` is set, every collective is scaled by one factor (the smallest
// budget / need over ranks, rounded down to 3 significant digits) and a note says so, naming the
// rank, the bytes asked and the bytes free; without `fitToMemory` the sizes stay as asked and the
// allocation itself reports what does not fit.
Result<LivePlan> planLive(const Scenario& scenario, const std::vector<Bytes>& freeBytes, Bytes reservedBytes,
                          double memoryFraction, bool fitToMemory);

// A live run with its timeline (LiveOptions::captureTimeline) records the same spans and collective
// records as a simulated one, phase by phase: above kMaxRunEvents (sim/event_estimate.h) it is
// refused before any GPU is touched, with the simulator's message. Without the timeline only the
// iteration boundaries are kept, and any length runs. runLive() and rank 0 of a multi-process job
// (runLiveJob, at the setup verdict) call it; planLive() does not know whether the timeline is on.
Status checkLiveEvents(const Scenario& scenario, bool captureTimeline, std::uint64_t limit = kMaxRunEvents);

// The call `rank` makes at `step` in `iteration` (a member of the op's group), sizes scaled by plan.scale.
LiveCall liveCall(const Scenario& scenario, const LivePlan& plan, int rank, const ProgramStep& step, int iteration);

// The time a compute phase of `rank` lasts in live mode, in microseconds: what the cost model says
// the scenario's GPU takes for the rank's share of the op's work (plan.computeShares: of the item
// it owns or gathered, divided by the buckets), times the rank's slowdown and jitter. Live mode
// runs the calibrated compute kernel for that long, so simulation and measurement share the
// compute side and differ in what is measured: communication, waiting and overlap.
double liveComputeUs(const Scenario& scenario, const LivePlan& plan, const CostModel& model, int rank,
                     const ProgramStep& step, int iteration);

// Whether `rank` runs the GEMMs of `step`'s op (Op::gemms): a compute op with GEMMs of which the
// rank has a share.
bool runsGemms(const Scenario& scenario, const LivePlan& plan, int rank, const ProgramStep& step);

// How long the timed compute kernel runs for a compute phase, in microseconds: liveComputeUs(), or
// where the rank runs the op's GEMMs first (`gemmsRun`), the rest of it, (1 - Op::gemmShare) of it.
double liveKernelUs(const Scenario& scenario, const LivePlan& plan, const CostModel& model, int rank,
                    const ProgramStep& step, int iteration, bool gemmsRun);

// The largest operands `rank`'s GEMMs need, in elements (bf16) of A [m, k], B [k, n] and C [m, n],
// over the compute steps it runs GEMMs for: the buffers every one of them shares. Zero: none.
struct GemmOperands {
    std::uint64_t a = 0, b = 0, c = 0;
    Bytes bytes() const { return 2 * (a + b + c); }
};
GemmOperands gemmOperandsOf(const Scenario& scenario, const std::vector<std::vector<double>>& computeShares, int rank);

// Injected delays of `rank` before `step` in `iteration`, in microseconds (0: none).
double liveDelayUs(const Scenario& scenario, int rank, const ProgramStep& step, int iteration);

// "rank 1: could not allocate 24 GB for ... on GPU 1, which has 14.2 GB free of 16 GB (...)": an
// allocation that failed. `what` names the buffer (Message("error.live.buffer.send")).
Message allocationFailure(int rank, int device, Message what, Bytes asked, Bytes freeBytes, Bytes totalBytes);
// The same in English, `what` as written.
std::string allocationFailureMessage(int rank, int device, const std::string& what, Bytes asked, Bytes freeBytes,
                                     Bytes totalBytes);

} // namespace shardlab
