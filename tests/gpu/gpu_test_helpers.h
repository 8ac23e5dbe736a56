// What the GPU tests share: how many GPUs live mode sees, a GoogleTest skip naming why a test
// cannot run here, and the machine and workload their scenarios start from.
#pragma once

#include "shardlab/live/live.h"
#include "shardlab/model/scenario.h"
#include "shardlab/model/strategies.h"

#include <string>

namespace shardlab::test {

// The GPUs live mode can use here (0 without a driver, a GPU or live mode), asked once.
inline int liveGpuCount()
{
    static const int count = [] {
        auto d = liveDevices();
        return d ? static_cast<int>(d->size()) : 0;
    }();
    return count;
}

// n H200-like GPUs (141 GB, 10 TFLOP/s) on one NVSwitch by NV18; "data" (1 MB) split evenly, one
// shard per rank; "grads" (gradBytes) replicated on every rank. The caller adds the program.
inline Scenario nvSwitchScenario(int n, Bytes gradBytes, const std::string& name)
{
    Scenario s;
    s.name = name;
    s.topology.name = "test";
    s.topology.switches.push_back({"nvs", SwitchKind::NvSwitch, 0, 0});
    for (int i = 0; i < n; ++i) {
        s.topology.gpus.push_back({"gpu" + std::to_string(i), "TestGPU", 141'000'000'000ULL, 10.0, 4800, 0, 0});
        s.topology.links.push_back({"gpu" + std::to_string(i), "nvs", LinkKind::NvLink, 18, 450, 0.2});
    }
    s.workload.items.push_back({"data", ItemKind::Data, 1'000'000, evenShards(1'000'000, n)});
    for (int i = 0; i < n; ++i)
        s.workload.items.back().shards[static_cast<size_t>(i)].owners = {i};
    WorkloadItem grads{"grads", ItemKind::Gradients, gradBytes, {{0, gradBytes, {}}}};
    for (int i = 0; i < n; ++i)
        grads.shards[0].owners.push_back(i);
    s.workload.items.push_back(grads);
    return s;
}

} // namespace shardlab::test

// Skips a GoogleTest test that needs n GPUs, saying how many there are or why there are none.
#define REQUIRE_GPUS(n)                                                                                                \
    do {                                                                                                               \
        if (shardlab::test::liveGpuCount() < (n)) {                                                                    \
            auto d = shardlab::liveDevices();                                                                          \
            GTEST_SKIP() << "needs " << (n) << " GPU(s); "                                                             \
                         << (d ? std::to_string(d->size()) + " here" : d.error().message);                             \
        }                                                                                                              \
    } while (0)
