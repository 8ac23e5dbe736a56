// The lab's straggler: every GPU this process sees is one rank; each step every rank "computes" for
// --compute-us, then one all-reduce (float sum, out of place) of --bytes. Rank --rank (default:
// the last) sleeps --sleep-us more before each all-reduce, so every other rank reaches the
// all-reduce --sleep-us earlier and waits there for it: under `shardlab profile`, that rank is
// named the straggler (the last arrival) and the others' waits are about --sleep-us each.
//
// One host thread drives all the GPUs, so a host sleep would hold back every rank alike; the
// sleep is a kernel spinning on the GPU's own timer in the straggler's stream (lab_common.h).
// Prints the step time (median of --steps, CUDA events on rank 0's stream) beside what it should
// be (compute + sleep + the all-reduce), and checks the last all-reduce's result on every rank.
//   allreduce_straggler [--rank N-1] [--sleep-us 2000] [--compute-us 500] [--steps 20] [--bytes 4194304]
#include "lab_common.h"

int main(int argc, char** argv)
{
    long long rank = -1, steps = 20;
    double sleepUs = 2000, computeUs = 500;
    size_t bytes = 4u << 20;
    if (int st = lab::parseOptions(
            argc, argv, "One rank sleeps before each all-reduce; the others wait for it there.",
            {lab::integer("--rank", &rank, -1, 1 << 20, "the rank that sleeps (-1: the last)"),
             lab::real("--sleep-us", &sleepUs, 0, 1e7, "its sleep before each all-reduce, in us"),
             lab::real("--compute-us", &computeUs, 0, 1e7, "every rank's work before each all-reduce, in us"),
             lab::integer("--steps", &steps, 1, 1000000, "steps (one all-reduce each)"),
             lab::size("--bytes", &bytes, 4, 1ULL << 36, "all-reduce size per rank in bytes")});
        st >= 0)
        return st;
    lab::Gpus gpus;
    if (int st = lab::openEveryGpu("allreduce_straggler", gpus))
        return st;
    const int n = gpus.n;
    if (rank < 0)
        rank = n - 1;
    if (rank >= n) {
        std::fprintf(stderr, "allreduce_straggler: --rank %lld: there are %d GPU(s) here, ranks 0 to %d\n", rank, n,
                     n - 1);
        return lab::kExitUsage;
    }
    const size_t count = bytes / sizeof(float);
    std::vector<float*> send(n), recv(n);
    for (int r = 0; r < n; ++r)
        if (gpus.allocate(r, count, &send[r]) || gpus.allocate(r, count, &recv[r])
            || lab::fillPattern(r, send[r], count))
            return 1;

    std::printf(
        "allreduce_straggler: %d GPU(s); each step every rank computes %.0f us, rank %lld sleeps %.0f us more, then "
        "all-reduce of %zu bytes; %lld steps\n",
        n, computeUs, rank, sleepUs, count * sizeof(float), steps);
    // Events on rank 0's stream at each step's start and after the last step; the host never waits
    // in the loop, so each rank's GPU starts a step as soon as its previous all-reduce ends and the
    // arrivals do not depend on when the host launched the kernels.
    struct Marks {
        std::vector<cudaEvent_t> events;
        ~Marks()
        {
            cudaSetDevice(0);
            for (cudaEvent_t e : events)
                cudaEventDestroy(e);
        }
    } marks;
    CHECK_CUDA(cudaSetDevice(0));
    for (long long s = 0; s <= steps; ++s) {
        cudaEvent_t e = nullptr;
        CHECK_CUDA(cudaEventCreate(&e));
        marks.events.push_back(e);
    }
    for (long long s = 0; s < steps; ++s) {
        CHECK_CUDA(cudaSetDevice(0));
        CHECK_CUDA(cudaEventRecord(marks.events[s], gpus.streams[0]));
        for (int r = 0; r < n; ++r) {
            CHECK_CUDA(cudaSetDevice(r));
            CHECK_CUDA(lab::spin(computeUs, gpus.streams[r]));
            if (r == rank)
                CHECK_CUDA(lab::spin(sleepUs, gpus.streams[r]));
        }
        CHECK_NCCL(ncclGroupStart());
        for (int r = 0; r < n; ++r)
            CHECK_NCCL(ncclAllReduce(send[r], recv[r], count, ncclFloat, ncclSum, gpus.comms[r], gpus.streams[r]));
        CHECK_NCCL(ncclGroupEnd());
    }
    CHECK_CUDA(cudaSetDevice(0));
    CHECK_CUDA(cudaEventRecord(marks.events[steps], gpus.streams[0]));
    if (gpus.synchronize())
        return 1;
    std::vector<double> stepUs;
    for (long long s = 0; s < steps; ++s) {
        float ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&ms, marks.events[s], marks.events[s + 1]));
        stepUs.push_back(ms * 1e3);
    }
    std::printf(
        "median step %.1f us on rank 0 (compute %.0f + sleep %.0f + the all-reduce); each rank but %lld should wait "
        "about %.0f us at every all-reduce\n",
        lab::median(stepUs), computeUs, sleepUs, rank, sleepUs);

    std::vector<float> got;
    size_t wrong = 0, firstWrong = 0;
    for (int r = 0; r < n; ++r) {
        if (lab::readBack(r, recv[r], count, got))
            return 1;
        wrong += lab::countWrong(got, n, 0, &firstWrong);
    }
    if (wrong) {
        std::printf("verification FAILED: %zu wrong elements over the %d ranks\n", wrong, n);
        return 1;
    }
    std::printf("verification passed: the last all-reduce's result is right on every rank\n");
    return 0;
}
