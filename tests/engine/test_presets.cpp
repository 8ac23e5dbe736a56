#include "shardlab/model/presets.h"
#include "shardlab/sim/topo_matrix.h"

#include <gtest/gtest.h>

using namespace shardlab;

TEST(Presets, AllRequiredPresetsExistValidateAndCiteASource)
{
    for (const char* id : {"teaching-4x16gb-pcie", "h200-nv18-4", "h200-nvswitch-8", "dgx1-p100", "2x8-h100-ib"}) {
        auto t = preset(id);
        ASSERT_TRUE(t.has_value()) << id;
        EXPECT_TRUE(validateTopology(*t).ok()) << id;
        EXPECT_EQ(t->name, id);
        EXPECT_FALSE(t->source.empty()) << id;
    }
    EXPECT_FALSE(preset("nope").has_value());
    EXPECT_NE(unknownPresetMessage("nope").find("h200-nv18-4"), std::string::npos);
}

TEST(Presets, EveryDescriptionHasItsChinese)
{
    // `shardlab topo --list` words the descriptions from topo.inc: the entry's English must be the
    // preset's description (a preset added or reworded without its entry fails here), and its
    // Chinese must be Chinese.
    for (const PresetInfo& p : presetList()) {
        SCOPED_TRACE(p.id);
        EXPECT_EQ(english(presetDescription(p)), p.description);
        const std::string zh = render(presetDescription(p), Language::Chinese);
        EXPECT_NE(zh, p.description);
        EXPECT_NE(zh.find("，"), std::string::npos) << zh; // Chinese punctuation: a Chinese sentence
    }
}

TEST(Presets, TopoMatrixClassesLikeNvidiaSmi)
{
    auto label = [](const char* id, int a, int b) { return pathClassLabel(classifyPairs(*preset(id))[a][b]); };
    EXPECT_EQ(label("teaching-4x16gb-pcie", 0, 1), "PIX");
    EXPECT_EQ(label("teaching-4x16gb-pcie", 0, 2), "PHB");
    EXPECT_EQ(label("teaching-4x16gb-pcie", 2, 2), "X");
    EXPECT_EQ(label("h200-nv18-4", 0, 3), "NV18");
    EXPECT_EQ(label("h200-nvswitch-8", 1, 6), "NV18");
    EXPECT_EQ(label("dgx1-p100", 0, 1), "NV1");
    EXPECT_EQ(label("dgx1-p100", 0, 4), "NV1");
    EXPECT_EQ(label("dgx1-p100", 0, 5), "SYS");
    EXPECT_EQ(label("2x8-h100-ib", 0, 7), "NV18");
    EXPECT_EQ(label("2x8-h100-ib", 0, 8), "NET");
    EXPECT_EQ(label("teaching-8x16gb-2socket", 0, 4), "SYS");
    EXPECT_TRUE(sharesFastDomain(*preset("h200-nv18-4")));
    EXPECT_FALSE(sharesFastDomain(*preset("teaching-4x16gb-pcie")));
}

TEST(Presets, FirstGpusKeepsOnlyTheirHardware)
{
    const Topology t = preset("2x8-h100-ib")->firstGpus(8);
    EXPECT_EQ(t.rankCount(), 8);
    EXPECT_EQ(t.nodeCount(), 1);
    EXPECT_TRUE(validateTopology(t).ok());
    for (const SwitchNode& s : t.switches)
        EXPECT_EQ(s.node, 0) << s.id;
    EXPECT_TRUE(sharesFastDomain(t));
    const Topology two = preset("teaching-4x16gb-pcie")->firstGpus(2);
    EXPECT_EQ(pathClassLabel(classifyPairs(two)[0][1]), "PIX");
}

TEST(Presets, MatrixTextHasLegendAndRoutes)
{
    const std::string text = formatTopoMatrix(*preset("teaching-4x16gb-pcie"));
    EXPECT_NE(text.find("GPU0   GPU1"), std::string::npos);
    EXPECT_NE(text.find("PIX  = Connection traversing at most a single PCIe bridge"), std::string::npos);
    EXPECT_NE(text.find("GPU0 <-> GPU2"), std::string::npos);
    EXPECT_NE(text.find("do not share"), std::string::npos);
}
