#include "shardlab/live/live_timeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace shardlab {

namespace {

CollectiveRecord recordOf(const LiveCollective& c)
{
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
    return rec;
}

// Phases become spans (exposed communication joined to its collective, `base` + its index), and
// the spans appended since `firstSpan` (this iteration's) are put in rank, then time order.
// `recordOfCollective` maps an index into the LiveCollective list to its record (-1: none).
void appendPhases(RunResult& run, size_t firstSpan, const std::vector<LivePhase>& phases,
                  const std::vector<int>& recordOfCollective)
{
    for (const LivePhase& p : phases) {
        if (p.endUs <= p.beginUs)
            continue;
        Span s{.rank = p.rank,
               .stream = p.stream,
               .kind = p.kind,
               .beginUs = p.beginUs,
               .endUs = p.endUs,
               .op = p.op,
               .iteration = p.iteration,
               .bucket = p.bucket,
               .detail = p.detail};
        if (p.kind == SpanKind::Comm && p.collective >= 0 && p.collective < static_cast<int>(recordOfCollective.size()))
            s.collective = recordOfCollective[static_cast<size_t>(p.collective)];
        run.spans.push_back(s);
    }
    std::stable_sort(
        run.spans.begin() + static_cast<std::ptrdiff_t>(firstSpan), run.spans.end(),
        [](const Span& a, const Span& b) { return a.rank != b.rank ? a.rank < b.rank : a.beginUs < b.beginUs; });
}

using TimelineAppender = void (*)(RunResult&, const std::vector<LivePhase>&, const std::vector<LiveCollective>&,
                                  double);

// Cuts phases and collectives into iterations (increasing; a phase keeps its collective when that
// collective is in the same iteration) and appends each with `append`.
void byIteration(RunResult& run, const std::vector<LivePhase>& phases, const std::vector<LiveCollective>& collectives,
                 double tieUs, TimelineAppender append)
{
    std::map<int, std::pair<std::vector<LivePhase>, std::vector<LiveCollective>>> cut;
    std::vector<int> indexInIteration(collectives.size(), -1);
    for (size_t i = 0; i < collectives.size(); ++i) {
        auto& colls = cut[collectives[i].iteration].second;
        indexInIteration[i] = static_cast<int>(colls.size());
        colls.push_back(collectives[i]);
    }
    for (LivePhase p : phases) {
        const bool known = p.collective >= 0 && p.collective < static_cast<int>(collectives.size());
        p.collective = known && collectives[static_cast<size_t>(p.collective)].iteration == p.iteration
                           ? indexInIteration[static_cast<size_t>(p.collective)]
                           : -1;
        cut[p.iteration].first.push_back(p);
    }
    for (const auto& [iteration, part] : cut)
        append(run, part.first, part.second, tieUs);
}

void appendRankPartTied(RunResult& run, const std::vector<LivePhase>& phases,
                        const std::vector<LiveCollective>& collectives, double)
{
    appendRankPart(run, phases, collectives);
}

} // namespace

void assembleTimeline(RunResult& run, const std::vector<LivePhase>& phases,
                      const std::vector<LiveCollective>& collectives, double tieUs)
{
    byIteration(run, phases, collectives, tieUs, &appendTimeline);
}

void assembleRankPart(RunResult& run, const std::vector<LivePhase>& phases,
                      const std::vector<LiveCollective>& collectives)
{
    byIteration(run, phases, collectives, 0, &appendRankPartTied);
}

void appendTimeline(RunResult& run, const std::vector<LivePhase>& phases,
                    const std::vector<LiveCollective>& collectives, double tieUs)
{
    const size_t firstSpan = run.spans.size();
    std::vector<int> records;
    for (const LiveCollective& c : collectives) {
        CollectiveRecord rec = recordOf(c);
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
        records.push_back(index);
        run.collectives.push_back(rec);
        for (size_t k = 0; k < c.group.size(); ++k) {
            const int stream = k < c.streams.size() ? c.streams[k] : 0;
            const double a = c.arrivalUs[k];
            if (last > a)
                run.spans.push_back({.rank = c.group[k],
                                     .stream = stream,
                                     .kind = SpanKind::Wait,
                                     .beginUs = a,
                                     .endUs = last,
                                     .op = c.op,
                                     .iteration = c.iteration,
                                     .bucket = c.bucket,
                                     .collective = index,
                                     .waitedFor = rec.lastArrival});
            // A member's own end can read a hair before the last arrival within the clock error.
            const double e = std::max(c.endUs[k], last);
            if (e > last)
                run.spans.push_back({.rank = c.group[k],
                                     .stream = stream,
                                     .kind = SpanKind::Comm,
                                     .beginUs = last,
                                     .endUs = e,
                                     .op = c.op,
                                     .iteration = c.iteration,
                                     .bucket = c.bucket,
                                     .collective = index});
        }
    }
    appendPhases(run, firstSpan, phases, records);
}

void appendRankPart(RunResult& run, const std::vector<LivePhase>& phases,
                    const std::vector<LiveCollective>& collectives)
{
    const size_t firstSpan = run.spans.size();
    std::vector<int> records;
    for (const LiveCollective& c : collectives) {
        records.push_back(-1);
        CollectiveRecord rec = recordOf(c);
        double arrival = -std::numeric_limits<double>::infinity(), end = arrival;
        for (size_t k = 0; k < c.group.size(); ++k)
            if (k < c.arrivalUs.size() && !std::isnan(c.arrivalUs[k])) {
                arrival = std::max(arrival, c.arrivalUs[k]);
                end = std::max(
                    {end, c.arrivalUs[k], k < c.endUs.size() && !std::isnan(c.endUs[k]) ? c.endUs[k] : arrival});
            }
        if (!std::isfinite(arrival))
            continue; // no member of this process measured it
        rec.startUs = arrival;
        rec.endUs = end;
        rec.lastArrival = -1; // who came last is for rank 0 to find out
        const int index = static_cast<int>(run.collectives.size());
        records.back() = index;
        run.collectives.push_back(rec);
        for (size_t k = 0; k < c.group.size(); ++k) {
            if (k >= c.arrivalUs.size() || std::isnan(c.arrivalUs[k]))
                continue;
            const int stream = k < c.streams.size() ? c.streams[k] : 0;
            const double e =
                k < c.endUs.size() && !std::isnan(c.endUs[k]) ? std::max(c.endUs[k], c.arrivalUs[k]) : c.arrivalUs[k];
            run.spans.push_back({.rank = c.group[k],
                                 .stream = stream,
                                 .kind = SpanKind::Comm,
                                 .beginUs = c.arrivalUs[k],
                                 .endUs = e,
                                 .op = c.op,
                                 .iteration = c.iteration,
                                 .bucket = c.bucket,
                                 .collective = index});
        }
    }
    appendPhases(run, firstSpan, phases, records);
}

HangReport explainLiveHang(const std::vector<int>& lastCompleted, const std::vector<std::string>& pending,
                           const std::vector<LivePendingCall>& firstStuck, int iteration, double watchdogMs,
                           const std::vector<Message>& pendingMessages)
{
    HangReport h;
    h.lastCompleted = lastCompleted;
    h.pending = pending;
    if (pendingMessages.size() == pending.size())
        h.pendingMessages = pendingMessages;
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
    Message why = Message("live.hang.watchdog").with("iteration", iteration + 1).with("ms", number("%.0f", watchdogMs));
    const size_t first = static_cast<size_t>(h.firstMismatchRank);
    if (h.firstMismatchRank >= 0 && first < pending.size() && !pending[first].empty())
        why = Message("live.hang.first_differs")
                  .with("watchdog", std::move(why))
                  .with("rank", h.firstMismatchRank)
                  .with("pending", h.pendingMessage(first));
    else if (h.firstMismatchRank >= 0) // a rank another process drives: what it does is not known here
        why = Message("live.hang.first_differs_elsewhere")
                  .with("watchdog", std::move(why))
                  .with("rank", h.firstMismatchRank);
    else
        why = Message("live.hang.same_call").with("watchdog", std::move(why));
    h.explanation = english(why);
    h.explanationWording = std::move(why);
    return h;
}

} // namespace shardlab
