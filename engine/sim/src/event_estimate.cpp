#include "shardlab/sim/event_estimate.h"

#include "shardlab/model/run_result.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace shardlab {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::uint64_t add(std::uint64_t a, std::uint64_t b) { return a > kMax - b ? kMax : a + b; }
std::uint64_t mul(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? kMax : r;
}

// What one record costs beyond its own struct: its group (int) and arrivals (double) on the heap,
// each allocation at least 32 bytes with malloc's header, and the simulator's matching slot.
constexpr std::uint64_t kMatchSlotBytes = 32;
std::uint64_t recordBytes(std::uint64_t members)
{
    auto block = [](std::uint64_t bytes) { return std::max<std::uint64_t>(32, (bytes + 8 + 15) / 16 * 16); };
    return sizeof(CollectiveRecord) + block(members * sizeof(int)) + block(members * sizeof(double)) + kMatchSlotBytes;
}

std::uint64_t groupSize(const Scenario& s, const Op& op)
{
    if (op.kind == OpKind::SendRecv)
        return 2;
    return op.group.empty() ? static_cast<std::uint64_t>(s.ranks()) : op.group.size();
}

} // namespace

std::string withThousands(std::uint64_t n)
{
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

// Per iteration, what the simulator records (engine/sim/src/simulator.cpp), counted from above:
//   compute op, b buckets: one span per bucket on each rank with a share of the work;
//   collective, b buckets, g members: one record per bucket; per member a communication span and,
//     when it arrived before the last member, a wait span; with overlapped collectives in the
//     program, a blocking one may first wait for the communication stream (one span per member);
//   with overlapped collectives, each rank's end of iteration may wait for its stream (one span);
//   unified memory: one paging span per rank; injected delays: one span per iteration they hit.
EventEstimate estimateEvents(const Scenario& s)
{
    EventEstimate e;
    e.iterations = std::max(0, s.iterations);
    e.ranks = s.ranks();
    const auto n = static_cast<std::uint64_t>(std::max(0, s.ranks()));
    const bool anyOverlap = std::any_of(s.program.begin(), s.program.end(),
                                        [](const Op& op) { return isCollective(op.kind) && op.overlap; });
    // How many ranks do a share of each compute step's work (the simulator records no span for a
    // rank with nothing to do).
    std::vector<std::uint64_t> computing(s.program.size(), 0);
    forEachComputeShare(s, [&](size_t i, const std::vector<double>& share) {
        computing[i] =
            static_cast<std::uint64_t>(std::count_if(share.begin(), share.end(), [](double x) { return x > 0; }));
    });
    for (size_t i = 0; i < s.program.size(); ++i) {
        const Op& op = s.program[i];
        const auto buckets = static_cast<std::uint64_t>(std::max(1, op.buckets));
        std::uint64_t spans = 0, records = 0;
        if (op.kind == OpKind::Compute) {
            spans = op.flops > 0 ? mul(buckets, computing[i]) : 0;
        } else {
            const std::uint64_t g = groupSize(s, op);
            records = buckets;
            spans = mul(mul(buckets, g), anyOverlap && !op.overlap ? 3 : 2);
            e.bytes =
                add(e.bytes, mul(mul(records, recordBytes(g)), static_cast<std::uint64_t>(std::max(1, s.iterations))));
        }
        e.spansPerIteration = add(e.spansPerIteration, spans);
        e.collectivesPerIteration = add(e.collectivesPerIteration, records);
        if (add(spans, records) > e.largestOpEvents) {
            e.largestOpEvents = add(spans, records);
            e.largestOp = static_cast<int>(i);
        }
    }
    if (anyOverlap)
        e.spansPerIteration = add(e.spansPerIteration, n);
    if (s.memoryMode == MemoryMode::Unified)
        e.spansPerIteration = add(e.spansPerIteration, n);
    for (const Delay& d : s.perturbations.delays) {
        if (d.ms <= 0)
            continue;
        if (d.iteration < 0)
            e.spansPerIteration = add(e.spansPerIteration, 1);
        else
            e.onceSpans = add(e.onceSpans, 1);
    }
    const auto iterations = static_cast<std::uint64_t>(e.iterations);
    e.spans = add(mul(e.spansPerIteration, iterations), e.onceSpans);
    e.collectives = mul(e.collectivesPerIteration, iterations);
    e.events = add(e.spans, e.collectives);
    e.bytes = add(e.bytes, mul(e.spans, sizeof(Span)));
    return e;
}

Status checkEventCount(const Scenario& s, std::uint64_t limit)
{
    const EventEstimate e = estimateEvents(s);
    if (e.events <= limit)
        return {};
    const std::uint64_t perIteration = add(e.spansPerIteration, e.collectivesPerIteration);
    // The limit's memory at this run's mix of spans and records.
    const double bytesPerEvent =
        static_cast<double>(e.bytes) / static_cast<double>(std::max<std::uint64_t>(1, e.events));
    const auto limitBytes = static_cast<Bytes>(bytesPerEvent * static_cast<double>(limit));
    // a count that saturated is more than 64 bits hold
    const auto upTo = [](std::uint64_t n) {
        return Message(n == kMax ? "error.piece.more_than" : "error.piece.up_to").with("count", withThousands(n));
    };
    const auto counted = [](const char* one, const char* many, std::uint64_t n) {
        return Message(n == 1 ? one : many).with("count", withThousands(n));
    };
    // What to reduce besides the iterations: the buckets of the step that records the most when it
    // has buckets and records at least half of an iteration, else the program's steps.
    Message step;
    const size_t steps = s.program.size();
    if (e.largestOp >= 0 && s.program[static_cast<size_t>(e.largestOp)].buckets > 1
        && 2 * e.largestOpEvents >= perIteration) {
        const Op& op = s.program[static_cast<size_t>(e.largestOp)];
        step = Message(op.name.empty() ? "error.piece.buckets_of_unnamed" : "error.piece.buckets_of")
                   .with("step", "$.program[" + std::to_string(e.largestOp) + "]")
                   .with("op", opName(op.kind))
                   .with("buckets", withThousands(static_cast<std::uint64_t>(op.buckets)))
                   .with("events", withThousands(e.largestOpEvents));
        if (!op.name.empty())
            step.arg("name", op.name);
    } else {
        step = counted("error.piece.step", "error.piece.steps", steps);
    }
    const std::uint64_t room = limit > e.onceSpans ? limit - e.onceSpans : 0;
    const std::uint64_t maxIterations = perIteration > 0 ? room / perIteration : 0;
    Message what = maxIterations >= 1 ? Message("error.piece.fewer_iterations")
                                            .with("count", withThousands(maxIterations))
                                            .with("piece_step", std::move(step))
                                      : Message("error.piece.even_one").with("piece_step", std::move(step));
    return badInput(
        Message("error.line.event_limit")
            .with("piece_events", upTo(e.events))
            .with("piece_per_iteration", upTo(perIteration))
            .with("piece_iterations",
                  counted("error.piece.iteration", "error.piece.iterations", static_cast<std::uint64_t>(e.iterations)))
            .with(
                "piece_ranks",
                Message(e.ranks == 1 ? "error.piece.rank" : "error.piece.ranks").with("count", std::to_string(e.ranks)))
            .with("bytes", formatBytes(e.bytes))
            .with("limit", withThousands(limit))
            .with("limit_bytes", formatBytes(limitBytes))
            .with("piece_what", std::move(what)));
}

} // namespace shardlab
