#include "shardlab/cluster/trace_merge.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace shardlab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string groupText(const std::vector<int>& group)
{
    std::string s = "{";
    for (size_t i = 0; i < group.size() && i < 16; ++i)
        s += (i ? "," : "") + std::to_string(group[i]);
    return s + (group.size() > 16 ? ",...}" : "}");
}

// "all_reduce #3 on ranks {0,1} (step 2, iteration 0, 64 MB)"
Message describe(const CollectiveRecord& c)
{
    return Message("error.merge.record")
        .with("op", opName(c.kind))
        .with("sequence", c.sequence)
        .with("group", groupText(c.group))
        .with("step", c.op)
        .with("iteration", c.iteration)
        .with("bytes", formatBytes(c.bytes));
}

// One rank's time in one collective, collected from its part's spans.
struct RankTime {
    int stream = 0;
    double endUs = -kInf;
};

void shiftAll(RunResult& run, double by)
{
    for (Span& s : run.spans) {
        s.beginUs -= by;
        s.endUs -= by;
    }
    for (CollectiveRecord& c : run.collectives) {
        for (double& a : c.arrivalUs)
            a -= by;
        c.startUs -= by;
        c.endUs -= by;
    }
    for (IterationMark& m : run.iterations) {
        m.beginUs -= by;
        m.endUs -= by;
    }
}

} // namespace

double firstMomentOf(const RunResult& run)
{
    // Only the first iteration's entries count: a run merged iteration by iteration knows it after
    // its first iteration, and its spans, arrivals and marks are the earliest (every rank begins
    // there). Entries of no iteration (none in a live run) count too.
    int first = std::numeric_limits<int>::max();
    for (const Span& s : run.spans)
        first = std::min(first, s.iteration);
    for (const CollectiveRecord& c : run.collectives)
        first = std::min(first, c.iteration);
    double t0 = kInf;
    for (const Span& s : run.spans)
        if (s.iteration <= first)
            t0 = std::min(t0, s.beginUs);
    for (const CollectiveRecord& c : run.collectives)
        if (c.iteration <= first)
            for (double a : c.arrivalUs)
                t0 = std::min(t0, a);
    if (!run.iterations.empty())
        t0 = std::min(t0, run.iterations.front().beginUs);
    return t0;
}

Result<RunResult> mergeRankParts(std::vector<RankPart> parts, const MergeOptions& options)
{
    if (parts.empty())
        return runFailed(Message("error.merge.no_parts"));
    const int n = parts.front().run.ranks;
    if (n <= 0)
        return runFailed(Message("error.merge.no_rank"));
    std::vector<int> owner(static_cast<size_t>(n), -1);
    bool anyHang = false, live = false;
    for (size_t p = 0; p < parts.size(); ++p) {
        const RunResult& run = parts[p].run;
        if (run.ranks != n)
            return runFailed(Message("error.merge.sizes_differ")
                                 .with("ranks", groupText(parts[p].ranks))
                                 .with("count", run.ranks)
                                 .with("other", n));
        for (int r : parts[p].ranks) {
            if (r < 0 || r >= n)
                return runFailed(Message("error.merge.rank_outside").with("rank", r).with("size", n));
            if (owner[static_cast<size_t>(r)] >= 0)
                return runFailed(Message("error.merge.rank_twice").with("rank", r));
            owner[static_cast<size_t>(r)] = static_cast<int>(p);
        }
        anyHang = anyHang || run.hang.has_value();
        live = live || run.mode == RunMode::Live;
    }
    for (int r = 0; r < n; ++r)
        if (owner[static_cast<size_t>(r)] < 0)
            return runFailed(Message("error.merge.rank_missing").with("rank", r));
    for (RankPart& part : parts)
        applyClockFit(part.run, part.clock);

    // Collective records, matched by (group, sequence).
    std::vector<CollectiveRecord> recs;
    std::map<std::pair<std::vector<int>, int>, size_t> index;
    std::vector<std::vector<int>> partToMerged(parts.size());
    std::vector<int> firstRank; // per record: the rank whose process recorded it first
    for (size_t p = 0; p < parts.size(); ++p) {
        for (const CollectiveRecord& c : parts[p].run.collectives) {
            if (c.group.empty() || c.arrivalUs.size() != c.group.size())
                return runFailed(
                    Message("error.merge.arrivals").with("rank", parts[p].ranks.front()).with("record", describe(c)));
            bool mine = false;
            for (size_t k = 0; k < c.group.size(); ++k) {
                const int g = c.group[k];
                if (g < 0 || g >= n)
                    return runFailed(Message("error.merge.group_outside")
                                         .with("rank", parts[p].ranks.front())
                                         .with("record", describe(c)));
                if (owner[static_cast<size_t>(g)] == static_cast<int>(p)) {
                    mine = true;
                    if (!std::isfinite(c.arrivalUs[k]))
                        return runFailed(
                            Message("error.merge.no_own_arrival").with("rank", g).with("record", describe(c)));
                }
            }
            if (!mine)
                return runFailed(Message("error.merge.not_a_member")
                                     .with("ranks", groupText(parts[p].ranks))
                                     .with("record", describe(c)));
            auto [it, fresh] = index.try_emplace({c.group, c.sequence}, recs.size());
            if (fresh) {
                firstRank.push_back(parts[p].ranks.front()); // who recorded it first, for the message below
                CollectiveRecord m = c;
                std::fill(m.arrivalUs.begin(), m.arrivalUs.end(), std::numeric_limits<double>::quiet_NaN());
                m.endUs = -kInf;
                m.wrongElements = 0;
                recs.push_back(std::move(m));
            }
            CollectiveRecord& m = recs[it->second];
            if (m.kind != c.kind || m.bytes != c.bytes || m.op != c.op || m.iteration != c.iteration
                || m.bucket != c.bucket)
                return runFailed(Message("error.merge.disagree")
                                     .with("sequence", c.sequence)
                                     .with("group", groupText(c.group))
                                     .with("first", firstRank[it->second])
                                     .with("theirs", describe(m))
                                     .with("rank", parts[p].ranks.front())
                                     .with("mine", describe(c)));
            for (size_t k = 0; k < c.group.size(); ++k)
                if (owner[static_cast<size_t>(c.group[k])] == static_cast<int>(p))
                    m.arrivalUs[k] = c.arrivalUs[k];
            m.endUs = std::max(m.endUs, c.endUs);
            m.wrongElements += c.wrongElements;
            partToMerged[p].push_back(static_cast<int>(it->second));
        }
    }
    // Complete each record; one that some member never recorded cannot be drawn.
    std::vector<bool> dropped(recs.size(), false);
    for (size_t i = 0; i < recs.size(); ++i) {
        CollectiveRecord& m = recs[i];
        double latest = -kInf, earliest = kInf;
        for (size_t k = 0; k < m.group.size(); ++k) {
            if (std::isnan(m.arrivalUs[k])) {
                if (!anyHang)
                    return runFailed(
                        Message("error.merge.not_recorded").with("rank", m.group[k]).with("record", describe(m)));
                dropped[i] = true;
                break;
            }
            latest = std::max(latest, m.arrivalUs[k]);
            earliest = std::min(earliest, m.arrivalUs[k]);
        }
        if (dropped[i])
            continue;
        m.startUs = latest;
        m.endUs = std::max(m.endUs, latest);
        m.lastArrival = -1;
        if (latest - earliest > options.tieUs)
            for (size_t k = 0; k < m.group.size(); ++k)
                if (m.arrivalUs[k] >= latest - 1e-9) {
                    m.lastArrival = m.group[k];
                    break;
                }
    }
    // Order by iteration, then start (then communicator and sequence), and renumber: iteration by
    // iteration, so that the merge of the first k iterations is the beginning of the whole merge
    // (a streamed run sends it one iteration at a time).
    std::vector<size_t> order;
    for (size_t i = 0; i < recs.size(); ++i)
        if (!dropped[i])
            order.push_back(i);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const CollectiveRecord &x = recs[a], &y = recs[b];
        return std::tie(x.iteration, x.startUs, x.group, x.sequence)
               < std::tie(y.iteration, y.startUs, y.group, y.sequence);
    });
    std::vector<int> newIndex(recs.size(), -1);
    RunResult out;
    for (size_t i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = static_cast<int>(i);
        out.collectives.push_back(recs[order[i]]);
    }

    // Spans: others as measured; each rank's time in a collective redrawn as wait + comm. A
    // collective runs on the highest stream its spans use (1 when overlapped); spans of it on a
    // lower stream are the compute stream waiting for the communication stream, kept as measured.
    std::map<std::pair<int, int>, int> collectiveStream; // (rank, merged index) -> stream
    auto mergedOf = [&](size_t p, int partIndex) {
        return newIndex[static_cast<size_t>(partToMerged[p][static_cast<size_t>(partIndex)])];
    };
    for (size_t p = 0; p < parts.size(); ++p) {
        const int partColls = static_cast<int>(parts[p].run.collectives.size());
        for (const Span& s : parts[p].run.spans) {
            if (s.rank < 0 || s.rank >= n || owner[static_cast<size_t>(s.rank)] != static_cast<int>(p))
                return runFailed(
                    Message("error.merge.foreign_span").with("ranks", groupText(parts[p].ranks)).with("rank", s.rank));
            if (s.collective >= partColls)
                return runFailed(Message("error.merge.span_record")
                                     .with("rank", s.rank)
                                     .with("index", s.collective)
                                     .with("count", partColls));
            if (s.collective >= 0 && s.kind != SpanKind::Compute && mergedOf(p, s.collective) >= 0) {
                auto [it, fresh] = collectiveStream.try_emplace({s.rank, mergedOf(p, s.collective)}, s.stream);
                if (!fresh)
                    it->second = std::max(it->second, s.stream);
            }
        }
    }
    std::map<std::pair<int, int>, RankTime> inCollective; // (rank, merged index)
    for (size_t p = 0; p < parts.size(); ++p) {
        for (Span s : parts[p].run.spans) {
            const int merged = s.collective >= 0 ? mergedOf(p, s.collective) : -1;
            if (s.collective >= 0 && merged < 0) { // a collective that never completed everywhere: as measured
                s.collective = -1;
                s.waitedFor = -1;
                out.spans.push_back(s);
                continue;
            }
            s.collective = merged;
            if (merged < 0 || s.kind == SpanKind::Compute || s.stream < collectiveStream[{s.rank, merged}]) {
                out.spans.push_back(s);
                continue;
            }
            RankTime& rt = inCollective[{s.rank, merged}];
            rt.stream = s.stream;
            rt.endUs = std::max(rt.endUs, s.endUs);
        }
    }
    for (const auto& [key, rt] : inCollective) {
        const auto [rank, merged] = key;
        const CollectiveRecord& c = out.collectives[static_cast<size_t>(merged)];
        const size_t k = static_cast<size_t>(std::find(c.group.begin(), c.group.end(), rank) - c.group.begin());
        if (k >= c.group.size())
            return runFailed(Message("error.merge.time_outside").with("rank", rank).with("record", describe(c)));
        const double arrival = c.arrivalUs[k];
        const double end = std::max(rt.endUs, arrival);
        // Within the tie nobody is known to have waited: the whole time counts as communication.
        const bool waited = c.startUs - arrival > options.tieUs;
        const double commBegin = waited ? std::min(c.startUs, end) : arrival;
        if (waited)
            out.spans.push_back({.rank = rank,
                                 .stream = rt.stream,
                                 .kind = SpanKind::Wait,
                                 .beginUs = arrival,
                                 .endUs = commBegin,
                                 .op = c.op,
                                 .iteration = c.iteration,
                                 .bucket = c.bucket,
                                 .collective = merged,
                                 .waitedFor = c.lastArrival});
        if (end > commBegin)
            out.spans.push_back({.rank = rank,
                                 .stream = rt.stream,
                                 .kind = SpanKind::Comm,
                                 .beginUs = commBegin,
                                 .endUs = end,
                                 .op = c.op,
                                 .iteration = c.iteration,
                                 .bucket = c.bucket,
                                 .collective = merged});
    }
    std::stable_sort(out.spans.begin(), out.spans.end(), [](const Span& a, const Span& b) {
        return std::tie(a.iteration, a.rank, a.beginUs, a.stream) < std::tie(b.iteration, b.rank, b.beginUs, b.stream);
    });

    // Iterations: from the earliest begin to the latest end over the processes.
    size_t iterations = 0;
    for (const RankPart& part : parts)
        iterations = std::max(iterations, part.run.iterations.size());
    out.iterations.assign(iterations, {kInf, -kInf});
    for (const RankPart& part : parts)
        for (size_t i = 0; i < part.run.iterations.size(); ++i) {
            out.iterations[i].beginUs = std::min(out.iterations[i].beginUs, part.run.iterations[i].beginUs);
            out.iterations[i].endUs = std::max(out.iterations[i].endUs, part.run.iterations[i].endUs);
        }

    out.mode = live ? RunMode::Live : RunMode::Simulated;
    out.ranks = n;
    out.clockNote = parts.front().run.clockNote;
    // every process's notes (its live plan's scaled sizes, a raised watchdog), each once, in the
    // order of the parts: a figure measured at scaled sizes must say so in the merged run too
    for (const RankPart& part : parts)
        for (const Message& note : part.run.notes)
            if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end())
                out.notes.push_back(note);
    out.devices.assign(static_cast<size_t>(n), "");
    out.peakMemory.assign(static_cast<size_t>(n), 0);
    bool paging = false;
    for (const RankPart& part : parts)
        paging = paging || !part.run.pagingUs.empty();
    if (paging)
        out.pagingUs.assign(static_cast<size_t>(n), 0.0);
    for (int r = 0; r < n; ++r) {
        const RunResult& run = parts[static_cast<size_t>(owner[static_cast<size_t>(r)])].run;
        const size_t i = static_cast<size_t>(r);
        if (i < run.devices.size())
            out.devices[i] = run.devices[i];
        if (i < run.peakMemory.size())
            out.peakMemory[i] = run.peakMemory[i];
        if (paging && i < run.pagingUs.size())
            out.pagingUs[i] = run.pagingUs[i];
    }

    if (anyHang) {
        HangReport h;
        h.lastCompleted.assign(static_cast<size_t>(n), -1);
        h.pending.assign(static_cast<size_t>(n), "");
        h.pendingMessages.assign(static_cast<size_t>(n), Message());
        std::set<std::string> explanations;
        std::vector<Message> explained; // each process's explanation, once
        for (int r = 0; r < n; ++r) {
            const RunResult& run = parts[static_cast<size_t>(owner[static_cast<size_t>(r)])].run;
            const size_t i = static_cast<size_t>(r);
            if (run.hang && i < run.hang->lastCompleted.size() && i < run.hang->pending.size()) {
                h.lastCompleted[i] = run.hang->lastCompleted[i];
                h.pending[i] = run.hang->pending[i];
                h.pendingMessages[i] = run.hang->pendingMessage(i);
                if (!run.hang->explanation.empty() && explanations.insert(run.hang->explanation).second)
                    explained.push_back(run.hang->explanationMessage());
                if (h.firstMismatchRank < 0 && run.hang->firstMismatchRank >= 0)
                    h.firstMismatchRank = run.hang->firstMismatchRank;
            } else {
                int done = 0;
                for (const CollectiveRecord& c : out.collectives)
                    done += std::count(c.group.begin(), c.group.end(), r) > 0 ? 1 : 0;
                h.lastCompleted[i] = done - 1;
                h.pendingMessages[i] = Message("merge.pending.finished");
                h.pending[i] = english(h.pendingMessages[i]);
            }
        }
        // "a; b; c"
        Message why;
        for (size_t k = explained.size(); k-- > 0;)
            why = why.empty()
                      ? std::move(explained[k])
                      : Message("merge.hang.and").with("first", std::move(explained[k])).with("rest", std::move(why));
        const auto [lo, hi] = std::minmax_element(h.lastCompleted.begin(), h.lastCompleted.end());
        if (*lo != *hi) {
            const int behind = static_cast<int>(lo - h.lastCompleted.begin());
            h.firstMismatchRank = behind;
            Message behindMessage =
                Message("merge.hang.behind").with("rank", behind).with("last", *lo).with("reached", *hi);
            why = why.empty()
                      ? std::move(behindMessage)
                      : Message("merge.hang.and").with("first", std::move(behindMessage)).with("rest", std::move(why));
        }
        h.explanationWording = why.empty() ? Message("merge.hang.incomplete") : std::move(why);
        h.explanation = english(h.explanationWording);
        out.hang = std::move(h);
    }

    if (options.startAtZero) {
        const double t0 = firstMomentOf(out);
        if (std::isfinite(t0))
            shiftAll(out, t0);
    }
    return out;
}

} // namespace shardlab
