// What a run produced, simulated or measured: the per-rank timeline on one clock and the record
// of every collective. Plain values: safe to copy to another thread.
#pragma once

#include "shardlab/model/enum_names.h"
#include "shardlab/model/program.h"

#include "shardlab/text/message.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

enum class RunMode { Simulated, Live };
// The one spelling of a run's mode in every file ShardLab writes and reads (result files, run
// streams, traces, --json summaries): "sim" or "live".
inline constexpr EnumName<RunMode> kRunModeNames[] = {{RunMode::Simulated, "sim"}, {RunMode::Live, "live"}};
static_assert(listsEveryValueInOrder(kRunModeNames, RunMode::Live));
constexpr const char* runModeName(RunMode mode) { return nameIn(kRunModeNames, mode); }
constexpr std::optional<RunMode> runModeFromName(std::string_view name) { return valueIn(kRunModeNames, name); }

enum class SpanKind { Compute, Comm, Wait };
inline constexpr EnumName<SpanKind> kSpanKindNames[] = {
    {SpanKind::Compute, "compute"}, {SpanKind::Comm, "comm"}, {SpanKind::Wait, "wait"}};
static_assert(listsEveryValueInOrder(kSpanKindNames, SpanKind::Wait));
constexpr const char* spanKindName(SpanKind kind) { return nameIn(kSpanKindNames, kind); }
constexpr std::optional<SpanKind> spanKindFromName(std::string_view name) { return valueIn(kSpanKindNames, name); }

// Compute spans that are not the program's own work.
enum class SpanDetail : unsigned char { None, InjectedDelay, Paging };
inline constexpr EnumName<SpanDetail> kSpanDetailNames[] = {
    {SpanDetail::None, "none"}, {SpanDetail::InjectedDelay, "injected_delay"}, {SpanDetail::Paging, "paging"}};
static_assert(listsEveryValueInOrder(kSpanDetailNames, SpanDetail::Paging));
constexpr const char* spanDetailName(SpanDetail detail) { return nameIn(kSpanDetailNames, detail); }
constexpr std::optional<SpanDetail> spanDetailFromName(std::string_view name)
{
    return valueIn(kSpanDetailNames, name);
}

struct Span {
    int rank = 0;
    int stream = 0; // 0: compute stream, 1: communication stream (overlapped ops)
    SpanKind kind = SpanKind::Compute;
    double beginUs = 0;
    double endUs = 0;
    int op = 0; // program index
    int iteration = 0;
    int bucket = 0;
    int collective = -1; // index into RunResult::collectives; -1 for compute
    int waitedFor = -1;  // Wait spans: the rank that arrived last
    SpanDetail detail = SpanDetail::None;
    double durationUs() const { return endUs - beginUs; }
};

struct CollectiveRecord {
    int op = 0;
    int iteration = 0;
    int bucket = 0;
    int sequence = 0; // per communicator (group), from 0, as a flight recorder counts
    OpKind kind = OpKind::AllReduce;
    Bytes bytes = 0; // nccl-tests size
    std::vector<int> group;
    std::vector<double> arrivalUs; // per group member, same order as group
    double startUs = 0;            // the last arrival
    double endUs = 0;
    int lastArrival = -1; // rank
    Algorithm algorithm = Algorithm::Ring;
    Protocol protocol = Protocol::Simple;
    int wrongElements = 0; // live runs: elements that failed verification (#wrong)
    double durationUs() const { return endUs - startUs; }
};

struct IterationMark {
    double beginUs = 0;
    double endUs = 0;
};

// A collective that never completed. Ranks are lined up by the sequence number of their last
// completed collective, as PyTorch's flight recorder does.
struct HangReport {
    std::vector<int> lastCompleted; // per rank: sequence number of the last completed collective (-1: none)
    // "last completed collective #3", or "no collective completed yet" for -1.
    static std::string lastCompletedText(int sequence) { return english(lastCompletedMessage(sequence)); }
    static Message lastCompletedMessage(int sequence)
    {
        return sequence < 0 ? Message("hang.last_completed.none")
                            : Message("hang.last_completed").with("number", sequence);
    }
    std::vector<std::string> pending; // per rank: what it is blocked in, in words (English)
    int firstMismatchRank = -1;
    std::string explanation; // English
    // The same sentences as data (text/message.h), to be worded in the user's language. Empty
    // where the report came from somewhere that only has the English (an older result file):
    // pendingMessage() and explanationMessage() then give the English verbatim.
    std::vector<Message> pendingMessages;
    Message explanationWording;
    Message pendingMessage(size_t rank) const
    {
        if (rank < pendingMessages.size() && !pendingMessages[rank].empty())
            return pendingMessages[rank];
        return verbatim(rank < pending.size() ? pending[rank] : std::string());
    }
    Message explanationMessage() const
    {
        return explanationWording.empty() ? verbatim(explanation) : explanationWording;
    }
};

struct RunResult {
    RunMode mode = RunMode::Simulated;
    int ranks = 0;
    std::vector<std::string> devices; // per rank
    std::vector<Span> spans;
    std::vector<CollectiveRecord> collectives;
    std::vector<IterationMark> iterations;
    std::vector<Bytes> peakMemory; // per rank: owned bytes + the largest transient buffer
    std::vector<double> pagingUs;  // per rank per iteration: unified-memory paging time
    std::optional<HangReport> hang;
    // How the clocks were aligned (live), or "one simulated clock"; what a live run changed or could
    // not do (scaled buffers...), one Message a note. Text that is not a catalogue sentence (an older
    // file's English, a system's error) is verbatim(). Files keep the English of each beside the
    // Messages ("clock", "notes"; io/run_result_json.h).
    Message clockNote;
    std::vector<Message> notes;
    // Live: the number of ranks that took turns on one GPU (`shardlab live --share-gpu N`): their
    // results and waits are real, their times are not those of N GPUs. 0: a GPU per rank.
    int sharedGpu = 0;
    double endUs() const;
};

} // namespace shardlab
