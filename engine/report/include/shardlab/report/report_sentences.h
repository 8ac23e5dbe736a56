// The sentences the lab report quotes from the analysis (engine/analysis) and the run (engine/sim,
// engine/live): the summary's sentence and speed-up note, a hang's explanation, the collective
// comparison's sentence, the run's clock note. They reach the report only through these
// functions, as Messages, so that the report words them in its language.
// A live run's clock note (with its measured figures) and sentences read from an older result file
// (English only) are quoted as they are.
#pragma once

#include "shardlab/analysis/collective_comparison.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/model/run_result.h"
#include "shardlab/text/message.h"

namespace shardlab {

Message reportSummarySentence(const Summary& summary);                    // Summary::sentence
Message reportSpeedupNote(const Summary& summary);                        // Summary::speedupNote
Message reportHangExplanation(const HangReport& hang);                    // HangReport::explanation
Message reportComparisonSentence(const CollectiveComparison& comparison); // CollectiveComparison::sentence
Message reportClockNote(const RunResult& run);                            // RunResult::clockNote

} // namespace shardlab
