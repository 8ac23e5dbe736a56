// Scenarios shared by the analysis tests (scaling, diagnosis, CLI).
#pragma once

#include "test_helpers.h"

#include <numeric>

namespace shardlab::test {

// `n` 10 TFLOP/s GPUs on one 100 GB/s NVSwitch (nvswitchBox): a batch of n GB split evenly,
// gradients replicated on every rank; `flops` of compute over the batch, then an all-reduce of
// the gradients.
inline Scenario dataParallelBox(int n = 8, double flops = 8e12, Bytes gradients = 1'000'000'000ULL)
{
    Scenario s;
    s.name = "box";
    s.topology = nvswitchBox(n);
    std::vector<int> all(static_cast<size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    const Bytes batchBytes = static_cast<Bytes>(n) * 1'000'000'000ULL;
    WorkloadItem batch{"batch", ItemKind::Data, batchBytes, evenShards(batchBytes, n)};
    for (int r = 0; r < n; ++r)
        batch.shards[static_cast<size_t>(r)].owners = {r};
    WorkloadItem grads{"gradients", ItemKind::Gradients, gradients, {Shard{0, gradients, all}}};
    s.workload.items = {batch, grads};
    Op compute;
    compute.kind = OpKind::Compute;
    compute.name = "forward + backward";
    compute.item = "batch";
    compute.flops = flops;
    Op ar;
    ar.kind = OpKind::AllReduce;
    ar.name = "gradient all-reduce";
    ar.item = "gradients";
    s.program = {compute, ar};
    return s;
}

} // namespace shardlab::test
