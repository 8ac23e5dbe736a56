// A measured compute calibration (`shardlab calibrate --compute`): the file it writes reads back,
// the grid it measures, the GPU it belongs to, and `shardlab plan --compute FILE` pricing with it.
#include "cli.h"

#include "shardlab/live/live.h"
#include "shardlab/plan/compute_calibration.h"
#include "shardlab/plan/compute_model.h"
#include "shardlab/plan/plan_request.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace shardlab {
namespace {

ComputeMeasurementFile measuredH200(double tflops)
{
    ComputeMeasurementFile f;
    f.device = "NVIDIA H200";
    f.sms = 132;
    f.date = "2026-12-05";
    f.tool = "shardlab calibrate --compute, cuBLAS 13.1.0";
    for (const GemmPoint& p : calibrationGemmGrid())
        f.gemmBf16.push_back({p.m, p.n, p.k, tflops});
    f.copies = {{128.0 * (1 << 20), 3000}, {2048.0 * (1 << 20), 4000}};
    return f;
}

ComputeCalibration oneGemmMeasuredOn(const std::string& device, const std::string& file)
{
    ComputeCalibration c;
    c.device = device;
    c.source = file + ", measured 2026-12-05";
    c.gemmBf16 = {{4096, 4096, 4096, 700}};
    return c;
}

Gpu gpuNamed(const std::string& name)
{
    Gpu g;
    g.name = name;
    return g;
}

std::string writeTemp(const std::string& name, const std::string& text)
{
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path) << text;
    return path.string();
}

TEST(ComputeCalibration, WhatCalibrateWritesReadsBack)
{
    const ComputeMeasurementFile f = measuredH200(600);
    const std::string text = computeMeasurementJson(f);
    auto c = computeCalibrationFromJson(text, "m.json");
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->device, "NVIDIA H200");
    EXPECT_EQ(c->source, "m.json, measured 2026-12-05");
    ASSERT_EQ(c->gemmBf16.size(), f.gemmBf16.size());
    EXPECT_EQ(c->gemmBf16[3].m, f.gemmBf16[3].m);
    EXPECT_EQ(c->gemmBf16[3].k, f.gemmBf16[3].k);
    EXPECT_DOUBLE_EQ(c->gemmBf16[3].tflops, 600);
    EXPECT_DOUBLE_EQ(c->copyGBps, 4000); // the best copy
    EXPECT_TRUE(c->attention.empty());
    const auto doc = nlohmann::json::parse(text);
    EXPECT_EQ(doc["tool"], "shardlab calibrate --compute, cuBLAS 13.1.0");
    EXPECT_TRUE(doc["gemm_bf16"][0]["m"].is_number_integer()); // as the script writes them
}

TEST(ComputeCalibration, TheGridIsTheScriptsWithinItsLimits)
{
    const std::vector<GemmPoint> grid = calibrationGemmGrid();
    // bench/calibrate_compute.py's grid: 6 m x 7 n x 7 k, less those over 1.2e9 elements or 1e13 FLOP
    EXPECT_EQ(grid.size(), 266u);
    for (const GemmPoint& p : grid) {
        EXPECT_LE(p.m * p.n + p.n * p.k + p.m * p.k, 1.2e9);
        EXPECT_LE(2 * p.m * p.n * p.k, 1e13);
    }
    EXPECT_EQ(grid.front().m, 512);
    EXPECT_EQ(grid.front().n, 1024);
    EXPECT_EQ(grid.front().k, 1024);
}

TEST(ComputeCalibration, AFileMeasuredOnAnotherGpuIsRefusedNamingBoth)
{
    auto c = planComputeCalibration(gpuNamed("H200"), oneGemmMeasuredOn("NVIDIA H100 80GB HBM3", "h100.json"));
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().kind, ErrorKind::BadInput);
    EXPECT_NE(c.error().message.find("h100.json"), std::string::npos) << c.error().message;
    EXPECT_NE(c.error().message.find("NVIDIA H100 80GB HBM3"), std::string::npos) << c.error().message;
    EXPECT_NE(c.error().message.find("H200"), std::string::npos) << c.error().message;
}

TEST(ComputeCalibration, AMeasuredFileWithoutAttentionTakesTheShippedAttention)
{
    const Gpu h200 = gpuNamed("H200");
    auto c = planComputeCalibration(h200, oneGemmMeasuredOn("NVIDIA H200", "mine.json"));
    ASSERT_TRUE(c) << c.error().message;
    ASSERT_TRUE(*c);
    EXPECT_EQ((*c)->gemmBf16.size(), 1u); // the measured GEMMs
    EXPECT_EQ((*c)->attention.size(), shippedComputeCalibration("H200")->attention.size());
    EXPECT_NE((*c)->source.find("mine.json"), std::string::npos);
    EXPECT_NE((*c)->source.find("attention from resources/compute/h200.json"), std::string::npos) << (*c)->source;
    // no file: the shipped one; a GPU this project did not measure: none
    auto shipped = planComputeCalibration(h200, std::nullopt);
    ASSERT_TRUE(shipped && *shipped);
    EXPECT_EQ((*shipped)->gemmBf16.size(), shippedComputeCalibration("H200")->gemmBf16.size());
    auto none = planComputeCalibration(gpuNamed("A100"), std::nullopt);
    ASSERT_TRUE(none);
    EXPECT_FALSE(*none);
}

TEST(ComputeCalibration, APlanIsPricedWithTheMeasuredFile)
{
    PlanRequest r;
    r.model = "llama3-8b";
    r.machine = "h200-nvswitch-8";
    r.plan.tp = 2;
    r.plan.dp = 4;
    auto shipped = pricePlan(r);
    ASSERT_TRUE(shipped && shipped->priced);
    // every GEMM twice as fast as measured: a ratio of 2 on the GEMMs' part of each pass
    r.computeFile = writeTemp("shardlab_fast_h200.json", computeMeasurementJson(measuredH200(950)));
    auto fast = pricePlan(r);
    ASSERT_TRUE(fast) << fast.error().message;
    ASSERT_TRUE(fast->priced);
    const PlanEstimate& a = shipped->priced->estimate;
    const PlanEstimate& b = fast->priced->estimate;
    EXPECT_LT(b.stages[0].forwardUs, a.stages[0].forwardUs);
    EXPECT_NE(b.computeSource.find("shardlab_fast_h200.json"), std::string::npos) << b.computeSource;
    r.computeFile = writeTemp("shardlab_slow_h200.json", computeMeasurementJson(measuredH200(100)));
    auto slow = pricePlan(r);
    ASSERT_TRUE(slow && slow->priced);
    EXPECT_GT(slow->priced->estimate.stages[0].forwardUs, a.stages[0].forwardUs);
    // a missing file and a file of another GPU are refused, not priced with something else
    r.computeFile = "/nonexistent/compute.json";
    auto missing = pricePlan(r);
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("/nonexistent/compute.json"), std::string::npos);
    r.machine = "2x8-a100-8hdr";
    r.computeFile = writeTemp("shardlab_fast_h200.json", computeMeasurementJson(measuredH200(950)));
    auto other = pricePlan(r);
    ASSERT_FALSE(other);
    EXPECT_NE(other.error().message.find("NVIDIA H200"), std::string::npos) << other.error().message;
}

struct CliRun {
    int status = 0;
    std::string out, err;
};
CliRun cli(std::vector<std::string> args)
{
    std::ostringstream out, err;
    const int status = cli::runCli(args, out, err);
    return {status, out.str(), err.str()};
}

TEST(ComputeCalibrationCli, PlanTakesAMeasuredFileAndSaysWhichItUsed)
{
    const std::string file = writeTemp("shardlab_cli_h200.json", computeMeasurementJson(measuredH200(700)));
    CliRun r = cli({"plan", "llama3-8b", "--tp", "2", "--gpus", "8", "--compute", file, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("shardlab_cli_h200.json"), std::string::npos);
    r = cli({"plan", "llama3-8b", "--gpus", "8", "--search", "--compute", file, "--top", "2"});
    EXPECT_EQ(r.status, 0) << r.err;
    r = cli({"plan", "llama3-8b", "--gpus", "8", "--preset", "2x8-a100-8hdr", "--compute", file});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("taken on NVIDIA H200"), std::string::npos) << r.err;
}

TEST(ComputeCalibrationCli, BadShapesAndOptionsAreRefusedBeforeAnyGpuIsTouched)
{
    CliRun r = cli({"calibrate", "--compute", "--shapes", "4096x4096"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--shapes: '4096x4096' (expected GEMM shapes as MxNxK"), std::string::npos) << r.err;
    r = cli({"calibrate", "--compute", "--shapes", "0x8x8"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("every side must be 1 to 1048576"), std::string::npos) << r.err;
    r = cli({"calibrate", "--device", "1"}); // --device is --compute's
    EXPECT_EQ(r.status, 2);
    r = cli({"calibrate", "--compute", "--measured", "x.json"});
    EXPECT_EQ(r.status, 2);
    r = cli({"calibrate", "--compute", "--out", "/nonexistent/folder/c.json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("/nonexistent/folder"), std::string::npos) << r.err;
    if (!liveBuiltIn()) { // a simulation-only build says what to do instead
        r = cli({"calibrate", "--compute", "--no-save"});
        EXPECT_EQ(r.status, 2);
        EXPECT_NE(r.err.find("bench/calibrate_compute.py"), std::string::npos) << r.err;
    }
}

} // namespace
} // namespace shardlab
