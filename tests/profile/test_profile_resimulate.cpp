// Part 4, what-if: a profiled run as a scenario (profile_scenario.h) simulates back to the step it
// measured. The synthetic profile's collectives last exactly what the cost model says they take on
// the machine (so that only the re-simulation's own error shows), and its ranks work unequally.
#include "profile_records.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_scenario.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/model/presets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace shardlab {
namespace {

using test::RecordText;

TEST(ProfileResimulate, TheObservedProgramSimulatesBackToTheMeasuredStep)
{
    constexpr int n = 4, collectives = 5;
    constexpr std::uint64_t count = 8u << 20; // floats: 32 MiB
    const Topology machine = defaultProfileMachine(n);
    CostModel model(machine);
    const double collUs = model.collective(OpKind::AllReduce, count * 4, {0, 1, 2, 3}).timeUs;
    ASSERT_GT(collUs, 0);
    // Work before each collective, per rank (us): rank 2 is slow before #2 and #3.
    const double work[collectives][n] = {
        {0, 0, 0, 0}, {400, 410, 420, 400}, {300, 300, 900, 310}, {300, 300, 700, 300}, {500, 500, 500, 500}};
    std::vector<RecordText> files;
    for (int r = 0; r < n; ++r) {
        files.emplace_back("h", 100 + r);
        files.back().comm(0, "00000000000000dd", r, n);
    }
    // Host time (ns) where each rank is; the GPU timer equals it (offset 0), brackets 100 ns wide.
    std::vector<double> at(n, 1e6);
    for (int k = 0; k < collectives; ++k) {
        double last = 0;
        for (int r = 0; r < n; ++r) {
            at[static_cast<size_t>(r)] += work[k][r] * 1e3;
            last = std::max(last, at[static_cast<size_t>(r)]);
        }
        const double end = last + collUs * 1e3;
        for (int r = 0; r < n; ++r) {
            const double a = at[static_cast<size_t>(r)];
            files[static_cast<size_t>(r)].coll(static_cast<std::uint64_t>(k + 1), 0, k, "AllReduce", count, a - 50,
                                               a + 50, a, end);
            at[static_cast<size_t>(r)] = end;
        }
    }
    std::vector<ProfileFile> parsed;
    for (int r = 0; r < n; ++r)
        parsed.push_back(*parseProfileText(files[static_cast<size_t>(r)].text, "r" + std::to_string(r)));
    auto built = buildProfiledRun(parsed, {machine, "synthetic"});
    ASSERT_TRUE(built) << built.error().message;
    const double measured = summarize(built->scenario, built->run).stepTimeMs;
    // Five equal all-reduces: five steps of one (profile_steps.h). By hand: the mean over the
    // steps of the slowest rank's work before the collective, plus the collective.
    EXPECT_EQ(built->run.iterations.size(), static_cast<size_t>(collectives));
    double expected = 0;
    for (int k = 0; k < collectives; ++k)
        expected += (*std::max_element(work[k], work[k] + n) + collUs) / collectives;
    EXPECT_NEAR(measured, expected / 1e3, 1e-6);

    auto simulated = simulate(built->scenario);
    ASSERT_TRUE(simulated) << simulated.error().message;
    const double predicted = summarize(built->scenario, *simulated).stepTimeMs;
    EXPECT_NEAR(predicted, measured, 0.10 * measured);
    // The least mean work is the GPU's compute; rank 2's extra is its own delay: mean work
    // (0 + 400 + 300 + 300 + 500) / 5 = 300 us on rank 0, (0 + 420 + 900 + 700 + 500) / 5 = 504 on
    // rank 2 (the simulated step is then 504 us + the all-reduce, as the measured mean).
    EXPECT_EQ(built->scenario.program.size(), 2u);
    EXPECT_EQ(built->scenario.iterations, collectives);
    bool rank2Delayed = false;
    for (const Delay& d : built->scenario.perturbations.delays)
        if (d.rank == 2 && d.op == 0)
            rank2Delayed = std::abs(d.ms - 0.204) < 1e-9; // 504 - 300 us
    EXPECT_TRUE(rank2Delayed);

    // What-if: the same program on two nodes of eight H100 over InfiniBand would need 16 ranks;
    // on the 4-GPU PCIe teaching machine the collectives slow down and the step grows.
    auto other = resimulationScenario(built->scenario, built->run, *preset("teaching-4x16gb-pcie"));
    ASSERT_TRUE(other) << other.error().message;
    Scenario moved = built->scenario;
    moved.topology = *preset("teaching-4x16gb-pcie");
    auto slower = simulate(moved);
    ASSERT_TRUE(slower) << slower.error().message;
    EXPECT_GT(summarize(moved, *slower).stepTimeMs, predicted);
}

} // namespace
} // namespace shardlab
