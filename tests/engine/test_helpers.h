// Small builders shared by the engine tests.
#pragma once

#include "shardlab/io/scenario_io.h"
#include "shardlab/model/scenario.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <string>

namespace shardlab::test {

// n GPUs of `tflops` on one NVSwitch at `gbps` per direction, `latUs` per link.
inline Topology nvswitchBox(int n, double gbps = 100, double latUs = 0.25, double tflops = 10)
{
    Topology t;
    t.name = "test-nvswitch";
    t.switches.push_back({"nvs", SwitchKind::NvSwitch, 0, 0});
    for (int i = 0; i < n; ++i) {
        t.gpus.push_back({"gpu" + std::to_string(i), "G", 16'000'000'000ULL, tflops, 1000, 0, 0});
        t.links.push_back({"gpu" + std::to_string(i), "nvs", LinkKind::NvLink, 18, gbps, latUs});
    }
    return t;
}

// A profile with round numbers, so that times can be computed by hand.
inline CostProfile unitProfile()
{
    CostProfile p = CostProfile::defaults();
    p.name = "unit";
    p.launchUs = 5;
    p.protocol = {ProtocolParams{1, 0.5}, ProtocolParams{2, 0.9}, ProtocolParams{4, 1.0}};
    for (auto& l : p.link)
        l = {1.0, {1, 2, 3}};
    return p;
}

// n ranks on an NVSwitch box; item "data" split by `sizes` (GB), compute of `flops` over it,
// then an all-reduce of `arBytes`.
inline Scenario splitScenario(const std::vector<double>& sizesGB, double flops, Bytes arBytes)
{
    Scenario s;
    s.name = "test";
    s.topology = nvswitchBox(static_cast<int>(sizesGB.size()));
    WorkloadItem data{"data", ItemKind::Data, 0, {}};
    std::vector<Bytes> sizes;
    for (double g : sizesGB)
        sizes.push_back(static_cast<Bytes>(g * 1e9));
    data.shards = customShards(sizes);
    for (size_t i = 0; i < data.shards.size(); ++i) {
        data.shards[i].owners = {static_cast<int>(i)};
        data.size += data.shards[i].size;
    }
    s.workload.items.push_back(data);
    Op compute;
    compute.kind = OpKind::Compute;
    compute.name = "work";
    compute.item = "data";
    compute.flops = flops;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "ar";
    ar.bytes = arBytes;
    s.program = {compute, ar};
    return s;
}

// The scenario simulated with the default options; a failure fails the test (and gives an empty run).
inline RunResult simulated(const Scenario& s)
{
    auto run = simulate(s);
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
    return run.ok() ? *run : RunResult{};
}

inline Scenario loadExample(const std::string& file)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/" + file);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    return s.ok() ? *s : Scenario{};
}

} // namespace shardlab::test
