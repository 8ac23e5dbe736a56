// The lab report of the course's practical ("ownership and all-reduce on two GPUs"), filled from
// a run: per-rank output with verification, a topology summary in the style of
// `nvidia-smi topo -m`, a timing table over message sizes split into compute, collective and
// wait, the segment that limits scaling efficiency, and all-reduce against reduce-scatter +
// all-gather. Built from simulated runs or from live ones, and says which. A plain value that
// the HTML writer (report_html.h), the PDF writer (app/report_qt) and the GUI all read.
//
// Its sentences are Messages (shardlab/text/message.h), worded when the report is written, in
// the report's `language`; english() gives the English wording.
#pragma once

#include "shardlab/analysis/collective_comparison.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/topo_matrix.h"
#include "shardlab/text/language.h"
#include "shardlab/text/message.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct RankOutput {
    int rank = 0;
    std::string device;
    Message owns;                    // "data: 12 GB of 24 GB; gradients: 100 MB (replicated)"
    bool inGroup = true;             // whether the rank takes part in the verified collective
    std::vector<double> localInput;  // its buffer before the collective (the fill pattern)
    std::vector<double> localResult; // the same buffer afterwards
    std::uint64_t checkedElements = 0;
    std::uint64_t wrongElements = 0;
    int checkedCollectives = 0; // live: collectives whose #wrong count covers this rank
    bool verified = false;
    Message verification; // in words: "256 of 256 elements match the expected value"
};

// One row of the timing table: the scenario run with its collectives rescaled so that the
// primary collective moves `bytes`. Times are per iteration, averaged over ranks (summarize()).
struct TimingRow {
    Bytes bytes = 0;
    double scale = 1; // factor applied to every collective's size
    double stepMs = 0;
    double computeMs = 0;
    double collectiveMs = 0; // exposed communication
    double waitMs = 0;
    double speedup = 0;
    double efficiency = 0;
    double collectiveTimeMs = 0; // the primary collective's own duration (last arrival to end)
    double busbwGBps = 0;
    Bottleneck bottleneck = Bottleneck::Compute;
};

struct TopologySummary {
    Message origin; // "the scenario's topology (teaching-4x16gb-pcie)" or "this machine's GPUs, discovered with NVML"
    Topology topology; // the topology summarised
    std::vector<std::vector<PairClass>> pairs;
    bool fastDomain = false;
    PathClass slowestPath = PathClass::Self; // the worst class between any two ranks
    Message sentence;                        // whether the ranks share one fast interconnect domain, and why
};

struct LabReport {
    std::string generator;    // "ShardLab 0.1.0"
    std::string scenarioFile; // as given by the caller, may be empty
    Scenario scenario;        // as run (the base run)
    RunMode mode = RunMode::Simulated;
    Language language = Language::English; // the language the writers word the report in
    Message modeSentence; // "Simulated with ShardLab's analytic cost model (profile default)." / "Measured..."

    RunResult run;   // the base run: the timeline figure
    Summary summary; // summarize() of the base run

    bool hasCollective = false;
    int primaryOp = -1; // program index of the collective the report follows
    OpKind collectiveKind = OpKind::AllReduce;
    std::string collectiveName;
    Bytes collectiveBytes = 0;
    std::vector<int> group;

    std::vector<RankOutput> ranks;
    Message verificationMethod; // how the results were checked, in words

    TopologySummary topology;

    std::vector<TimingRow> timing;
    Message timingNote;

    std::string limitingSegment; // bottleneckName() of the base run: "compute", "communication", "wait", "capacity"
    Message limitingSentence;    // the segment that limits scaling efficiency, with numbers, and the summary's sentence

    std::optional<CollectiveComparison> comparison;
    Message comparisonTimeSource; // "the cost model" or "measured on this machine"

    std::vector<Message> notes; // what the reader should know (no collective, a hang, ...)
};

// How to run one scenario: simulate() for simulated reports, runLive() for live ones; tests pass
// their own.
using ScenarioRunner = std::function<Result<RunResult>(const Scenario&)>;

struct LabReportOptions {
    RunMode mode = RunMode::Simulated;
    ScenarioRunner runner;    // empty: simulate() or runLive(), by mode
    std::vector<Bytes> sizes; // primary collective sizes for the timing table; empty: defaultReportSizes()
    std::optional<Topology> machineTopology; // live: the machine's topology to summarise instead of the scenario's
    std::string scenarioFile;
    Language language = Language::English; // the report's language (LabReport::language)
    std::uint64_t verifyElements = 256;    // elements per rank checked in simulated reports
    // A run recorded elsewhere (`shardlab profile`, `shardlab import`: a result file, a profiler's
    // traces): the report shows it as measured and runs nothing: the timing table holds its own
    // size only, the all-reduce comparison is the cost model's, and no result is called verified
    // (nothing compared the buffers). `scenario` is the program as observed.
    const RunResult* recorded = nullptr;
};

// S/64, S/8, S and 4S for a primary collective of S bytes: four sizes, two decades apart at the
// ends, so that the latency-bound and the bandwidth-bound regimes both show.
std::vector<Bytes> defaultReportSizes(Bytes primary);

// A copy of `scenario` with every collective's size multiplied by `scale` (at least one byte).
Scenario withCollectivesScaled(const Scenario& scenario, double scale);

// The sentence on the topology: whether all ranks share one NVLink/NVSwitch domain.
TopologySummary summarizeTopology(const Topology& topology, Message origin);

// An operation's name in the report: its display name ("All-Reduce", kept in Chinese as the course
// does), worded where it has words ("All-Gather (unequal sizes)").
Message operationWords(OpKind kind);
// The collective the report follows: its name in the program, or else its operation's name.
Message collectiveWords(const LabReport& report);

// The most GPUs a lab report covers. Its topology section is pair by pair (the `nvidia-smi topo -m`
// matrix and every pair's route): at 1,000 GPUs a million cells, 38 MB of HTML and about 5 s;
// at 10,000 it would not fit in memory. simulate(), diagnose and scale go on to kMaxTopologyGpus.
constexpr int kMaxReportGpus = 1024;

// Runs the scenario (and its rescaled copies) and fills the report. Errors: the scenario is
// invalid or has more than kMaxReportGpus GPUs (BadInput), or a run failed (RunFailed, with the
// runner's message). A run that hangs is reported, not an error: the report says so.
Result<LabReport> buildLabReport(const Scenario& scenario, const LabReportOptions& options = {});

} // namespace shardlab
