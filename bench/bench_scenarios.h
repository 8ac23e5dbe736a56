// Synthetic scenarios shared by the benchmarks and by the GUI tests that need long runs.
#pragma once

#include "shardlab/model/presets.h"
#include "shardlab/model/scenario.h"

#include <string>
#include <vector>

namespace shardlab::bench {

// n H200 on one NVSwitch, each by 18 NVLink4 links (450 GB/s per direction, 0.2 us).
inline Topology oneSwitch(int n)
{
    Topology t;
    t.name = "one switch";
    t.switches.push_back({"nvswitch", SwitchKind::NvSwitch, 0, 0});
    for (int i = 0; i < n; ++i) {
        const std::string id = "gpu" + std::to_string(i);
        t.gpus.push_back({id, "H200", 141'000'000'000ULL, 67, 4800, 0, 0});
        t.links.push_back({id, "nvswitch", LinkKind::NvLink, 18, 450, 0.2});
    }
    return t;
}

// A data-parallel step with 64 gradient buckets (backward interleaved with overlapped bucket
// all-reduces) on clusters of 8-GPU H200 nodes: about 190 spans per rank and iteration, and a few
// milliseconds of engine work per iteration at 64 ranks.
inline Scenario dataParallelStep(int ranks, int iterations = 1)
{
    Scenario s;
    s.name = "bench: data-parallel step, 64 buckets";
    s.topology = scaleOut(*preset("h200-nvswitch-8"), ranks);
    std::vector<int> all(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
        all[static_cast<size_t>(r)] = r;
    WorkloadItem params{"parameters", ItemKind::Parameters, 2'000'000'000ULL, {Shard{0, 2'000'000'000ULL, all}}};
    WorkloadItem grads{"gradients", ItemKind::Gradients, 2'000'000'000ULL, {Shard{0, 2'000'000'000ULL, all}}};
    WorkloadItem batch{"batch", ItemKind::Data, static_cast<Bytes>(ranks) * 1'000'000ULL,
                       evenShards(static_cast<Bytes>(ranks) * 1'000'000ULL, ranks)};
    for (int r = 0; r < ranks; ++r)
        batch.shards[static_cast<size_t>(r)].owners = {r};
    s.workload.items = {params, grads, batch};
    Op fwd;
    fwd.kind = OpKind::Compute;
    fwd.name = "forward";
    fwd.item = "batch";
    fwd.flops = 2e12 * ranks;
    Op bwd = fwd;
    bwd.name = "backward";
    bwd.flops = 4e12 * ranks;
    bwd.buckets = 64;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "gradient all-reduce";
    ar.item = "gradients";
    ar.buckets = 64;
    ar.overlap = true;
    s.program = {fwd, bwd, ar};
    s.perturbations.jitterPct = 2;
    s.iterations = iterations;
    return s;
}

} // namespace shardlab::bench
