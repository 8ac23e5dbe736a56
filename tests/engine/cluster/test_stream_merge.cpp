// A multi-process run merged iteration by iteration as it is streamed (stream_merge.h) is, entry
// for entry, the merge of the whole parts at the end.
#include "../rank_parts.h"
#include "../test_helpers.h"

#include "shardlab/cluster/stream_merge.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {

// Spans, records and marks only: what the chunks carry.
RunResult streamedEntriesOf(const RunResult& run)
{
    RunResult t;
    t.mode = run.mode;
    t.ranks = run.ranks;
    t.spans = run.spans;
    t.collectives = run.collectives;
    t.iterations = run.iterations;
    return t;
}

struct FourProcesses {
    RunResult whole;
    std::vector<RankPart> parts; // iteration by iteration, each on its own clock
    std::vector<ProcessClockFit> fits;
    double tieUs = 0;
};

FourProcesses fourProcessesOfStraggler()
{
    FourProcesses f;
    Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    s.iterations = 3;
    f.whole = test::simulated(s);
    f.whole.mode = RunMode::Live;
    const double offsets[] = {0, 2.5e6, -7.75e5, 123.25};
    for (int r = 0; r < 4; ++r) {
        RankPart p = test::partOf(f.whole, r, offsets[r]);
        p.run = test::firstIterations(p.run, 3);
        // the estimate is off by a fraction of a microsecond, as a measured one is
        ProcessClockFit fit;
        fit.before.offsetUs = offsets[r] + (r == 0 ? 0 : 0.375 * r);
        fit.before.errorUs = r == 0 ? 0 : 1.5;
        p.clock = fit;
        f.fits.push_back(fit);
        f.tieUs = std::max(f.tieUs, fit.errorUs());
        f.parts.push_back(p);
    }
    return f;
}

} // namespace

TEST(StreamMerge, IterationByIterationIsTheWholeMergeEntryForEntry)
{
    FourProcesses f = fourProcessesOfStraggler();
    MergeOptions mo;
    mo.tieUs = f.tieUs;
    auto whole = mergeRankParts(f.parts, mo);
    ASSERT_TRUE(whole.ok()) << whole.error().message;
    ASSERT_EQ(whole->iterations.size(), 3u);

    IterationMerger merger(4, f.fits, f.tieUs);
    std::vector<size_t> sent(4 * 3, 0); // per rank: spans, records, marks sent
    for (int it = 0; it < 3; ++it) {
        for (int r = 0; r < 4; ++r) {
            const RunResult soFar = test::firstIterations(f.parts[static_cast<size_t>(r)].run, it + 1);
            size_t* s = &sent[static_cast<size_t>(r) * 3];
            merger.add(r, entriesSince(soFar, s[0], s[1], s[2]));
            s[0] = soFar.spans.size();
            s[1] = soFar.collectives.size();
            s[2] = soFar.iterations.size();
            auto n = merger.mergeReady();
            ASSERT_TRUE(n.ok()) << n.error().message;
            // an iteration is merged when the last process's has arrived, not before
            EXPECT_EQ(*n, r == 3 ? 1 : 0) << "iteration " << it << ", rank " << r;
        }
        EXPECT_EQ(merger.merged(), it + 1);
    }
    EXPECT_EQ(serializeRunResult(merger.soFar()), serializeRunResult(streamedEntriesOf(*whole)));
    // and it is the run that was measured, within the offsets' estimation errors (at most 1.125 us)
    EXPECT_EQ(merger.soFar().collectives.size(), f.whole.collectives.size());
    EXPECT_NEAR(merger.soFar().iterations.back().endUs - merger.soFar().iterations.front().beginUs,
                f.whole.iterations.back().endUs - f.whole.iterations.front().beginUs, 1.125 + 1e-9);
}

TEST(StreamMerge, EntriesSinceCountRecordsFromTheFirstSent)
{
    RunResult run;
    run.ranks = 2;
    run.collectives.resize(3);
    run.spans = {
        {.rank = 0, .kind = SpanKind::Comm, .beginUs = 0, .endUs = 1, .op = 1, .collective = 0},
        {.rank = 0, .kind = SpanKind::Comm, .beginUs = 2, .endUs = 3, .op = 1, .iteration = 1, .collective = 2},
        {.rank = 1, .kind = SpanKind::Compute, .beginUs = 3, .endUs = 4, .iteration = 1}};
    run.iterations = {{0, 1}, {2, 4}};
    const RunResult next = entriesSince(run, 1, 2, 1);
    ASSERT_EQ(next.spans.size(), 2u);
    EXPECT_EQ(next.spans[0].collective, 0); // record 2 is the first sent now
    EXPECT_EQ(next.spans[1].collective, -1);
    EXPECT_EQ(next.collectives.size(), 1u);
    ASSERT_EQ(next.iterations.size(), 1u);
    EXPECT_DOUBLE_EQ(next.iterations[0].beginUs, 2);
}
