// Rank 0's side of a multi-process run streamed as it happens (`shardlab live --stream` under a
// launcher, docs/remote.md "Slurm"): every process sends each iteration of its part as it
// completes; once every process's iteration k has arrived, rank 0 merges it (mergeRankParts, on
// the clocks given) and appends it to the merged run so far, which then goes out as one chunk.
//
// Why the chunks are the final run's first entries: the merge orders everything iteration by
// iteration, each iteration's merge reads only that iteration's entries, and the shift that puts
// the run's start at 0 comes from the first iteration (firstMomentOf). So, with the same clock
// fits, merging iteration by iteration and appending gives entry for entry (to the last bit) what
// mergeRankParts of the whole parts gives; tests/engine/cluster/test_stream_merge.cpp checks it.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/cluster/trace_merge.h"

#include <deque>
#include <vector>

namespace shardlab {

// The entries of `run` after its first `spans`, `collectives` and `iterations` (what a process
// sends when an iteration completes): a run of their own whose spans' collective indices count
// from the first record sent (-1 stays -1; an index of an earlier record, which an iteration's span
// never holds, becomes -1).
RunResult entriesSince(const RunResult& run, size_t spans, size_t collectives, size_t iterations);

class IterationMerger {
public:
    // `fits[r]`: rank r's clock onto rank 0's, for every iteration (see above: fixed for the run).
    IterationMerger(int ranks, std::vector<ProcessClockFit> fits, double tieUs);

    // Rank `from`'s next iteration: entriesSince of its part (one iteration mark, the spans and
    // records of that iteration).
    void add(int from, RunResult iteration);
    // Merges every iteration that every rank has sent, in order, and appends it to soFar().
    // Returns how many were merged by this call (0: some rank's is still on its way).
    Result<int> mergeReady();

    const RunResult& soFar() const { return m_soFar; }
    int merged() const { return static_cast<int>(m_soFar.iterations.size()); }

private:
    int m_ranks;
    std::vector<ProcessClockFit> m_fits;
    double m_tieUs;
    std::vector<std::deque<RunResult>> m_pending; // per rank, iterations received and not merged
    RunResult m_soFar;
    double m_originUs = 0; // rank 0's clock at the run's start (from the first iteration)
};

} // namespace shardlab
