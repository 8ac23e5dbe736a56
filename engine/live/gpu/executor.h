// runLive's engine room: one host thread drives every GPU of a scenario (rank r on device r).
//
// Per rank: a compute stream (0) and a communication stream (1), a send and a receive buffer
// shared by every collective (sized by the plan), a scratch buffer for the compute kernel, a
// buffer of %globaltimer stamps, a pool of events for the watchdog. One nonblocking NCCL
// communicator per distinct group. Each iteration is enqueued step by step (a step's collective
// is one NCCL group call over its members), then the watchdog polls until every stream is idle;
// stamps are read back and mapped onto the host clock at the end (docs/live-engine.md).
//
// The same executor runs one rank of a multi-process job (live_rank.h, docs/mpi.md): bound to a
// rank and a device, it drives that rank only, joins the job's communicator from NCCL's unique id
// (every other rank is another process doing the same), and returns a rank part: this rank's
// spans and collective records on the process clock, for rank 0 to merge.
#pragma once

#include "compute_calibration.h"
#include "cublas.h"
#include "nccl_calls.h"
#include "shardlab/cluster/job_monitor.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_clock.h"
#include "shardlab/live/live_plan.h"
#include "shardlab/live/live_timeline.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace shardlab::live {

// A moment on one rank's timeline: the latest of these stamp slots (a stream that waited for
// another resumes at the later of their last stamps). Empty when the timeline is not captured.
using Mark = std::vector<int>;

// One rank of a multi-process job: which, on which device, the job's NCCL unique id, and where
// to report progress for the job's heartbeats.
struct RankBinding {
    int rank = 0;
    int device = 0;
    std::vector<std::uint8_t> uniqueId; // kNcclUniqueIdBytes
    RankProgress* progress = nullptr;
};

class Executor {
public:
    // Without a binding: every rank of the scenario, rank r on device r, in this process.
    Executor(const Scenario& scenario, const LiveOptions& options, std::optional<RankBinding> binding = std::nullopt);
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    Result<RunResult> run();

private:
    struct Rank {
        int device = 0;
        cudaStream_t stream[2] = {nullptr, nullptr};
        float* send = nullptr;
        float* recv = nullptr;
        float* scratch = nullptr;
        std::size_t scratchCount = 0;
        std::uint64_t* stamps = nullptr;   // device
        unsigned* stampCounters = nullptr; // device, one per slot: blocks done of a self-stamping kernel
        int stampCapacity = 0;
        unsigned long long* wrong = nullptr;    // device: one counter per program op
        std::uint64_t* computeStarts = nullptr; // device, one per compute phase of an iteration: its start
        int computeStartCapacity = 0;
        int nextComputeStart = 0;   // per iteration
        unsigned computeBlocks = 0; // one per SM
        int computeRounds = 1;      // FMA rounds per visit (live.h's computeIntensity)
        double resolutionNs = 0;
        // the compute steps' GEMMs (Op::gemms): a cuBLAS handle on the compute stream and the
        // operands every one of them shares, sized for the largest (bf16 noise, filled once)
        std::unique_ptr<Cublas> blas;
        GemmOperands gemm;
        void *gemmA = nullptr, *gemmB = nullptr, *gemmC = nullptr;
        // clock probes: before the run, then after it, or (LiveOptions::iterationDone) after every iteration
        std::vector<ClockFit> fits;
        Bytes freeBefore = 0, totalMemory = 0, used = 0;
        std::vector<cudaEvent_t> events; // pool, reused every iteration
        std::size_t nextEvent = 0;
        // per iteration
        int nextSlot = 0;
        Mark last[2];              // where each stream is
        bool commBusy = false;     // stream 1 holds work stream 0 has not joined yet
        int lastCommInstance = -1; // the overlapped collective that last used stream 1
        Mark lastCommEnd;          // its end
        int beginSlot = -1;
        // progress, over the whole run
        int collectivesDone = 0;
        int collectivesIssued = 0;
    };
    struct Point { // a watchdog checkpoint: a rank arriving at or leaving a collective
        cudaEvent_t event = nullptr;
        bool leave = false;
        int instance = 0;
    };
    struct Instance { // one collective as issued
        int op = 0, bucket = 0, iteration = 0, group = 0, sequence = 0, ordinalBase = 0;
        std::vector<int> ranks; // group members (global ranks)
        std::vector<LiveCall> calls;
        std::vector<Mark> arrive, leave; // per member (empty: skipped or not captured)
        std::vector<int> stream;
        std::vector<int> ordinal;    // per member: the rank's n-th collective
        std::vector<int> leavePoint; // per member: index of its leave checkpoint (-1: none)
    };
    struct Phase { // a compute phase, a delay, or exposed communication, as stamp slots
        int rank = 0, stream = 0;
        SpanKind kind = SpanKind::Compute;
        SpanDetail detail = SpanDetail::None;
        int op = 0, iteration = 0, bucket = 0;
        Mark begin, end;
        int instance = -1;
    };

    Status setup();
    Status openRanks(std::vector<Bytes>& freeBytes);
    Status joinJob(std::vector<Bytes>& freeBytes);
    Status agreeOnSetup(const Status& mine);
    Status allocate(Rank& rk, int rank, const LivePlan& plan);
    Status warmUpAndVerify();
    Status calibrateClocks(bool after);
    Status runIteration(int iteration, bool& hung);
    Status issueStep(const ProgramStep& step, int iteration, bool& hung);
    Status issueCollective(const ProgramStep& step, int iteration, bool& hung);
    // cuBLAS for the local ranks that run GEMMs (operands: every rank's), or a note why not
    Status openGemms(const std::vector<GemmOperands>& operands);
    Status runGemms(Rank& rank, const Op& op); // the op's GEMMs on the compute stream
    Status waitIteration(int iteration, bool& hung);
    Status watchdogPoll(bool& hung, bool& idle);
    Status readStamps(int iteration);
    int mark(int rank, int stream, bool always = false);
    int reserveSlot(int rank); // a slot a self-stamping kernel writes (-1: not capturing)
    Status point(int rank, int stream, bool leave, int instance);
    Status join(int rank, int iteration);
    cudaEvent_t poolEvent(int rank);
    Status abortAndDrain(int iteration);
    void buildHang(int iteration);
    // The GPU timer -> host map for `rank`'s stamps of iteration `it`.
    ClockMap mapFor(int rank, int it) const;
    // Iteration `it` (the next one) appended to `run` as spans, records and its mark.
    void appendIteration(RunResult& run, int it);
    RunResult assemble();
    Status teardown();
    // Ranks this process drives: every rank, or the bound one.
    bool local(int rank) const { return !m_binding || rank == m_binding->rank; }
    void setActivity(Message what);
    Message describe(const Instance& in) const; // "all_reduce 'grads' (step 3, iteration 2)"

    const Scenario& m_s;
    const LiveOptions& m_opt;
    std::optional<RankBinding> m_binding;
    std::unique_ptr<CostModel> m_model;
    LivePlan m_plan;
    std::vector<Rank> m_ranks;
    std::vector<Communicator> m_comms;
    std::vector<int> m_groupSeq;
    bool m_resourcesLive = false;
    bool m_blocking = true; // blocking communicators unless a mismatch may leave NCCL stuck on the host
    bool m_aborted = false;
    bool m_gemms = false; // compute steps run their GEMMs (cuBLAS opened on every rank that has any)

    // the run's record, in stamp slots until assemble()
    std::vector<std::vector<std::vector<std::uint64_t>>> m_stamps; // [iteration][rank][slot] raw GPU ns
    std::vector<std::vector<int>> m_iterBegin, m_iterEnd;          // [iteration][rank] slots
    std::vector<Phase> m_phases;
    std::vector<Instance> m_instances;
    std::vector<std::vector<Point>> m_points; // per rank, this iteration
    std::vector<std::size_t> m_cursor;        // per rank: first point not yet complete
    std::vector<long long> m_wrong;           // per program op, from the warm-up pass
    double m_lastProgressNs = 0;
    double m_watchdogMs = 0; // the option, or twice the longest compute phase if that is longer
    int m_hostStuck = -1;    // an instance NCCL never finished issuing
    cudaError_t m_launchError = cudaSuccess;
    int m_iterationsDone = 0;
    std::optional<HangReport> m_hang;
    std::vector<Message> m_notes;

    // assembling, iteration by iteration (handed over as they complete with iterationDone)
    bool m_perIteration = false;
    RunResult m_handed;
    std::size_t m_phaseCursor = 0, m_instanceCursor = 0;
    bool m_originKnown = false;
    double m_originNs = 0;
    double m_maxErrorNs = 0, m_maxDriftPpm = 0, m_maxTieUs = 0;
};

} // namespace shardlab::live
