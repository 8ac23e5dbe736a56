// A learner's bucketed data-parallel step, for `shardlab profile` (docs/profiling.md): one process
// drives every GPU it sees (ncclCommInitAll); each step every GPU "computes" for --compute-us (a
// one-thread kernel spinning on %globaltimer, so the time does not depend on the GPU's speed),
// then all-reduces --buckets gradient buckets of --bytes each, one ncclAllReduce per bucket as
// PyTorch DDP issues them. --straggler R --sleep-us X makes GPU R compute X us longer every step.
// Prints the median step time over --steps steps (after 5 warm-up steps), measured with CUDA
// events on GPU 0: what the plugin's overhead is compared against.
//   allreduce_buckets [--buckets 8] [--bytes 4194304] [--steps 50] [--compute-us 2000]
//                     [--straggler -1] [--sleep-us 0]
#include "lab_common.h"

int main(int argc, char** argv)
{
    long long buckets = 8, steps = 50, straggler = -1;
    size_t bytes = 4u << 20;
    double computeUs = 2000, sleepUs = 0;
    if (int st = lab::parseOptions(
            argc, argv,
            "A bucketed data-parallel step: compute, then one all-reduce per gradient bucket, on every visible GPU.",
            {lab::integer("--buckets", &buckets, 1, 100000, "all-reduces per step"),
             lab::size("--bytes", &bytes, 4, 1ULL << 36, "bytes per bucket"),
             lab::integer("--steps", &steps, 1, 1000000, "timed steps (after 5 warm-up steps)"),
             lab::real("--compute-us", &computeUs, 0, 1e7, "every GPU's work per step, in us"),
             lab::integer("--straggler", &straggler, -1, 1 << 20, "the GPU that computes longer (-1: none)"),
             lab::real("--sleep-us", &sleepUs, 0, 1e7, "how much longer it computes, in us")});
        st >= 0)
        return st;
    lab::Gpus gpus;
    if (int st = lab::openEveryGpu("allreduce_buckets", gpus))
        return st;
    const int n = gpus.n;
    if (straggler >= n) {
        std::fprintf(stderr, "allreduce_buckets: --straggler %lld: there are %d GPU(s) here, 0 to %d\n", straggler, n,
                     n - 1);
        return lab::kExitUsage;
    }
    const std::vector<cudaStream_t>& streams = gpus.streams;
    const std::vector<ncclComm_t>& comms = gpus.comms;
    std::vector<float*> buf(n);
    const size_t count = bytes / sizeof(float);
    for (int g = 0; g < n; ++g) {
        if (gpus.allocate(g, count * buckets, &buf[g]))
            return 1;
        CHECK_CUDA(cudaMemset(buf[g], 0, count * sizeof(float) * buckets));
    }
    cudaEvent_t begin, end;
    CHECK_CUDA(cudaSetDevice(0));
    CHECK_CUDA(cudaEventCreate(&begin));
    CHECK_CUDA(cudaEventCreate(&end));
    std::vector<float> stepMs;
    for (int s = 0; s < steps + 5; ++s) {
        CHECK_CUDA(cudaSetDevice(0));
        CHECK_CUDA(cudaEventRecord(begin, streams[0]));
        for (int g = 0; g < n; ++g) {
            CHECK_CUDA(cudaSetDevice(g));
            const double us = computeUs + (g == straggler ? sleepUs : 0);
            CHECK_CUDA(lab::spin(us, streams[g]));
        }
        for (int b = 0; b < buckets; ++b) {
            CHECK_NCCL(ncclGroupStart());
            for (int g = 0; g < n; ++g)
                CHECK_NCCL(ncclAllReduce(buf[g] + b * count, buf[g] + b * count, count, ncclFloat, ncclSum, comms[g],
                                         streams[g]));
            CHECK_NCCL(ncclGroupEnd());
        }
        CHECK_CUDA(cudaSetDevice(0));
        CHECK_CUDA(cudaEventRecord(end, streams[0]));
        for (int g = 0; g < n; ++g) {
            CHECK_CUDA(cudaSetDevice(g));
            CHECK_CUDA(cudaStreamSynchronize(streams[g]));
        }
        float ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&ms, begin, end));
        if (s >= 5)
            stepMs.push_back(ms);
    }
    std::sort(stepMs.begin(), stepMs.end());
    std::printf("allreduce_buckets: %d GPU(s), %lld buckets of %zu bytes, compute %.0f us: median step %.4f ms over "
                "%lld steps\n",
                n, buckets, bytes, computeUs, stepMs[stepMs.size() / 2], steps);
    cudaEventDestroy(begin);
    cudaEventDestroy(end);
    return 0;
}
