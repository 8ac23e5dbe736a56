// The lab's message-size sweep: all-reduce (float, sum, out of place) across every visible GPU at
// sizes from --min to --max bytes, doubling, timed as nccl-tests times it (and as `shardlab bench`
// does): per size --warmup untimed calls, then --batches batches of --iters back-to-back calls,
// each batch timed by the host's wall clock up to the GPUs' completion; time = the median batch
// / --iters. Each size's result is then checked against the closed form (lab_common.h), #wrong.
//
//   algbw = size / time                    (size = count x 4 bytes per rank; GB/s = 1e9 bytes/s)
//   busbw = algbw x 2 (n - 1) / n          (nccl-tests' all-reduce convention, n = ranks: a ring
//                                           all-reduce moves 2 (n - 1) / n of the buffer through
//                                           each rank's link, so busbw compares with link speed)
//
//   allreduce_sweep [--min 8] [--max 134217728] [--warmup 5] [--iters 20] [--batches 5]
// Sizes take K, M and G (binary, as nccl-tests: 1M = 1048576) and are rounded down to whole floats.
// Exits 1 when any element is wrong.
#include "lab_common.h"

int main(int argc, char** argv)
{
    size_t minBytes = 8, maxBytes = 128u << 20;
    long long warmup = 5, iters = 20, batches = 5;
    if (int st = lab::parseOptions(
            argc, argv, "Time an all-reduce across every visible GPU at sizes from --min to --max, doubling.",
            {lab::size("--min", &minBytes, 4, 1ULL << 36, "smallest size in bytes"),
             lab::size("--max", &maxBytes, 4, 1ULL << 36, "largest size in bytes"),
             lab::integer("--warmup", &warmup, 0, 1000, "untimed calls before each size"),
             lab::integer("--iters", &iters, 1, 100000, "calls per timed batch"),
             lab::integer("--batches", &batches, 1, 1000, "timed batches per size (the median is kept)")});
        st >= 0)
        return st;
    if (minBytes > maxBytes) {
        std::fprintf(stderr, "allreduce_sweep: --min %zu is larger than --max %zu\n", minBytes, maxBytes);
        return lab::kExitUsage;
    }
    lab::Gpus gpus;
    if (int st = lab::openEveryGpu("allreduce_sweep", gpus))
        return st;
    const int n = gpus.n;
    const size_t maxCount = maxBytes / sizeof(float);
    std::vector<float*> send(n), recv(n);
    for (int r = 0; r < n; ++r)
        if (gpus.allocate(r, maxCount, &send[r]) || gpus.allocate(r, maxCount, &recv[r])
            || lab::fillPattern(r, send[r], maxCount))
            return 1;
    auto allReduce = [&](size_t count) -> int {
        CHECK_NCCL(ncclGroupStart());
        for (int r = 0; r < n; ++r)
            CHECK_NCCL(ncclAllReduce(send[r], recv[r], count, ncclFloat, ncclSum, gpus.comms[r], gpus.streams[r]));
        CHECK_NCCL(ncclGroupEnd());
        return 0;
    };

    const double factor = 2.0 * (n - 1) / n;
    std::printf(
        "# allreduce_sweep: %d GPU(s), float sum, out of place; time = median of %lld batches of %lld calls / %lld, "
        "%lld warm-up calls\n",
        n, batches, iters, iters, warmup);
    std::printf("# algbw = size / time, busbw = algbw x 2(n-1)/n = algbw x %.4f\n", factor);
    std::printf("# %12s %12s %6s %6s %10s %10s %10s %7s\n", "size(B)", "count", "type", "redop", "time(us)",
                "algbw(GB/s)", "busbw(GB/s)", "#wrong");
    size_t totalWrong = 0;
    std::vector<float> got;
    for (size_t bytes = minBytes; bytes <= maxBytes; bytes *= 2) {
        const size_t count = std::max<size_t>(bytes / sizeof(float), 1);
        for (int r = 0; r < n; ++r) {
            CHECK_CUDA(cudaSetDevice(r));
            CHECK_CUDA(cudaMemsetAsync(recv[r], 0xff, count * sizeof(float), gpus.streams[r])); // NaN until written
        }
        for (long long w = 0; w < warmup; ++w)
            if (allReduce(count))
                return 1;
        if (gpus.synchronize())
            return 1;
        std::vector<double> batchUs;
        for (long long b = 0; b < batches; ++b) {
            const double t0 = lab::nowUs();
            for (long long k = 0; k < iters; ++k)
                if (allReduce(count))
                    return 1;
            if (gpus.synchronize())
                return 1;
            batchUs.push_back((lab::nowUs() - t0) / static_cast<double>(iters));
        }
        const double timeUs = lab::median(batchUs);
        const double algbw = static_cast<double>(count * sizeof(float)) / timeUs / 1e3; // bytes/us -> GB/s
        size_t wrong = 0, firstWrong = 0;
        for (int r = 0; r < n; ++r) {
            if (lab::readBack(r, recv[r], count, got))
                return 1;
            wrong += lab::countWrong(got, n, 0, &firstWrong);
        }
        totalWrong += wrong;
        std::printf("  %12zu %12zu %6s %6s %10.2f %10.2f %10.2f %7zu\n", count * sizeof(float), count, "float", "sum",
                    timeUs, algbw, algbw * factor, wrong);
        if (bytes > maxBytes / 2)
            break; // the next doubling would pass --max (and could overflow)
    }
    if (totalWrong) {
        std::printf("verification FAILED: %zu wrong elements\n", totalWrong);
        return 1;
    }
    std::printf("verification passed: every size's result is the sum of the %d ranks' inputs on every rank\n", n);
    return 0;
}
