// The discrete-event simulator: runs a scenario's step program for its iterations on one
// simulated clock and records what each rank does, when it waits and for whom.
//
// Each rank has a compute stream and a communication stream. Compute phases advance the compute
// stream. A blocking collective starts when the last member arrives (arrival = when both of the
// rank's streams are free); each member waits from its own arrival to that start. An overlapped
// collective is issued on the communication stream and leaves the compute stream running; the
// iteration ends when both streams are drained. Collectives match by (group, sequence number),
// as NCCL matches calls on a communicator; a mismatch leaves ranks blocked, reported as a hang.
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/event_estimate.h"

#include <atomic>
#include <functional>

namespace shardlab {

struct SimulationOptions {
    // Called after each iteration with (iterations done, total); return false to cancel.
    std::function<bool(int, int)> progress;
    // Called after each completed iteration with the result so far, for callers that stream
    // results (the GUI draws iterations as they finish). `soFar` holds the spans, collectives and
    // iteration marks of iterations 0..done-1; later calls only append to those vectors, so a
    // caller copies from where it stopped last time. Per-run fields filled at the end
    // (peakMemory, pagingUs) are empty. Runs on the simulating thread; return false to cancel.
    std::function<bool(const RunResult& soFar, int done, int total)> iterationDone;
    const std::atomic<bool>* cancel = nullptr;
    std::optional<CostProfile> profile; // overrides the scenario's named profile
    // > 0: a hang is aborted as the live watchdog does, this long after the last progress on the
    // simulated clock; every blocked rank's wait is recorded up to the abort (collective -1, waiting
    // for the first rank that differs) and the hung iteration ends there. 0: the run stops at the hang.
    double watchdogMs = 0;
    // A run that would record more events (spans + collective records, estimateEvents()) is
    // refused before it starts, with its size and what to reduce (event_estimate.h).
    std::uint64_t maxEvents = kMaxRunEvents;
};

// Refused before a run, with a message that says why (BadInput): an invalid scenario, a
// collective without a route (checkCollectiveRoutes), more events than options.maxEvents
// (checkEventCount). Every command and view that simulates goes through here.
Result<RunResult> simulate(const Scenario& scenario, const SimulationOptions& options = {});
// Refused before a run (both simulate()s call it): a collective whose group holds ranks that no
// chain of links joins, which the model would otherwise price at nothing. The message names the
// program step and the ranks cut off.
Status checkCollectiveRoutes(const Scenario& scenario);

// The same, with a cost model the caller keeps (sweeps reuse one model's caches).
Result<RunResult> simulate(const Scenario& scenario, CostModel& model, const SimulationOptions& options = {});

} // namespace shardlab
