// The lab's variant: the all-reduce of allreduce_verify.cu done as a reduce-scatter followed by an
// all-gather, next to the all-reduce itself. Every GPU this process sees is one rank; each fills
// its buffer with the known pattern (lab_common.h). The reduce-scatter leaves rank r the summed
// shard r (elements r c ... (r + 1) c - 1, c = count / n), which is checked against the closed
// form; the all-gather of the shards must then reproduce the all-reduce's result on every rank,
// element by element. Prints per rank its input, its shard and the gathered result, how much
// memory each result takes, and the wall-clock time of each way. Exits 1 when any element is wrong.
//   reduce_scatter_all_gather [--count 1048576] [--repeat 5]
// (count is rounded down to a multiple of the number of GPUs.)
#include "lab_common.h"

int main(int argc, char** argv)
{
    long long count = 1 << 20, repeat = 5;
    if (int st =
            lab::parseOptions(argc, argv,
                              "Reduce-scatter then all-gather a known pattern across every visible GPU, check each "
                              "rank's shard and result against the all-reduce.",
                              {lab::integer("--count", &count, 1, 1LL << 32, "floats per rank"),
                               lab::integer("--repeat", &repeat, 1, 100000, "times each way is run")});
        st >= 0)
        return st;
    lab::Gpus gpus;
    if (int st = lab::openEveryGpu("reduce_scatter_all_gather", gpus))
        return st;
    const int n = gpus.n;
    const size_t shard = static_cast<size_t>(count) / n;
    if (shard == 0) {
        std::fprintf(stderr, "reduce_scatter_all_gather: --count %lld is less than the %d GPUs: each needs a shard\n",
                     count, n);
        return lab::kExitUsage;
    }
    const size_t c = shard * n;
    std::printf("reduce_scatter_all_gather: %d GPU(s), %zu floats per rank (%zu per shard)%s, %lld time(s) each way\n",
                n, c, shard, c != static_cast<size_t>(count) ? " (rounded down to a multiple of the GPUs)" : "",
                repeat);

    std::vector<float*> send(n), part(n), gathered(n), reduced(n);
    for (int r = 0; r < n; ++r) {
        if (gpus.allocate(r, c, &send[r]) || gpus.allocate(r, shard, &part[r]) || gpus.allocate(r, c, &gathered[r])
            || gpus.allocate(r, c, &reduced[r]) || lab::fillPattern(r, send[r], c))
            return 1;
        // NaN everywhere: an element NCCL did not write is wrong.
        CHECK_CUDA(cudaMemset(part[r], 0xff, shard * sizeof(float)));
        CHECK_CUDA(cudaMemset(gathered[r], 0xff, c * sizeof(float)));
        CHECK_CUDA(cudaMemset(reduced[r], 0xff, c * sizeof(float)));
    }

    // Way 1: reduce-scatter (send -> shard), then all-gather (shard -> gathered). The all-gather
    // follows the reduce-scatter on each rank's stream, so it reads a finished shard.
    double t0 = lab::nowUs();
    for (long long k = 0; k < repeat; ++k) {
        CHECK_NCCL(ncclGroupStart());
        for (int r = 0; r < n; ++r)
            CHECK_NCCL(ncclReduceScatter(send[r], part[r], shard, ncclFloat, ncclSum, gpus.comms[r], gpus.streams[r]));
        CHECK_NCCL(ncclGroupEnd());
        CHECK_NCCL(ncclGroupStart());
        for (int r = 0; r < n; ++r)
            CHECK_NCCL(ncclAllGather(part[r], gathered[r], shard, ncclFloat, gpus.comms[r], gpus.streams[r]));
        CHECK_NCCL(ncclGroupEnd());
    }
    if (gpus.synchronize())
        return 1;
    const double rsAgUs = (lab::nowUs() - t0) / static_cast<double>(repeat);

    // Way 2: the all-reduce (send -> reduced).
    t0 = lab::nowUs();
    for (long long k = 0; k < repeat; ++k) {
        CHECK_NCCL(ncclGroupStart());
        for (int r = 0; r < n; ++r)
            CHECK_NCCL(ncclAllReduce(send[r], reduced[r], c, ncclFloat, ncclSum, gpus.comms[r], gpus.streams[r]));
        CHECK_NCCL(ncclGroupEnd());
    }
    if (gpus.synchronize())
        return 1;
    const double arUs = (lab::nowUs() - t0) / static_cast<double>(repeat);

    bool ok = true;
    std::vector<float> had, mine, all, ar;
    for (int r = 0; r < n; ++r) {
        if (lab::readBack(r, send[r], c, had) || lab::readBack(r, part[r], shard, mine)
            || lab::readBack(r, gathered[r], c, all) || lab::readBack(r, reduced[r], c, ar))
            return 1;
        size_t firstWrong = 0;
        const size_t shardWrong = lab::countWrong(mine, n, r * shard, &firstWrong);
        std::printf("rank %d (GPU %d, %s): had %s; reduce-scatter shard %d (elements %zu-%zu) %s: ", r, r,
                    gpus.names[r].c_str(), lab::head(had).c_str(), r, r * shard, (r + 1) * shard - 1,
                    lab::head(mine).c_str());
        if (shardWrong == 0) {
            std::printf("all %zu correct\n", shard);
        } else {
            ok = false;
            std::printf("%zu of %zu WRONG, the first at element %zu: got %g, expected %g\n", shardWrong, shard,
                        r * shard + firstWrong, mine[firstWrong], lab::allReduceValue(n, r * shard + firstWrong));
        }
        const size_t allWrong = lab::countWrong(all, n, 0, &firstWrong);
        size_t differ = 0;
        for (size_t i = 0; i < c; ++i)
            differ += all[i] != ar[i];
        std::printf("    all-gather %s: ", lab::head(all).c_str());
        if (allWrong == 0 && differ == 0) {
            std::printf("all %zu correct, equal to the all-reduce's result\n", c);
        } else {
            ok = false;
            std::printf("%zu of %zu WRONG", allWrong, c);
            if (allWrong)
                std::printf(" (the first at element %zu: got %g, expected %g)", firstWrong, all[firstWrong],
                            lab::allReduceValue(n, firstWrong));
            std::printf("; %zu differ from the all-reduce's result\n", differ);
        }
    }
    std::printf(
        "memory per rank for the result: reduce-scatter %zu bytes (its shard), all-gather and all-reduce %zu bytes\n",
        shard * sizeof(float), c * sizeof(float));
    std::printf("wall clock per call, %lld back-to-back: reduce-scatter + all-gather %.1f us, all-reduce %.1f us\n",
                repeat, rsAgUs, arUs);
    if (!ok) {
        std::printf("verification FAILED\n");
        return 1;
    }
    std::printf("verification passed: every shard is the sum of its elements over the %d ranks, and reduce-scatter + "
                "all-gather reproduces the all-reduce on every rank\n",
                n);
    return 0;
}
