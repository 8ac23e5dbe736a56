// Splits a whole run into what each process of a multi-process run would have measured (the
// rank-part form of live_rank.h), each on its own clock: the inverse of mergeRankParts, so that
// a merged run can be checked against the run it came from.
#pragma once

#include "shardlab/cluster/trace_merge.h"

#include <cmath>
#include <limits>
#include <map>

namespace shardlab::test {

// Rank `rank`'s part of `whole`, with times on a clock that reads `offsetUs` ahead of rank 0's.
inline RankPart partOf(const RunResult& whole, int rank, double offsetUs)
{
    RankPart part;
    part.ranks = {rank};
    part.clock = exactClock(offsetUs);
    RunResult& run = part.run;
    run.mode = whole.mode;
    run.ranks = whole.ranks;
    run.devices = whole.devices;
    run.peakMemory = whole.peakMemory;
    run.pagingUs = whole.pagingUs;
    run.clockNote = whole.clockNote;
    for (IterationMark m : whole.iterations)
        run.iterations.push_back({m.beginUs + offsetUs, m.endUs + offsetUs});
    std::map<int, int> recordOf; // whole's record -> part's
    std::map<int, int> streamOf; // whole's record -> the stream it ran on for this rank (the highest)
    for (const Span& s : whole.spans)
        if (s.rank == rank && s.collective >= 0 && s.kind != SpanKind::Compute)
            streamOf[s.collective] = std::max(streamOf[s.collective], s.stream);
    for (size_t i = 0; i < whole.collectives.size(); ++i) {
        const CollectiveRecord& c = whole.collectives[i];
        size_t k = 0;
        while (k < c.group.size() && c.group[k] != rank)
            ++k;
        if (k == c.group.size())
            continue;
        CollectiveRecord mine = c;
        for (size_t j = 0; j < mine.arrivalUs.size(); ++j)
            mine.arrivalUs[j] = j == k ? c.arrivalUs[j] + offsetUs : std::numeric_limits<double>::quiet_NaN();
        mine.startUs = mine.arrivalUs[k];
        mine.endUs = c.endUs + offsetUs;
        mine.lastArrival = -1;
        const int index = static_cast<int>(run.collectives.size());
        recordOf[static_cast<int>(i)] = index;
        run.collectives.push_back(mine);
        // One undivided Comm span from arrival to end, as a process that cannot see the others records it.
        if (auto st = streamOf.find(static_cast<int>(i)); st != streamOf.end())
            run.spans.push_back({.rank = rank,
                                 .stream = st->second,
                                 .kind = SpanKind::Comm,
                                 .beginUs = mine.arrivalUs[k],
                                 .endUs = mine.endUs,
                                 .op = c.op,
                                 .iteration = c.iteration,
                                 .bucket = c.bucket,
                                 .collective = index});
    }
    // Everything else as measured: compute, and the compute stream waiting for the communication
    // stream (a span on a lower stream than the collective it waits for).
    for (const Span& s : whole.spans) {
        if (s.rank != rank)
            continue;
        const bool own = s.collective >= 0 && s.kind != SpanKind::Compute && s.stream == streamOf[s.collective];
        if (!own)
            run.spans.push_back({.rank = s.rank,
                                 .stream = s.stream,
                                 .kind = s.kind,
                                 .beginUs = s.beginUs + offsetUs,
                                 .endUs = s.endUs + offsetUs,
                                 .op = s.op,
                                 .iteration = s.iteration,
                                 .bucket = s.bucket,
                                 .collective = s.collective >= 0 ? recordOf.at(s.collective) : -1,
                                 .waitedFor = s.waitedFor,
                                 .detail = s.detail});
    }
    if (whole.hang) {
        run.hang = whole.hang;
    }
    return part;
}

// The first `count` iterations of a part, iteration by iteration (records, then spans, each in
// their order within an iteration), as the live executor hands a part over while it runs: the
// call for count k+1 only appends to the call for k.
inline RunResult firstIterations(const RunResult& part, int count)
{
    RunResult out = part;
    out.spans.clear();
    out.collectives.clear();
    out.iterations.clear();
    std::map<int, int> index;
    for (int it = 0; it < count; ++it) {
        for (size_t i = 0; i < part.collectives.size(); ++i)
            if (part.collectives[i].iteration == it) {
                index[static_cast<int>(i)] = static_cast<int>(out.collectives.size());
                out.collectives.push_back(part.collectives[i]);
            }
        for (Span s : part.spans)
            if (s.iteration == it) {
                s.collective = s.collective >= 0 ? index.at(s.collective) : -1;
                out.spans.push_back(s);
            }
        if (static_cast<size_t>(it) < part.iterations.size())
            out.iterations.push_back(part.iterations[static_cast<size_t>(it)]);
    }
    return out;
}

} // namespace shardlab::test
