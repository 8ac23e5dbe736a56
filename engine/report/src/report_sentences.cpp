#include "shardlab/report/report_sentences.h"

namespace shardlab {

// The analysis keeps its sentences as Messages beside the English; a summary or hang read from an
// older result file has only the English, which is shown as it is.
Message reportSummarySentence(const Summary& summary)
{
    return summary.sentenceMessage.empty() ? verbatim(summary.sentence) : summary.sentenceMessage;
}

Message reportSpeedupNote(const Summary& summary)
{
    return summary.speedupNoteMessage.empty() ? verbatim(summary.speedupNote) : summary.speedupNoteMessage;
}

Message reportHangExplanation(const HangReport& hang) { return hang.explanationMessage(); }

Message reportComparisonSentence(const CollectiveComparison& comparison) { return comparisonMessage(comparison); }

Message reportClockNote(const RunResult& run)
{
    // The simulator's one note is worded here; a live run's (clock alignment with its figures)
    // stays as the live engine wrote it.
    const std::string note = english(run.clockNote);
    if (note == "one simulated clock")
        return Message("report.clock.simulated");
    return verbatim(note);
}

} // namespace shardlab
