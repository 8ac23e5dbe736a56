// Simulated against measured: how far the model's prediction of each program step is from what
// a live run measured, so a user sees which phase the model gets wrong (and can calibrate).
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct PhaseComparison {
    int op = 0;       // program index
    std::string name; // the op's label
    OpKind kind = OpKind::Compute;
    double measuredMs = 0; // mean time of one instance (see compareRuns)
    double simulatedMs = 0;
    int measuredCount = 0; // instances averaged
    int simulatedCount = 0;
    // (simulated - measured) / measured x 100: positive when the model predicts it slower.
    // Empty when nothing was measured for it.
    std::optional<double> errorPct;
};

struct RunComparison {
    std::vector<PhaseComparison> phases; // in program order
    double measuredStepMs = 0;           // summarize(...).stepTimeMs of each run
    double simulatedStepMs = 0;
    std::optional<double> stepErrorPct;
};

// Compares two runs of one scenario phase by phase. One instance of a compute step is one rank's
// time in it during one iteration (its compute spans of that step summed, injected delays and
// paging left out); one instance of a collective is one CollectiveRecord, from its start (the
// last arrival) to its end, waits left out. Means are over all instances of the step.
RunComparison compareRuns(const Scenario& scenario, const RunResult& measured, const RunResult& simulated);

// errorPct of one pair: (simulated - measured) / measured x 100, empty when measured is not > 0.
std::optional<double> relativeErrorPct(double measured, double simulated);

} // namespace shardlab
