// The cost profile: its defaults and its calibration corrections (cost_model.h).
#include "shardlab/sim/cost_model.h"

#include <cmath>

namespace shardlab {

// Defaults. Structure after NCCL's tuning model (src/graph/tuning.cc: a base latency per
// algorithm/protocol, a per-step hardware latency per link class, a bandwidth share per protocol).
// The values are fitted to nccl-tests all_reduce_perf on this project's H200 machines (NCCL
// 2.28.9, NVLS off; ../shared/docs/PEERS.md). At 8 B the ring takes 2(n-1) LL steps: 13-18 us on
// 2 GPUs (2 steps) and ~24 us on 4 GPUs (6 steps) give 2.0 us per NVLink step (hop 1.6 + 0.4 us
// of route latency) and launch + base(LL) = 12 us, so 16 us on 2 GPUs and 24 us on 4 (the
// earlier 9 us + 2.4 us per step gave 13.8 and 23.4). 359 GB/s busbw at 2 GB on 4 GPUs against
// 450 GB/s nominal NVLink gives an efficiency of 0.80 (docs/benchmarks.md, "Analysis", compares
// every published figure). PCIe and network efficiencies are the usual shares of line rate that
// NCCL reaches (~80% PCIe, ~90% InfiniBand); calibration replaces all of them.
// LL128 has no handshake per step (NVIDIA/nccl src/device/prims_ll128.h): a ring's LL128 step
// inside a node costs only the part of hop + route latency that its data does not cover
// (ll128IntraStepUs, nccl_tuning.h). When a step carries one line, as at 8 B, LL128 and LL work
// alike (a flag polled per line), so LL128's NVLink hop is LL's 1.6 us. Its base is fitted at 2 MB,
// where NCCL runs LL128 on these GPUs: the five measured collectives (docs/cost-model.md, section
// 4c) less their data time, 6 us of launch and the exposed step latency leave 13.2 (all-reduce, 4
// GPUs), 16.1 (all-gather), 17.7 (reduce-scatter), 16.2 (broadcast) and 16.2 us (all-reduce, 2
// GPUs): base(LL128) = 16 us, about their median (NCCL's own tuner has 14, src/graph/tuning.cc,
// baseLatencies, Ring/LL128). The earlier 6 us base and 2.6 us hop made the 4-GPU all-reduce at
// 2 MB 22% slow and the 2-GPU one 19% fast.
CostProfile CostProfile::defaults()
{
    CostProfile p;
    p.name = "default";
    p.source = "NCCL tuning model structure; fitted to nccl-tests on 2x/4x H200 (PEERS.md)";
    p.launchUs = 6.0;
    p.protocol[static_cast<int>(Protocol::LL)] = {6.0, 0.30};
    p.protocol[static_cast<int>(Protocol::LL128)] = {16.0, 0.85};
    p.protocol[static_cast<int>(Protocol::Simple)] = {12.0, 1.0};
    p.link[static_cast<int>(LinkKind::NvLink)] = {0.80, {1.6, 1.6, 4.0}};
    p.link[static_cast<int>(LinkKind::Pcie)] = {0.80, {2.5, 3.5, 6.0}};
    // GPU peer traffic between sockets is slow: NCCL stages it through host memory (its SHM
    // transport), reaching about half of the CPU interconnect rate.
    p.link[static_cast<int>(LinkKind::CrossSocket)] = {0.50, {3.0, 4.0, 7.0}};
    // InfiniBand: NCCL reaches 24 GB/s per 200 Gb/s NIC and 12 per 100 Gb/s (sjeaugey,
    // github.com/NVIDIA/nccl-tests/issues/119 and /160) and 46-48 GB/s per 400 Gb/s NDR NIC
    // (AddyLaddy, github.com/NVIDIA/nccl-tests/issues/290): 0.92-0.96 of the line rate; 0.94.
    p.link[static_cast<int>(LinkKind::Network)] = {0.94, {5.0, 8.0, 14.0}};
    // NVLink SHARP on 8 H100: all-reduce algbw ~275 GB/s (busbw ~480) against 450 GB/s per
    // direction (sjeaugey, github.com/NVIDIA/nccl-tests/issues/212): 275 / 450 = 0.61. Fitted on
    // that one figure; the 5-7 GPU and two-node figures in docs/cost-model.md are predictions.
    p.nvlsEfficiency = 0.61;
    return p;
}

std::string CorrectionKey::text() const { return std::string(opName(kind)) + "/" + std::to_string(ranks); }

double correctionFactor(const CostProfile& profile, CorrectionKey key, Bytes bytes)
{
    const auto it = profile.corrections.find(key);
    if (it == profile.corrections.end() || it->second.empty())
        return 1.0;
    const auto& pts = it->second;
    double f = pts.front().factor;
    if (bytes >= pts.back().bytes)
        return pts.back().factor;
    for (size_t i = 1; i < pts.size(); ++i)
        if (bytes < pts[i].bytes) {
            if (bytes <= pts[i - 1].bytes)
                return pts[i - 1].factor; // at a measured size (or below the first): its own factor
            const double x0 = std::log(static_cast<double>(pts[i - 1].bytes)),
                         x1 = std::log(static_cast<double>(pts[i].bytes));
            const double t = (std::log(static_cast<double>(bytes)) - x0) / (x1 - x0);
            return pts[i - 1].factor + t * (pts[i].factor - pts[i - 1].factor);
        }
    return f;
}

} // namespace shardlab
