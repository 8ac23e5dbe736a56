// `shardlab scale`, `diagnose`, `compare` and `calibrate`, run in-process: output and exit statuses.
#include "cli_test_helpers.h"

#include "shardlab/analysis/sweep.h"
#include "shardlab/live/live.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/profiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

using namespace shardlab;
using namespace shardlab::cli;
using namespace shardlab::test;

namespace {
CliRun run(const std::vector<std::string>& args) { return shardlab::test::runCommand(args); }
} // namespace

TEST(CliScale, TableJsonAndErrors)
{
    CliRun r = run({"scale", scenario("fifth-gpu-4.shardlab.json"), "--max-gpus", "8"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Strong scaling"), std::string::npos);
    EXPECT_NE(r.out.find("From 4 to 5 GPUs the step gets slower"), std::string::npos) << r.out;
    r = run({"scale", scenario("scaling-8-to-16.shardlab.json"), "--gpus", "1,8,16", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["points"].size(), 3u);
    EXPECT_EQ(doc["points"][2]["gpus"], 16);
    EXPECT_LT(doc["points"][2]["efficiency"].get<double>(), doc["points"][1]["efficiency"].get<double>() - 0.05);
    EXPECT_EQ(doc["points"][2]["collective"]["link_kind"], "network");
    r = run({"scale", scenario("scaling-8-to-16.shardlab.json"), "--gpus", "2,4", "--weak", "--json"});
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(nlohmann::json::parse(r.out)["mode"], "weak");
    EXPECT_EQ(run({"scale", "/nonexistent.shardlab.json"}).status, kExitBadInput);
    EXPECT_EQ(run({"scale", scenario("default.shardlab.json"), "--max-gpus", "0"}).status, kExitBadInput);
    EXPECT_EQ(run({"scale", scenario("default.shardlab.json"), "--profile", "no-such-profile"}).status, kExitBadInput);
}

TEST(CliDiagnose, FindingsTextAndJson)
{
    CliRun r = run({"diagnose", scenario("straggler-12-6-4-2.shardlab.json")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("[problem] Every sync point waits for rank 0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("input distribution"), std::string::npos);
    r = run({"diagnose", scenario("fifth-gpu-5.shardlab.json"), "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["findings"].size(), 1u);
    EXPECT_EQ(doc["findings"][0]["rule"], "no_speedup");
    EXPECT_FALSE(doc["findings"][0]["scaling"].empty()); // the curve is part of the evidence
    r = run({"diagnose", scenario("fifth-gpu-5.shardlab.json"), "--json", "--no-scaling"});
    EXPECT_TRUE(nlohmann::json::parse(r.out)["findings"][0]["scaling"].empty());
    r = run({"diagnose", scenario("default.shardlab.json")});
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("No finding"), std::string::npos);
    EXPECT_EQ(run({"diagnose", "/nonexistent.shardlab.json"}).status, kExitBadInput);
}

TEST(CliCompare, SideBySideAndTheWrongChoice)
{
    CliRun r = run({"compare", "--gpus", "4", "--bytes", "4000000000", "--preset", "h200-nv18-4"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("peak memory per rank"), std::string::npos);
    EXPECT_NE(r.out.find("8 GB"), std::string::npos); // all-reduce: 2 x 4 GB
    EXPECT_NE(r.out.find("5 GB"), std::string::npos); // the pair: 4 GB + 1 GB
    EXPECT_NE(r.out.find("Choosing wrongly: All-Reduce where All-Gather was needed"), std::string::npos);
    r = run({"compare", "--gpus", "4", "--bytes", "4000000000", "--preset", "h200-nv18-4", "--json"});
    ASSERT_EQ(r.status, 0);
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["all_reduce"]["peak_bytes"], 8'000'000'000ULL);
    EXPECT_EQ(doc["reduce_scatter_all_gather"]["peak_bytes"], 5'000'000'000ULL);
    EXPECT_EQ(doc["reduce_scatter_only"]["held_after_bytes"], 1'000'000'000ULL);
    EXPECT_TRUE(doc["all_reduce"]["measured_us"].is_null());
    EXPECT_FALSE(doc["wrong_choice"]["correct"].get<bool>());
    EXPECT_EQ(doc["wrong_choice"]["got"][0], (std::vector<double>{100, 104}));
    EXPECT_EQ(run({"compare", "--gpus", "4", "--bytes", "lots", "--preset", "h200-nv18-4"}).status, kExitBadInput);
    EXPECT_EQ(run({"compare", "--gpus", "4", "--preset", "nope"}).status, kExitBadInput);
    // issue 14: more GPUs than the preset has is refused as bench refuses it, not made into two nodes
    const CliRun five = run({"compare", "--gpus", "5", "--preset", "h200-nv18-4"});
    EXPECT_EQ(five.status, kExitBadInput);
    EXPECT_NE(five.err.find("preset h200-nv18-4 has 4 GPUs; --gpus 5 asks for more"), std::string::npos) << five.err;
    EXPECT_EQ(
        run({"bench", "--sim", "--preset", "h200-nv18-4", "--collective", "all_reduce", "--gpus", "5", "--sizes", "1M"})
            .status,
        kExitBadInput);
    if (!liveBuiltIn()) {
        EXPECT_EQ(run({"compare", "--gpus", "2", "--preset", "h200-nv18-4", "--measure"}).status, kExitBadInput);
    }
}

// Issue 14: one rule for sizes given on the command line. "1GB" was 2^30 in bench and report
// --sizes but 10^9 in compare --bytes; now every size argument is binary as in nccl-tests, and
// every command's --help says so.
TEST(CliSizes, OneRuleForEverySizeArgumentStatedInEveryHelp)
{
    for (const char* text : {"1GB", "1G", "1GiB"}) {
        const CliRun r = run({"compare", "--gpus", "2", "--bytes", text, "--preset", "h200-nv18-4", "--json"});
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(nlohmann::json::parse(r.out)["bytes"], 1ULL << 30) << text;
    }
    const CliRun b = run({"bench", "--sim", "--preset", "h200-nv18-4", "--collective", "all_reduce", "--gpus", "2",
                          "--sizes", "1GB", "--json"});
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_NE(b.out.find("1073741824"), std::string::npos) << b.out;
    for (const char* command :
         {"topo", "sim", "bench", "live", "report", "lessons", "scale", "diagnose", "compare", "calibrate"}) {
        const CliRun h = run({command, "--help"});
        EXPECT_EQ(h.status, 0) << command;
        EXPECT_NE(h.out.find("1G = 1GB = 1GiB = 2^30"), std::string::npos) << command << ": " << h.out;
        EXPECT_NE(h.out.find("1 GB = 10^9 bytes"), std::string::npos) << command;
    }
    EXPECT_NE(run({"--help"}).out.find("1G = 1GB = 1GiB = 2^30"), std::string::npos);
}

TEST(CliCalibrate, WithoutLiveModeItSaysWhyAndFitsSavedMeasurements)
{
    if (!liveBuiltIn()) {
        const CliRun r = run({"calibrate", "--gpus", "2"});
        EXPECT_EQ(r.status, kExitBadInput);
        EXPECT_NE(r.err.find("no live mode"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("--measured"), std::string::npos);
    }
    // measurements made elsewhere: five sweeps of a machine whose NVLink reaches 70 % of nominal
    const auto dir = std::filesystem::temp_directory_path() / "shardlab-cli-calibrate";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    CostProfile machine = CostProfile::defaults();
    machine.link[static_cast<int>(LinkKind::NvLink)].efficiency = 0.7;
    CostModel m(preset("h200-nv18-4")->firstGpus(2), machine);
    std::vector<std::string> args = {"calibrate", "--preset", "h200-nv18-4", "--name",
                                     "cli-test",  "--json",   "--measured"};
    for (OpKind k : {OpKind::AllReduce, OpKind::AllGather, OpKind::ReduceScatter, OpKind::Broadcast, OpKind::Reduce}) {
        const auto file = (dir / (std::string(opName(k)) + ".json")).string();
        std::ofstream(file) << sweepJson(k, 2, simulateSweep(m, k, 2, {8, 65536, 1 << 20, 1 << 24, 1 << 28, 1 << 30}),
                                         "live");
        args.push_back(file);
    }
    ::setenv("SHARDLAB_PROFILE_DIR", (dir / "profiles").c_str(), 1);
    const CliRun r = run(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["rows"].size(), 30u);
    EXPECT_LT(doc["calibrated"]["worst_abs_pct"].get<double>(), 0.5);
    EXPECT_GT(doc["before"]["median_abs_pct"].get<double>(), 5.0);
    auto saved = loadProfile("cli-test");
    ASSERT_TRUE(saved.ok()) << saved.error().message;
    EXPECT_NEAR(saved->link[static_cast<int>(LinkKind::NvLink)].efficiency, 0.7, 0.007);
    EXPECT_NE(r.err.find("saved profile 'cli-test'"), std::string::npos);
    // the saved profile simulates: `shardlab bench --sim --profile cli-test`
    const CliRun b =
        run({"bench", "--sim", "--preset", "h200-nv18-4", "--gpus", "2", "--sizes", "1G", "--profile", "cli-test"});
    EXPECT_EQ(b.status, 0) << b.err;
    // bad inputs
    EXPECT_EQ(run({"calibrate", "--measured", (dir / "none.json").string(), "--preset", "h200-nv18-4"}).status,
              kExitBadInput);
    EXPECT_EQ(run({"calibrate", "--name", "default", "--measured", args.back(), "--preset", "h200-nv18-4"}).status,
              kExitBadInput);
    // issue 25: three impossible times fit to an NVLink efficiency far above 1; refused, and the
    // good profile of that name stays as it was
    const std::string good = [&] {
        std::ifstream in(dir / "profiles" / "cli-test.json");
        return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }();
    const auto tiny = (dir / "tiny.json").string();
    std::ofstream(tiny) << R"({"collective": "all_reduce", "ranks": 2, "rows": [{"size": 1048576, "time_us": 1},
        {"size": 16777216, "time_us": 2}, {"size": 268435456, "time_us": 3}]})";
    const CliRun t = run({"calibrate", "--measured", tiny, "--preset", "h200-nv18-4", "--name", "cli-test"});
    EXPECT_EQ(t.status, kExitBadInput) << t.out << t.err;
    EXPECT_NE(t.err.find("nothing was saved"), std::string::npos) << t.err;
    std::ifstream after(dir / "profiles" / "cli-test.json");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(after), std::istreambuf_iterator<char>()), good);
    ::unsetenv("SHARDLAB_PROFILE_DIR");
    std::filesystem::remove_all(dir);
}

// Issue 14: a live-only command without a GPU names its own simulated form, in a sentence that reads.
TEST(CliMessages, LiveOnlyCommandsSuggestTheirOwnSimulatedForm)
{
    const shardlab::Error e = suggestInstead(
        shardlab::runFailed(
            shardlab::Message("error.live.driver_too_old").with("version", "13.0").with("command", "shardlab sim")),
        "`shardlab bench --sim --preset ID` (the same sweep, simulated)");
    EXPECT_EQ(e.message, "the NVIDIA driver is missing or too old for CUDA 13.0 (live mode needs an NVIDIA GPU and "
                         "driver; instead, use `shardlab bench --sim --preset ID` (the same sweep, simulated))");
    // a sentence without the advice is left as it is
    const shardlab::Error other =
        suggestInstead(shardlab::runFailed(shardlab::Message("error.piece.no_driver")), "`shardlab bench --sim`");
    EXPECT_EQ(other.message, "no NVIDIA driver found");
}
