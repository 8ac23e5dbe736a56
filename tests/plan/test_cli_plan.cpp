// `shardlab plan` as scripts and course assignments use it.
#include "cli.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace shardlab {
namespace {

struct PlanRun {
    int status = 0;
    std::string out, err;
};

PlanRun planCli(std::vector<std::string> args)
{
    args.insert(args.begin(), "plan");
    std::ostringstream out, err;
    const int status = cli::runCli(args, out, err);
    return {status, out.str(), err.str()};
}

TEST(PlanCli, JsonHasTheKeysScriptsReadAndEveryRank)
{
    const PlanRun r =
        planCli({"llama3-8b", "--tp", "4", "--pp", "2", "--gpus", "16", "--preset", "2x8-h100-ib", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"step_time_ms", "tokens_per_s_per_gpu", "model_tflops_per_gpu", "mfu", "bubble_fraction",
                            "fits", "per_rank", "collectives", "bottleneck", "model", "plan", "stages"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["plan"]["dp"], 2);
    ASSERT_EQ(j["per_rank"].size(), 16u);
    for (const char* key :
         {"params_bytes", "grads_bytes", "optimizer_bytes", "activations_bytes", "peak_memory_bytes", "fits"})
        EXPECT_TRUE(j["per_rank"][0].contains(key)) << key;
    // rank 4 is TP 0 of stage 1 (rank = tp + 4 * (pp + 2 * dp)); rank 8 is stage 0 of the second replica
    EXPECT_EQ(j["per_rank"][4]["pp"], 1);
    EXPECT_EQ(j["per_rank"][8]["dp"], 1);
    EXPECT_EQ(j["per_rank"][8]["peak_memory_bytes"], j["per_rank"][0]["peak_memory_bytes"]);
    bool sawGroups[3] = {false, false, false};
    for (const auto& c : j["collectives"]) {
        const std::string group = c["group"];
        sawGroups[0] = sawGroups[0] || group == "tp";
        sawGroups[1] = sawGroups[1] || group == "pp";
        sawGroups[2] = sawGroups[2] || group == "dp";
    }
    EXPECT_TRUE(sawGroups[0] && sawGroups[1] && sawGroups[2]) << r.out.substr(0, 2000);
}

TEST(PlanCli, AnImpossiblePlanIsRefusedNotPriced)
{
    PlanRun r = planCli({"llama3-70b", "--tp", "3", "--gpus", "6", "--json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("TP 3 does not divide the 64 attention heads"), std::string::npos) << r.err;
    r = planCli({"llama3-70b", "--tp", "8", "--gpus", "12"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("12"), std::string::npos) << r.err;
    r = planCli({"llama3-70b", "--schedule", "interleaved:1"});
    EXPECT_EQ(r.status, 2);
    r = planCli({"llama3-70b", "--zero", "4"});
    EXPECT_EQ(r.status, 2);
    r = planCli({"no-such-model"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown model"), std::string::npos) << r.err;
    r = planCli({"llama3-70b", "--search", "--tp", "8"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--search excludes --tp"), std::string::npos) << r.err;
}

TEST(PlanCli, ChineseTableAndSearch)
{
    PlanRun r = planCli({"llama3-8b", "--tp", "8", "--lang", "zh"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("单步时间"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("限制单步的因素："), std::string::npos) << r.out;
    r = planCli({"llama3-70b", "--gpus", "64", "--preset", "2x8-h100-ib", "--search", "--top", "3", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_LE(j["plans"].size(), 3u);
    EXPECT_GT(j["fit"].get<int>(), 0);
    EXPECT_GT(j["considered"].get<int>(), j["fit"].get<int>());
}

} // namespace
} // namespace shardlab
