#include "shardlab/live_timeline.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace shardlab {

void assembleTimeline(RunResult& run, const std::vector<LivePhase>& phases, const std::vector<LiveCollective>& collectives,
                      double tieUs)
{
    const int base = static_cast<int>(run.collectives.size());
    for (const LiveCollective& c : collectives) {
        CollectiveRecord rec;
        rec.op = c.op;
        rec.iteration = c.iteration;
        rec.bucket = c.bucket;
        rec.sequence = c.sequence;
        rec.kind = c.kind;
        rec.bytes = c.bytes;
        rec.group = c.group;
        rec.arrivalUs = c.arrivalUs;
        rec.algorithm = Algorithm::Auto; // NCCL's tuner chose; it does not say what
        rec.protocol = Protocol::Simple;
        rec.wrongElements = c.wrong;
        double first = 0, last = 0, end = 0;
        int lastRank = -1;
        for (size_t k = 0; k < c.arrivalUs.size(); ++k) {
            const double a = c.arrivalUs[k];
            if (k == 0 || a < first)
                first = a;
            if (k == 0 || a > last) {
                last = a;
                lastRank = c.group[k];
            }
            end = k == 0 ? c.endUs[k] : std::max(end, c.endUs[k]);
        }
        rec.startUs = last;
        rec.endUs = std::max(end, last);
        rec.lastArrival = last - first > tieUs ? lastRank : -1;
        const int index = static_cast<int>(run.collectives.size());
        run.collectives.push_back(rec);
        for (size_t k = 0; k < c.group.size(); ++k) {
            const int stream = k < c.streams.size() ? c.streams[k] : 0;
            const double a = c.arrivalUs[k];
            if (last > a)
                run.spans.push_back({c.group[k], stream, SpanKind::Wait, a, last, c.op, c.iteration, c.bucket, index,
                                     rec.lastArrival});
            // A member's own end can read a hair before the last arrival within the clock error.
            const double e = std::max(c.endUs[k], last);
            if (e > last)
                run.spans.push_back({c.group[k], stream, SpanKind::Comm, last, e, c.op, c.iteration, c.bucket, index, -1});
        }
    }
    for (const LivePhase& p : phases) {
        if (p.endUs <= p.beginUs)
            continue;
        Span s{p.rank, p.stream, p.kind, p.beginUs, p.endUs, p.op, p.iteration, p.bucket, -1, -1, p.detail};
        if (p.kind == SpanKind::Comm && p.collective >= 0)
            s.collective = base + p.collective;
        run.spans.push_back(s);
    }
    std::stable_sort(run.spans.begin(), run.spans.end(), [](const Span& a, const Span& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.beginUs < b.beginUs;
    });
}

HangReport explainLiveHang(const std::vector<int>& lastCompleted, const std::vector<std::string>& pending,
                           const std::vector<LivePendingCall>& firstStuck, int iteration, double watchdogMs)
{
    HangReport h;
    h.lastCompleted = lastCompleted;
    h.pending = pending;
    std::map<std::pair<int, Bytes>, int> votes;
    for (const LivePendingCall& c : firstStuck)
        if (c.present)
            ++votes[{static_cast<int>(c.kind), c.bytes}];
    if (!votes.empty()) {
        const auto majority = std::max_element(votes.begin(), votes.end(), [](const auto& x, const auto& y) {
                                  return x.second < y.second;
                              })->first;
        for (const LivePendingCall& c : firstStuck)
            if (!c.present || static_cast<int>(c.kind) != majority.first || c.bytes != majority.second) {
                h.firstMismatchRank = c.rank;
                break;
            }
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, "the watchdog aborted the run in iteration %d after a collective made no progress for %.0f ms",
                  iteration, watchdogMs);
    h.explanation = buf;
    if (h.firstMismatchRank >= 0 && static_cast<size_t>(h.firstMismatchRank) < pending.size())
        h.explanation += "; rank " + std::to_string(h.firstMismatchRank) + " is the first that differs ("
                         + pending[static_cast<size_t>(h.firstMismatchRank)] + ")";
    else
        h.explanation += "; every member made the same call, so a rank or link stopped making progress";
    return h;
}

} // namespace shardlab
