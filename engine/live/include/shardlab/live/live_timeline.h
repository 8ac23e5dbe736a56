// From measured timestamps to a RunResult: the live engine records when each phase began and
// ended and when each rank arrived at and left each collective (all on the host clock, in
// microseconds from the run's start); this turns them into the same spans and collective records
// the simulator produces. Plain C++, tested without a GPU.
#pragma once

#include "shardlab/model/run_result.h"

#include <string>
#include <vector>

namespace shardlab {

// A compute phase, an injected delay, or exposed communication (the compute stream waiting for
// the communication stream to drain), measured on one rank.
struct LivePhase {
    int rank = 0;
    int stream = 0;
    SpanKind kind = SpanKind::Compute;
    SpanDetail detail = SpanDetail::None;
    int op = 0;
    int iteration = 0;
    int bucket = 0;
    int collective = -1; // Comm phases: index into the LiveCollective list
    double beginUs = 0;
    double endUs = 0;
};

// One collective instance: every member's arrival (its stream reached the call) and end.
struct LiveCollective {
    int op = 0;
    int iteration = 0;
    int bucket = 0;
    int sequence = 0; // per communicator
    OpKind kind = OpKind::AllReduce;
    Bytes bytes = 0; // nccl-tests size actually moved
    std::vector<int> group;
    std::vector<int> streams; // per member: 0 compute stream, 1 communication stream
    std::vector<double> arrivalUs;
    std::vector<double> endUs;
    int wrong = 0;
};

// Appends spans and records to `run`. For each collective: start = the last arrival; end = the
// last member's end; each member waits from its arrival to the start (a Wait span naming the last
// arrival) and communicates from the start to its own end. Arrivals within `tieUs` of each other
// (the clock alignment's error) count as simultaneous: then nobody is "last" (lastArrival -1), as
// in the simulator when ranks arrive together.
//
// Order: iteration by iteration (as appendTimeline appends them, in increasing iteration), and
// within one iteration records in the order given and spans by rank, then begin. So a run
// assembled iteration by iteration as the iterations finish (each appended and streamed as one
// chunk) is, entry for entry, the run assembled at the end.
void assembleTimeline(RunResult& run, const std::vector<LivePhase>& phases,
                      const std::vector<LiveCollective>& collectives, double tieUs);

// One iteration's phases and collectives (a phase's `collective` indexes `collectives`) appended
// after what `run` holds, by assembleTimeline's rules: its records take the next indices, its
// spans follow in rank, then begin order. assembleTimeline is this, called once per iteration.
void appendTimeline(RunResult& run, const std::vector<LivePhase>& phases,
                    const std::vector<LiveCollective>& collectives, double tieUs);

// The rank-part form of live_rank.h, for one process of a multi-process run that measured only
// its own members of each collective (the others' arrivals and ends are NaN): each record keeps
// the whole group with this process's arrivals, start = the latest of them, end = the latest end
// it saw, lastArrival -1 (who came last is for rank 0's merge to find); each of its members spends
// one Comm span from its arrival to its end (mergeRankParts splits it into wait + comm). Records
// without a measured arrival are left out. Phases as in assembleTimeline.
// Ordered iteration by iteration, as assembleTimeline; appendRankPart appends one iteration.
void assembleRankPart(RunResult& run, const std::vector<LivePhase>& phases,
                      const std::vector<LiveCollective>& collectives);
void appendRankPart(RunResult& run, const std::vector<LivePhase>& phases,
                    const std::vector<LiveCollective>& collectives);

// What a rank was doing when the watchdog fired, for the hang report.
struct LivePendingCall {
    int rank = 0;
    bool present = false; // the rank reached this collective (it did not skip it)
    OpKind kind = OpKind::AllReduce;
    Bytes bytes = 0;
    int op = 0;
};

// Lines ranks up as a flight recorder does: `lastCompleted` (per rank, its last completed
// collective counted over all its collectives, -1 for none), what each is blocked in, and among
// the members of the first collective that never completed, the first whose call differs from
// the majority's (or who never called it). An empty `pending` entry is a rank another process
// drives: it may be named as the first that differs, without what it does. `pendingMessages`
// (optional, one per rank) are the same as `pending`, as Messages; the explanation is always kept
// both in English and as a Message (live.inc).
HangReport explainLiveHang(const std::vector<int>& lastCompleted, const std::vector<std::string>& pending,
                           const std::vector<LivePendingCall>& firstStuck, int iteration, double watchdogMs,
                           const std::vector<Message>& pendingMessages = {});

} // namespace shardlab
