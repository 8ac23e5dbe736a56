// Merging the timelines of a multi-process run: each process measured only its own rank(s) on
// its own clock; rank 0 puts them together into one RunResult for all ranks on its clock, the
// same type a single-process run returns, so the table, --json, trace and GUI read it unchanged.
#pragma once

#include "shardlab/cluster/clock_sync.h"
#include "shardlab/model/run_result.h"

#include <string>
#include <vector>

namespace shardlab {

// What one process measured. Its RunResult follows the contract of runLiveRankPart
// (live_rank.h): run.ranks is the job's rank count; per-rank vectors (devices, peakMemory,
// pagingUs, hang->lastCompleted/pending) are indexed by global rank and only the entries of
// `ranks` are read; spans belong to `ranks`; each collective record carries the whole group,
// with the arrivals of this process's members and NaN for the others, and endUs = when this
// process saw it end. A collective's time may be one Comm span from the rank's arrival to its
// end (the merge splits it at the last arrival) or already split into Wait + Comm.
struct RankPart {
    std::vector<int> ranks; // the global ranks this process ran (one per GPU: usually one)
    RunResult run;
    ProcessClockFit clock; // this process's clock -> rank 0's (rank 0: exactClock(0))
};

struct MergeOptions {
    // Arrivals closer than this count as simultaneous: nobody was last (lastArrival = -1), and no
    // wait is drawn. Set it to the clock alignment's error bound: below it, who came last is not
    // known. 0 keeps every difference.
    double tieUs = 0;
    // Shift the merged run so that it starts at 0 (as a single-process run does): by
    // firstMomentOf(the merged run).
    bool startAtZero = true;
};

// Where a merged run starts: the earliest begin, arrival or mark of its first iteration (rank 0's
// clock), i.e. the first iteration's mark's begin, or earlier when a span or arrival is.
double firstMomentOf(const RunResult& run);

// The whole run on rank 0's clock:
//  * spans of every rank, moved onto rank 0's clock;
//  * collective records matched across processes by (group, sequence): the arrival of every
//    member, start = the last arrival, lastArrival = who that was (or -1 within tieUs),
//    end = the latest end any member saw, #wrong summed; each rank's time in it is redrawn as
//    wait (own arrival -> last arrival, waitedFor = the last) and comm (-> its own end);
//  * iteration marks from the earliest begin to the latest end over processes;
//  * per-rank devices and peak memory from the process that ran the rank;
//  * a hang report when any process reported one (last completed collective of every rank).
// Order: iteration by iteration (records by iteration, then start; spans by iteration, then rank
// and begin), so that merging the first k iterations of every part gives the first entries of the
// whole merge: a streamed run is merged and sent one iteration at a time (multi_process.h).
// Errors: parts that overlap or leave a rank out, records of one collective that disagree
// (kind, size, step, iteration), or, without a hang, a collective some member never recorded.
Result<RunResult> mergeRankParts(std::vector<RankPart> parts, const MergeOptions& options = {});

} // namespace shardlab
