// The lab's first program: every GPU this process sees is one rank (ncclCommInitAll); each rank
// fills its buffer with a known pattern (rank r, element i: 100 (r + 1) + (i mod 100)), all the
// ranks all-reduce (sum) it, and each rank's result is checked, element by element, against the
// closed form 50 n (n + 1) + n (i mod 100) (lab_common.h). Prints, per rank, its GPU, what it had,
// what it got and how many elements were right; which GPU pairs can reach each other directly
// (peer access); and the wall-clock time per all-reduce. Exits 1 when any element is wrong.
//   allreduce_verify [--count 1048576] [--repeat 5]
// To profile: shardlab profile -- allreduce_verify (docs/profiling.md).
#include "lab_common.h"

int main(int argc, char** argv)
{
    long long count = 1 << 20, repeat = 5;
    if (int st = lab::parseOptions(
            argc, argv, "All-reduce (sum) a known pattern across every visible GPU and check each rank's result.",
            {lab::integer("--count", &count, 1, 1LL << 32, "floats per rank"),
             lab::integer("--repeat", &repeat, 1, 100000, "all-reduces of the same input")});
        st >= 0)
        return st;
    lab::Gpus gpus;
    if (int st = lab::openEveryGpu("allreduce_verify", gpus))
        return st;
    const int n = gpus.n;
    const size_t c = static_cast<size_t>(count);
    std::printf("allreduce_verify: %d GPU(s), %zu floats (%zu bytes) per rank, all-reduce (sum), %lld time(s)\n", n, c,
                c * sizeof(float), repeat);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (a != b) {
                int can = 0;
                CHECK_CUDA(cudaDeviceCanAccessPeer(&can, a, b));
                std::printf("  GPU %d -> GPU %d: %s\n", a, b,
                            can ? "peer access (direct path)" : "no peer access (through the host)");
            }

    std::vector<float*> send(n), recv(n);
    for (int r = 0; r < n; ++r) {
        if (gpus.allocate(r, c, &send[r]) || gpus.allocate(r, c, &recv[r]) || lab::fillPattern(r, send[r], c))
            return 1;
        CHECK_CUDA(cudaMemset(recv[r], 0xff, c * sizeof(float))); // NaN: an element NCCL did not write is wrong
    }

    // Out of place, so every repeat computes the same sum from the same input.
    const double t0 = lab::nowUs();
    for (long long k = 0; k < repeat; ++k) {
        CHECK_NCCL(ncclGroupStart());
        for (int r = 0; r < n; ++r)
            CHECK_NCCL(ncclAllReduce(send[r], recv[r], c, ncclFloat, ncclSum, gpus.comms[r], gpus.streams[r]));
        CHECK_NCCL(ncclGroupEnd());
    }
    if (gpus.synchronize())
        return 1;
    const double perCallUs = (lab::nowUs() - t0) / static_cast<double>(repeat);

    bool ok = true;
    std::vector<float> had, got, expected(std::min<size_t>(c, 4));
    for (size_t i = 0; i < expected.size(); ++i)
        expected[i] = lab::allReduceValue(n, i);
    for (int r = 0; r < n; ++r) {
        if (lab::readBack(r, send[r], c, had) || lab::readBack(r, recv[r], c, got))
            return 1;
        size_t firstWrong = 0;
        const size_t wrong = lab::countWrong(got, n, 0, &firstWrong);
        std::printf("rank %d (GPU %d, %s): had %s got %s expected %s: ", r, r, gpus.names[r].c_str(),
                    lab::head(had).c_str(), lab::head(got).c_str(), lab::head(expected).c_str());
        if (wrong == 0) {
            std::printf("all %zu elements correct\n", c);
        } else {
            ok = false;
            std::printf("%zu of %zu elements WRONG, the first at index %zu: got %g, expected %g\n", wrong, c,
                        firstWrong, got[firstWrong], lab::allReduceValue(n, firstWrong));
        }
    }
    std::printf("%.1f us per all-reduce (wall clock of %lld back-to-back calls, set-up excluded)\n", perCallUs, repeat);
    if (!ok) {
        std::printf("verification FAILED: some rank does not hold the sum of the %d ranks' inputs\n", n);
        return 1;
    }
    std::printf("verification passed: every rank holds the sum of the %d ranks' inputs\n", n);
    return 0;
}
