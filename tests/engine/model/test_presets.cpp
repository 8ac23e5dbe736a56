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

// nvidia-smi's layout, word for word in English: the whole text, so that a change to it shows here.
TEST(Presets, MatrixTextIsNvidiaSmisInEnglish)
{
    EXPECT_EQ(topoMatrixText(*preset("teaching-4x16gb-pcie"), Language::English),
              "Topology: teaching-4x16gb-pcie\n"
              "Source:   NVIDIA Tesla V100 PCIe datasheet (14 TFLOP/s FP32, 16 GB, 900 GB/s); "
              "PCI-SIG Gen3 x16 = 15.75 GB/s per direction\n"
              "\n"
              "        GPU0   GPU1   GPU2   GPU3   Node  Device\n"
              "GPU0    X      PIX    PHB    PHB    0     V100 PCIe 16GB, 16 GB, 14.0 TFLOP/s\n"
              "GPU1    PIX    X      PHB    PHB    0     V100 PCIe 16GB, 16 GB, 14.0 TFLOP/s\n"
              "GPU2    PHB    PHB    X      PIX    0     V100 PCIe 16GB, 16 GB, 14.0 TFLOP/s\n"
              "GPU3    PHB    PHB    PIX    X      0     V100 PCIe 16GB, 16 GB, 14.0 TFLOP/s\n"
              "\n"
              "Legend:\n"
              "\n"
              "  X    = Self\n"
              "  PIX  = Connection traversing at most a single PCIe bridge\n"
              "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n"
              "\n"
              "Routes (bandwidth per direction of the narrowest link, latency summed over links):\n"
              "\n"
              "  GPU0 <-> GPU1      15.8 GB/s   1.00 us  via pcie0\n"
              "  GPU0 <-> GPU2      15.8 GB/s   2.00 us  via pcie0 > cpu0 > pcie1\n"
              "  GPU0 <-> GPU3      15.8 GB/s   2.00 us  via pcie0 > cpu0 > pcie1\n"
              "  GPU1 <-> GPU2      15.8 GB/s   2.00 us  via pcie0 > cpu0 > pcie1\n"
              "  GPU1 <-> GPU3      15.8 GB/s   2.00 us  via pcie0 > cpu0 > pcie1\n"
              "  GPU2 <-> GPU3      15.8 GB/s   1.00 us  via pcie1\n"
              "\n"
              "The ranks do not share one fast interconnect domain (NVLink/NVSwitch between every pair).\n");
}

TEST(Presets, MatrixTextHasLegendAndRoutesInChinese)
{
    const std::string text = topoMatrixText(*preset("teaching-4x16gb-pcie"), Language::Chinese);
    EXPECT_NE(text.find("GPU0   GPU1"), std::string::npos);
    EXPECT_NE(text.find("  PIX  = 最多经过一个 PCIe 桥的连接\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  X    = 自身\n"), std::string::npos) << text;
    EXPECT_NE(text.find("GPU0 <-> GPU2"), std::string::npos);
    EXPECT_EQ(text.find("Legend"), std::string::npos);
}
