// Shared by the GUI tests: scenarios from resources/ and a long-running one.
#pragma once

#include "shardlab/presets.h"
#include "shardlab/scenario_io.h"

#include <QtTest>

#include <string>

namespace shardlab::test {

inline Scenario loadExample(const std::string& file)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/" + file);
    if (!s)
        qFatal("cannot load %s: %s", file.c_str(), s.error().message.c_str());
    return *s;
}

// A data-parallel step with 64 gradient buckets on 64 H200s: a few milliseconds of engine work
// per iteration, so `iterations` sets how long a run takes (about 2,000 take seconds).
inline Scenario longScenario(int iterations, int ranks = 64)
{
    Scenario s;
    s.name = "long: data-parallel step, 64 buckets";
    s.topology = scaleOut(*preset("h200-nvswitch-8"), ranks);
    std::vector<int> all(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
        all[static_cast<size_t>(r)] = r;
    WorkloadItem grads{"gradients", ItemKind::Gradients, 2'000'000'000ULL, {Shard{0, 2'000'000'000ULL, all}}};
    WorkloadItem batch{"batch", ItemKind::Data, static_cast<Bytes>(ranks) * 1'000'000ULL,
                       evenShards(static_cast<Bytes>(ranks) * 1'000'000ULL, ranks)};
    for (int r = 0; r < ranks; ++r)
        batch.shards[static_cast<size_t>(r)].owners = {r};
    s.workload.items = {grads, batch};
    Op bwd;
    bwd.kind = OpKind::Compute;
    bwd.name = "backward";
    bwd.item = "batch";
    bwd.flops = 4e12 * ranks;
    bwd.buckets = 64;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "gradient all-reduce";
    ar.item = "gradients";
    ar.buckets = 64;
    ar.overlap = true;
    s.program = {bwd, ar};
    s.perturbations.jitterPct = 2;
    s.iterations = iterations;
    return s;
}

} // namespace shardlab::test
