#include "shardlab/live/live_gemm.h"

#include <string>

namespace shardlab {

Status checkGemmShapes(const std::vector<GemmShape>& shapes)
{
    if (shapes.empty())
        return badInput(Message("error.live.gemm_none"));
    for (size_t i = 0; i < shapes.size(); ++i) {
        const GemmShape& s = shapes[i];
        for (long long side : {s.m, s.n, s.k})
            if (side < 1 || side > kMaxGemmSide)
                return badInput(Message("error.live.gemm_side")
                                    .with("index", static_cast<int>(i))
                                    .with("m", std::to_string(s.m))
                                    .with("n", std::to_string(s.n))
                                    .with("k", std::to_string(s.k))
                                    .with("max", std::to_string(kMaxGemmSide)));
    }
    return {};
}

} // namespace shardlab
