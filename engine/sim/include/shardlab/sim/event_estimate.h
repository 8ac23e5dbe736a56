// How much a run will record, known before it runs: the spans and collective records that
// simulate() (and a live run with its timeline) keeps in memory until the end. A 1.2 KB scenario
// can ask for ten billion of them (100,000 buckets x 100,000 iterations); simulate() refuses a run
// above a limit with the size and how to reduce it, instead of filling the machine's memory.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/scenario.h"

#include <cstdint>
#include <string>

namespace shardlab {

// The most events (spans + collective records) one run may record. What they cost, measured with
// sizeof on x86-64 (tests/engine/sim/test_event_estimate.cpp checks the sizes this rests on):
//   a Span is 56 bytes; a CollectiveRecord is 112 bytes plus its group and arrivals on the heap
//   (4 + 8 bytes a member, two allocations of at least 32 bytes each) plus the simulator's 32-byte
//   matching slot, about 208 bytes for a two-rank collective, which brings up to 4 spans;
//   estimateEvents() counts an upper bound and simulate() reserves exactly that, so the vectors
//   never grow by doubling (no copy at twice the size).
// So an event costs 56 bytes (spans only) to about 86 (two-rank collectives with every wait
// counted: (208 + 4 x 56) / 5), and 20,000,000 events hold 1.1 to 1.7 GB; with the summary, the
// command line's outputs (which stream) and the process itself, the peak stays under about 2 GB.
// The desktop app, which keeps the finished run and its playback index, stays under about 3 GB.
inline constexpr std::uint64_t kMaxRunEvents = 20'000'000;

struct EventEstimate {
    // Per iteration (a run without a hang): an upper bound on spans (every wait counted, as if
    // every member of every collective waited), and the exact number of collective records.
    std::uint64_t spansPerIteration = 0;
    std::uint64_t collectivesPerIteration = 0;
    std::uint64_t onceSpans = 0; // injected delays given for one iteration only
    int iterations = 0;
    int ranks = 0;
    // The whole run (saturating at UINT64_MAX).
    std::uint64_t spans = 0;
    std::uint64_t collectives = 0;
    std::uint64_t events = 0; // spans + collectives
    std::uint64_t bytes = 0;  // what they take in memory (see kMaxRunEvents)
    // The program step that records the most per iteration, and how much.
    int largestOp = -1;
    std::uint64_t largestOpEvents = 0;
};

// O(program + workload + perturbations): no simulation. An upper bound for runs that complete
// (a hung run stops early and records less); collective records are counted exactly.
EventEstimate estimateEvents(const Scenario& scenario);

// BadInput above `limit`: "this run would record up to 20,000,000,000 events (200,000 an iteration
// x 100,000 iterations, about 1.1 TB of memory); the limit is 20,000,000 (about 1.2 GB): ..." with
// what to reduce (the iterations to at most N, or the buckets of the step that records the most).
Status checkEventCount(const Scenario& scenario, std::uint64_t limit = kMaxRunEvents);

// 1234567 -> "1,234,567"
std::string withThousands(std::uint64_t n);

} // namespace shardlab
