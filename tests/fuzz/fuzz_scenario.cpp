// libFuzzer target for every text parser a user's file reaches: scenarios, cost profiles, result
// files, Chrome traces (File > Open reads both), run results, lessons, `shardlab bench --json`
// output read back by calibration, and the size, bandwidth, rate, sweep-range and Slurm
// tasks-per-node parsers; the capped reader every input (standard input, FIFOs) goes through, and
// the CSV field every table writes. Build with -DSHARDLAB_FUZZ=ON and clang; run
//   build/fuzz/tests/fuzz/fuzz_scenario tests/fuzz/corpus -max_total_time=300
// A crash, a hang (-timeout) or a leak (LeakSanitizer) fails the run.
#include "shardlab/analysis/calibration.h"
#include "shardlab/analysis/calibration_report.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/analysis/sweep.h"
#include "shardlab/base/display_width.h"
#include "shardlab/base/file_io.h"
#include "shardlab/base/units.h"
#include "shardlab/cluster/launch.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/lessons/lessons.h"
#include "shardlab/model/capacity.h"
#include "shardlab/sim/event_estimate.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto scenario = shardlab::parseScenario(text, "fuzz");
    if (scenario.ok()) {
        // A valid scenario must also serialise and parse back to itself.
        auto again = shardlab::parseScenario(shardlab::serializeScenario(*scenario), "fuzz-again");
        if (!again.ok() || !(*again == *scenario))
            __builtin_trap();
        // Every valid one is estimated (saturating counts: no overflow) and checked against the
        // event limit (the seed huge-buckets-100k-x-100k.json asks for 70 billion events and
        // reaches the refusal); those on up to 16 GPUs are simulated within 20,000 events.
        // (The steps themselves are bounded too: steps that record nothing, such as compute
        // without work, still take time.)
        (void)shardlab::checkEventCount(*scenario); // estimates and, above the limit, words the refusal
        double steps = 0;
        for (const auto& op : scenario->program)
            steps += op.buckets;
        if (scenario->ranks() <= 16 && steps * scenario->iterations * scenario->ranks() <= 2e5) {
            shardlab::SimulationOptions options;
            options.maxEvents = 20'000;
            auto run = shardlab::simulate(*scenario, options);
            if (run.ok()) {
                // Never an impossible figure: an efficiency above 100% comes with its reason,
                // and "fits" is the verdict on each rank's peak (issue 14).
                const shardlab::Summary sum = shardlab::summarize(*scenario, *run);
                if (sum.hasSpeedup && sum.efficiency > 1.0 + 1e-9 && sum.speedupNote.empty())
                    __builtin_trap();
                const shardlab::CapacityReport cap = shardlab::capacityOf(*scenario);
                for (size_t r = 0; r < sum.perRank.size() && r < cap.ranks.size(); ++r)
                    if (sum.perRank[r].fits != cap.ranks[r].fits() || sum.perRank[r].owned != cap.ranks[r].owned)
                        __builtin_trap();
                (void)shardlab::formatSummaryTable(*scenario, sum);
                (void)shardlab::summaryJson(sum);
            }
        }
    }
    (void)shardlab::profileFromJson(text, "fuzz");
    (void)shardlab::parseResult(text, "fuzz");
    (void)shardlab::parseRunResult(text, "fuzz");
    (void)shardlab::parseChromeTrace(text, "fuzz");
    (void)shardlab::parseLesson(text, "fuzz");
    (void)shardlab::samplesFromSweepJson(text, "fuzz");
    (void)shardlab::fitToWidth(text, 18); // names reach the tables' columns
    // Every input (a file, standard input, a FIFO) arrives through the one capped reader: whole
    // under the cap (the first byte sets it here, so that both sides are reached), refused above it.
    if (size > 0) {
        std::istringstream in(text);
        const std::uintmax_t cap = static_cast<std::uintmax_t>(data[0]) * 4;
        const auto read = shardlab::readCapped(
            in, "<standard input>", shardlab::Message("error.file_kind.suffix").with("suffix", ".shardlab.json"), cap);
        if (read.ok() != (size <= cap) || (read.ok() && *read != text))
            __builtin_trap();
    }
    // A name never reaches a CSV file as a formula (=, @, tab, carriage return; + and - unless a number).
    if (const std::string field = shardlab::csvField(text);
        !text.empty() && std::string_view("=@\t\r").find(text[0]) != std::string_view::npos
        && field.rfind("\"'", 0) != 0)
        __builtin_trap();
    if (size < 64) {
        (void)shardlab::parseSize(text);
        (void)shardlab::parseBenchSize(text);
        (void)shardlab::parseBandwidth(text);
        (void)shardlab::parseFlops(text);
        (void)shardlab::parseSizeRange(text);
        (void)shardlab::parseSlurmTasksPerNode(text);
    }
    return 0;
}
