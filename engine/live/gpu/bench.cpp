// benchLive: a size sweep of one collective in the manner of nccl-tests (out of place, float,
// sum, one host thread driving every GPU through one NCCL group call per iteration, blocking
// communicators from grouped ncclCommInitRankConfig, time = wall clock of a batch of back-to-back
// calls / calls). The median of several batches is kept. The result of the last call is checked
// against the exact expected values (#wrong).
#include "cuda_util.h"
#include "nccl_calls.h"
#include "shardlab/analysis/sweep.h"
#include "shardlab/kernels.h"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cmath>

namespace shardlab::live {
namespace {

struct BenchRank {
    cudaStream_t stream = nullptr;
    float* send = nullptr;
    float* recv = nullptr;
    unsigned long long* wrong = nullptr;
};

// Owns the sweep's GPU resources; frees them in NCCL's teardown order on every exit path.
struct BenchResources {
    std::vector<BenchRank> ranks;
    std::vector<Communicator> comms;
    double watchdogMs = 10000;
    ~BenchResources()
    {
        std::vector<cudaStream_t> streams;
        for (const BenchRank& r : ranks)
            if (r.stream)
                streams.push_back(r.stream);
        bool timedOut = false;
        const Status st = waitStreams(streams, watchdogMs, &timedOut);
        if (!st || timedOut)
            abortCommunicators(comms);
        else
            (void)destroyCommunicators(comms, true, watchdogMs);
        if (timedOut && !waitStreams(streams, 10000, &timedOut).ok())
            return;
        if (timedOut)
            return; // still running after the abort: leave the memory alone
        for (size_t d = 0; d < ranks.size(); ++d) {
            cudaSetDevice(static_cast<int>(d));
            BenchRank& r = ranks[d];
            if (r.stream)
                cudaStreamDestroy(r.stream);
            for (void* p : {static_cast<void*>(r.send), static_cast<void*>(r.recv), static_cast<void*>(r.wrong)})
                if (p)
                    cudaFree(p);
        }
    }
};

// all-gather-v pieces: member j contributes a share proportional to j + 1, the last takes the rest.
std::vector<std::uint64_t> unequalPieces(std::uint64_t count, int n)
{
    std::vector<std::uint64_t> pieces(static_cast<size_t>(n));
    const std::uint64_t weights = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n + 1) / 2;
    std::uint64_t used = 0;
    for (int j = 0; j + 1 < n; ++j) {
        pieces[static_cast<size_t>(j)] = count * static_cast<std::uint64_t>(j + 1) / weights;
        used += pieces[static_cast<size_t>(j)];
    }
    pieces.back() = count - used;
    return pieces;
}

} // namespace

Result<std::vector<SweepRow>> runBench(OpKind kind, int gpus, const std::vector<Bytes>& sizes,
                                       const LiveBenchOptions& o)
{
    LIVE_TRY(checkSweepRequest(kind, gpus, sizes));
    if (o.iterations < 1 || o.batches < 1 || o.warmup < 0)
        return badInput(Message("error.live.bench_counts").with("command", "bench"));
    LIVE_TRY(requireGpus(gpus, Message("error.live.what.sweep")));
    prepareNcclEnvironment();
    DeviceGuard guard;
    nvtxRangePushA(("ShardLab bench " + std::string(opName(kind))).c_str());
    struct Pop {
        ~Pop() { nvtxRangePop(); }
    } pop;

    const int n = gpus;
    std::vector<Bytes> rounded;
    for (Bytes s : sizes)
        rounded.push_back(roundBenchSize(kind, s, n));
    auto piecesOf = [&](Bytes bytes) {
        return kind == OpKind::AllGatherV ? unequalPieces(bytes / kLiveElementBytes, n) : std::vector<std::uint64_t>{};
    };
    auto shapeOf = [&](Bytes bytes, int member) { return callShape(kind, bytes, n, member, 0, piecesOf(bytes)); };

    BenchResources res;
    res.watchdogMs = o.watchdogMs;
    res.ranks.resize(static_cast<size_t>(n));
    for (int d = 0; d < n; ++d) {
        BenchRank& r = res.ranks[static_cast<size_t>(d)];
        LIVE_CUDA(cudaSetDevice(d));
        LIVE_CUDA(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
        Bytes send = kLiveElementBytes, recv = kLiveElementBytes;
        for (Bytes b : rounded) {
            const CallShape s = shapeOf(b, d);
            send = std::max(send, s.sendCount * kLiveElementBytes);
            recv = std::max(recv, s.recvCount * kLiveElementBytes);
        }
        for (auto [ptr, bytes, what] : {std::tuple{&r.send, send, "error.live.buffer.sweep_send"},
                                        std::tuple{&r.recv, recv, "error.live.buffer.sweep_receive"}}) {
            if (cudaMalloc(reinterpret_cast<void**>(ptr), bytes) != cudaSuccess) {
                cudaGetLastError();
                size_t freeB = 0, totalB = 0;
                cudaMemGetInfo(&freeB, &totalB);
                return runFailed(allocationFailure(d, d, Message(what), bytes, freeB, totalB));
            }
        }
        LIVE_CUDA(cudaMalloc(reinterpret_cast<void**>(&r.wrong), sizeof(unsigned long long)));
        LIVE_KERNEL(kernels::fillPattern(r.send, send / kLiveElementBytes, d, 0, r.stream));
    }
    std::vector<int> group(static_cast<size_t>(n));
    for (int d = 0; d < n; ++d)
        group[static_cast<size_t>(d)] = d;
    res.comms.push_back({group, {}});
    LIVE_TRY(createCommunicators(res.comms, true, std::max(o.watchdogMs, 60000.0)));
    std::vector<cudaStream_t> streams;
    for (const BenchRank& r : res.ranks)
        streams.push_back(r.stream);

    auto issue = [&](Bytes bytes) -> Status {
        const auto pieces = piecesOf(bytes);
        for (int phase = 0; phase < groupCallsOf(kind); ++phase) {
            LIVE_NCCL(ncclGroupStart());
            ncclResult_t failed = ncclSuccess;
            for (int d = 0; d < n; ++d) {
                const BenchRank& r = res.ranks[static_cast<size_t>(d)];
                const ncclResult_t e =
                    enqueueCall(kind, callShape(kind, bytes, n, d, 0, pieces), d, n, 0, pieces,
                                res.comms[0].comms[static_cast<size_t>(d)], {r.send, r.recv, r.stream}, phase);
                if (e != ncclSuccess && failed == ncclSuccess)
                    failed = e;
            }
            LIVE_NCCL(ncclGroupEnd());
            LIVE_NCCL(failed);
        }
        return {};
    };
    auto wait = [&](const Message& what) -> Status {
        bool timedOut = false;
        LIVE_TRY(waitStreams(streams, o.watchdogMs, &timedOut, true));
        if (timedOut) {
            abortCommunicators(res.comms);
            return runFailed(Message("error.live.bench_timed_out")
                                 .with("what", what)
                                 .with("deadline", formatMicros(o.watchdogMs * 1e3)));
        }
        return {};
    };

    std::vector<SweepRow> rows;
    for (size_t i = 0; i < rounded.size(); ++i) {
        if (o.cancel && o.cancel->load())
            return Error(ErrorKind::Cancelled, Message("error.live.bench_cancelled"));
        const Bytes bytes = rounded[i];
        const Message what =
            Message("error.live.op_of_size").with("op", opName(kind)).with("bytes", formatBinaryBytes(bytes));
        nvtxRangePushA(english(what).c_str());
        for (int d = 0; d < n; ++d) {
            const BenchRank& r = res.ranks[static_cast<size_t>(d)];
            LIVE_CUDA(cudaSetDevice(d));
            LIVE_KERNEL(kernels::fillConstant(r.recv, shapeOf(bytes, d).recvCount, std::nanf(""), r.stream));
        }
        for (int w = 0; w < o.warmup; ++w)
            LIVE_TRY(issue(bytes));
        LIVE_TRY(wait(Message("error.live.warm_up_of").with("what", what)));
        std::vector<double> batches;
        for (int b = 0; b < o.batches; ++b) {
            const double t0 = nowNs();
            for (int k = 0; k < o.iterations; ++k)
                LIVE_TRY(issue(bytes));
            LIVE_TRY(wait(what));
            batches.push_back((nowNs() - t0) / 1e3 / o.iterations);
        }
        std::sort(batches.begin(), batches.end());
        SweepRow row = sweepRow(kind, n, shapeOf(bytes, 0).count * kLiveElementBytes, batches[batches.size() / 2]);
        row.algorithm = Algorithm::Auto;
        row.wrong = -1;
        if (o.verify) {
            unsigned long long total = 0;
            for (int d = 0; d < n; ++d) {
                const BenchRank& r = res.ranks[static_cast<size_t>(d)];
                LIVE_CUDA(cudaSetDevice(d));
                LIVE_CUDA(cudaMemsetAsync(r.wrong, 0, sizeof(unsigned long long), r.stream));
                LIVE_KERNEL(enqueueVerify(kind, shapeOf(bytes, d), d, group, 0, piecesOf(bytes),
                                          {r.send, r.recv, r.stream}, r.wrong));
                unsigned long long count = 0;
                LIVE_CUDA(cudaMemcpyAsync(&count, r.wrong, sizeof count, cudaMemcpyDeviceToHost, r.stream));
                LIVE_CUDA(cudaStreamSynchronize(r.stream));
                total += count;
            }
            row.wrong = static_cast<long>(total);
        }
        nvtxRangePop();
        rows.push_back(row);
        if (o.progress && !o.progress(static_cast<int>(i) + 1, static_cast<int>(rounded.size())))
            return Error(ErrorKind::Cancelled, Message("error.live.bench_cancelled"));
    }
    return rows;
}

} // namespace shardlab::live
