// A learner's bucketed data-parallel step, for `shardlab profile` (docs/profiling.md): one process
// drives every GPU it sees (ncclCommInitAll); each step every GPU "computes" for --compute-us (a
// one-thread kernel spinning on %globaltimer, so the time does not depend on the GPU's speed),
// then all-reduces --buckets gradient buckets of --bytes each, one ncclAllReduce per bucket as
// PyTorch DDP issues them. --straggler R --sleep-us X makes GPU R compute X us longer every step.
// Prints the median step time over --steps steps (after 5 warm-up steps), measured with CUDA
// events on GPU 0: what the plugin's overhead is compared against.
//   allreduce_buckets [--buckets 8] [--bytes 4194304] [--steps 50] [--compute-us 2000]
//                     [--straggler -1] [--sleep-us 0]
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK_CUDA(x)                                                                                                    \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                             \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)
#define CHECK_NCCL(x)                                                                                                    \
    do {                                                                                                               \
        ncclResult_t r_ = (x);                                                                                         \
        if (r_ != ncclSuccess) {                                                                                       \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, ncclGetErrorString(r_));                             \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

// One thread spins until `ns` of the GPU's global timer have passed.
__global__ void spin(unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

int main(int argc, char** argv)
{
    int buckets = 8, steps = 50, straggler = -1;
    size_t bytes = 4u << 20;
    double computeUs = 2000, sleepUs = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char* a = argv[i];
        if (!std::strcmp(a, "--buckets"))
            buckets = std::atoi(argv[i + 1]);
        else if (!std::strcmp(a, "--bytes"))
            bytes = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(a, "--steps"))
            steps = std::atoi(argv[i + 1]);
        else if (!std::strcmp(a, "--compute-us"))
            computeUs = std::atof(argv[i + 1]);
        else if (!std::strcmp(a, "--straggler"))
            straggler = std::atoi(argv[i + 1]);
        else if (!std::strcmp(a, "--sleep-us"))
            sleepUs = std::atof(argv[i + 1]);
    }
    int n = 0;
    CHECK_CUDA(cudaGetDeviceCount(&n));
    std::vector<int> devs(n);
    for (int i = 0; i < n; ++i)
        devs[i] = i;
    std::vector<ncclComm_t> comms(n);
    CHECK_NCCL(ncclCommInitAll(comms.data(), n, devs.data()));
    std::vector<cudaStream_t> streams(n);
    std::vector<float*> buf(n);
    const size_t count = bytes / sizeof(float);
    for (int g = 0; g < n; ++g) {
        CHECK_CUDA(cudaSetDevice(g));
        CHECK_CUDA(cudaStreamCreate(&streams[g]));
        CHECK_CUDA(cudaMalloc(&buf[g], count * sizeof(float) * buckets));
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
            spin<<<1, 1, 0, streams[g]>>>(static_cast<unsigned long long>(us * 1e3));
        }
        for (int b = 0; b < buckets; ++b) {
            CHECK_NCCL(ncclGroupStart());
            for (int g = 0; g < n; ++g)
                CHECK_NCCL(ncclAllReduce(buf[g] + b * count, buf[g] + b * count, count, ncclFloat, ncclSum, comms[g], streams[g]));
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
    std::printf("allreduce_buckets: %d GPU(s), %d buckets of %zu bytes, compute %.0f us: median step %.4f ms over %d steps\n", n,
                buckets, bytes, computeUs, stepMs[stepMs.size() / 2], steps);
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        cudaFree(buf[g]);
        cudaStreamDestroy(streams[g]);
    }
    for (int g = 0; g < n; ++g)
        ncclCommDestroy(comms[g]);
    return 0;
}
