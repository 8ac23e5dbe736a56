// The GEMM shapes `calibrate --compute` times are checked before any GPU is touched.
#include "shardlab/live/live_gemm.h"

#include <gtest/gtest.h>

namespace shardlab {
namespace {

TEST(LiveGemm, ShapesOutOfRangeAreRefusedNamingTheShape)
{
    EXPECT_TRUE(checkGemmShapes({{1, 1, 1}, {kMaxGemmSide, 8, 8}}));
    EXPECT_FALSE(checkGemmShapes({}));
    auto bad = checkGemmShapes({{8, 8, 8}, {8, 0, 8}});
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, ErrorKind::BadInput);
    EXPECT_NE(bad.error().message.find("GEMM shape 1 (8 x 0 x 8)"), std::string::npos) << bad.error().message;
    EXPECT_FALSE(checkGemmShapes({{kMaxGemmSide + 1, 8, 8}}));
    EXPECT_FALSE(checkGemmShapes({{8, 8, -3}}));
}

TEST(LiveGemm, FlopsAndBytesOfAShape)
{
    const GemmShape s{4096, 2048, 1024};
    EXPECT_DOUBLE_EQ(s.flops(), 2.0 * 4096 * 2048 * 1024);
    EXPECT_DOUBLE_EQ(s.bytes(), 2.0 * (4096.0 * 1024 + 1024.0 * 2048 + 4096.0 * 2048));
    const GemmTiming t{s, 100}; // 17.18 GFLOP in 100 us = 171.8 TFLOP/s
    EXPECT_NEAR(t.tflops(), 2.0 * 4096 * 2048 * 1024 / 100e-6 / 1e12, 1e-9);
    const CopyTiming c{2e9, 1e6}; // 2 GB read + written in a second
    EXPECT_DOUBLE_EQ(c.gbps(), 2);
}

} // namespace
} // namespace shardlab
