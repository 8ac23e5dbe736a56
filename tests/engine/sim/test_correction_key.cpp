// Calibration corrections keyed by {collective, ranks} (CorrectionKey, cost_model.h): the profile
// file keeps the readable "all_reduce/4", parsed in one place; a key that is not one is refused by
// name, where it used to be kept and never applied.
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/profiles.h"

#include <gtest/gtest.h>

using namespace shardlab;

static_assert(CorrectionKey("all_reduce/4") == CorrectionKey(OpKind::AllReduce, 4)); // checked when it compiles

TEST(CorrectionKey, ReadsAndWritesTheFileForm)
{
    EXPECT_EQ(CorrectionKey::fromText("reduce_scatter/16"), CorrectionKey(OpKind::ReduceScatter, 16));
    EXPECT_EQ(CorrectionKey(OpKind::AllGather, 2).text(), "all_gather/2");
    for (const char* bad : {"all_reduce", "all_reduce/", "all_reduce/0", "all_reduce/x4", "allreduce/4", "compute/4",
                            "/4", "all_reduce/99999999"})
        EXPECT_FALSE(CorrectionKey::fromText(bad)) << bad;
}

TEST(CorrectionKey, ProfileRoundTripsAndRefusesABadKey)
{
    CostProfile p = CostProfile::defaults();
    p.name = "k";
    p.corrections[{OpKind::AllGather, 8}] = {{1024, 1.5}};
    auto back = profileFromJson(profileToJson(p), "k.json");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->corrections, p.corrections);
    EXPECT_NE(profileToJson(p).find("\"all_gather/8\""), std::string::npos);

    auto bad = profileFromJson(
        R"({"shardlab_profile": 1, "name": "x", "corrections": {"allreduce/4": [{"bytes": 1024, "factor": 2}]}})",
        "x.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("$.corrections.allreduce/4"), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().message.find("all_reduce/4"), std::string::npos) << bad.error().message;
}
