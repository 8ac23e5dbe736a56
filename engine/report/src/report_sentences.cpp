#include "shardlab/report/report_sentences.h"

namespace shardlab {

// The analysis's sentences are English strings on this branch; see the header.
Message reportSummarySentence(const Summary& summary)
{
    return verbatim(summary.sentence);
}

Message reportSpeedupNote(const Summary& summary)
{
    return verbatim(summary.speedupNote);
}

Message reportHangExplanation(const HangReport& hang)
{
    return verbatim(hang.explanation);
}

Message reportComparisonSentence(const CollectiveComparison& comparison)
{
    return verbatim(comparison.sentence);
}

Message reportClockNote(const RunResult& run)
{
    // The simulator's one note is worded here; a live run's (clock alignment with its figures)
    // stays as the live engine wrote it.
    if (run.clockNote == "one simulated clock")
        return Message("report.clock.simulated");
    return verbatim(run.clockNote);
}

} // namespace shardlab
