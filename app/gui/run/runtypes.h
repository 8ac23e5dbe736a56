// The values a run hands to the GUI: immutable snapshots shared between the engine thread and
// the widgets (HOUSE_STYLE habit 2).
#pragma once

#include "shardlab/analysis/sim_vs_measured.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/activity.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <optional>

namespace shardlab::gui {

class TimelineData;

enum class RunKind { Simulate, Live };

// Everything a finished run produced, computed on the engine thread.
struct RunOutcome {
    quint64 id = 0;
    RunKind kind = RunKind::Simulate;
    Scenario scenario; // as it was run
    std::shared_ptr<const RunResult> run;
    Summary summary;                               // summarize(scenario, *run)
    std::shared_ptr<const ActivityIndex> activity; // for playback
    std::shared_ptr<const TimelineData> timeline;  // lanes ready to draw
    std::shared_ptr<const RunResult> reference;    // live runs: the simulation of the same scenario
    std::optional<RunComparison> comparison;       // live runs: compareRuns(scenario, *run, *reference)
    QString referenceError;                        // why there is no reference, if there is none
    double wallMs = 0;                             // how long the engine took
    QString origin;                                // the file it was read from; empty: run here
    QString incomplete;                            // why the run stopped early (a remote connection dropped)
};
using RunOutcomePtr = std::shared_ptr<const RunOutcome>;

// What a streaming run delivered since the last time the GUI looked.
struct RunChunk {
    std::vector<Span> spans;
    std::vector<int> order; // spans by beginning (indices into spans), sorted on the engine thread
    std::vector<CollectiveRecord> collectives;
    std::vector<IterationMark> iterations;
    int done = 0;
    int total = 0;
    bool incomplete = false; // spans were dropped because the GUI fell behind (the final result has them all)
};

} // namespace shardlab::gui

Q_DECLARE_METATYPE(shardlab::gui::RunOutcomePtr)
Q_DECLARE_METATYPE(shardlab::gui::RunKind)
