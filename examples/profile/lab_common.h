// What the example programs share (docs/profiling.md, "Programs to profile"): error checks, the
// command line, a GPU spin kernel, the set-up of one process driving every visible GPU through
// ncclCommInitAll, and the known input pattern with its closed-form all-reduce.
//
// Exit statuses of every example: 0 success, 1 a CUDA/NCCL error or a wrong result, 2 a bad
// command line, 3 no usable GPU (kExitNoGpu; the GPU tests skip on it).
#pragma once

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <nccl.h>
#include <string>
#include <vector>

// Both return 1 from the enclosing function (main or a helper returning an exit status) after
// naming the file, the line, the call and the error.
#define CHECK_CUDA(x)                                                                                                  \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                   \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)
#define CHECK_NCCL(x)                                                                                                  \
    do {                                                                                                               \
        ncclResult_t r_ = (x);                                                                                         \
        if (r_ != ncclSuccess) {                                                                                       \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, ncclGetErrorString(r_));                   \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

namespace lab {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoGpu = 3;

// ---- Command line: "--name value" pairs, each checked; --help prints the options. ----

struct Option {
    enum Kind { Integer, Real, Size };
    const char* name; // "--steps"
    Kind kind;
    void* target;    // long long*, double* or size_t*, holding the default
    double min, max; // the accepted range (inclusive)
    const char* help;
};
inline Option integer(const char* name, long long* v, double min, double max, const char* help)
{
    return {name, Option::Integer, v, min, max, help};
}
inline Option real(const char* name, double* v, double min, double max, const char* help)
{
    return {name, Option::Real, v, min, max, help};
}
// A byte count: digits with an optional binary suffix K, M or G (as nccl-tests: 1M = 1048576).
inline Option size(const char* name, size_t* v, double min, double max, const char* help)
{
    return {name, Option::Size, v, min, max, help};
}

inline bool parseNumber(const Option& o, const char* text, double& value)
{
    char* end = nullptr;
    errno = 0;
    value = std::strtod(text, &end);
    if (end == text || errno != 0)
        return false;
    if (o.kind == Option::Size) {
        const char s = *end;
        if (s == 'K' || s == 'k')
            value *= 1024.0, ++end;
        else if (s == 'M' || s == 'm')
            value *= 1024.0 * 1024.0, ++end;
        else if (s == 'G' || s == 'g')
            value *= 1024.0 * 1024.0 * 1024.0, ++end;
    }
    if (*end != '\0' || !std::isfinite(value))
        return false;
    return o.kind == Option::Real || value == std::floor(value);
}

inline std::string defaultOf(const Option& o)
{
    if (o.kind == Option::Integer)
        return std::to_string(*static_cast<long long*>(o.target));
    if (o.kind == Option::Size)
        return std::to_string(*static_cast<size_t*>(o.target));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", *static_cast<double*>(o.target));
    return buf;
}

// Reads argv into the options' targets. Returns -1 to go on, or the exit status: 0 after --help,
// kExitUsage after saying what is wrong (unknown option, missing or malformed value, out of range).
inline int parseOptions(int argc, char** argv, const char* summary, const std::vector<Option>& options)
{
    const char* program = argv[0];
    auto usage = [&](FILE* to) {
        std::fprintf(to, "%s\nUsage: %s", summary, program);
        for (const Option& o : options)
            std::fprintf(to, " [%s %s]", o.name, defaultOf(o).c_str());
        std::fprintf(to, "\n");
        for (const Option& o : options)
            std::fprintf(to, "  %-14s %s (default %s)\n", o.name, o.help, defaultOf(o).c_str());
    };
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            usage(stdout);
            return kExitOk;
        }
        const Option* o = nullptr;
        for (const Option& c : options)
            if (!std::strcmp(argv[i], c.name))
                o = &c;
        if (!o) {
            std::fprintf(stderr, "%s: unknown option '%s'\n", program, argv[i]);
            usage(stderr);
            return kExitUsage;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s: %s needs a value\n", program, o->name);
            return kExitUsage;
        }
        const char* text = argv[++i];
        double v = 0;
        if (!parseNumber(*o, text, v)) {
            std::fprintf(stderr, "%s: %s '%s' is not %s\n", program, o->name, text,
                         o->kind == Option::Real      ? "a number"
                         : o->kind == Option::Integer ? "a whole number"
                                                      : "a byte count (digits, optionally K, M or G)");
            return kExitUsage;
        }
        if (v < o->min || v > o->max) {
            std::fprintf(stderr, "%s: %s %s is out of range: it must be from %.17g to %.17g\n", program, o->name, text,
                         o->min, o->max);
            return kExitUsage;
        }
        if (o->kind == Option::Integer)
            *static_cast<long long*>(o->target) = static_cast<long long>(v);
        else if (o->kind == Option::Size)
            *static_cast<size_t*>(o->target) = static_cast<size_t>(v);
        else
            *static_cast<double*>(o->target) = v;
    }
    return -1;
}

// ---- The GPU spin kernel: simulated work whose length does not depend on the GPU's speed. ----

// One thread spins until `ns` of the GPU's global timer (%globaltimer, in ns) have passed.
__global__ void spinKernel(unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

// Enqueues `us` microseconds of spinning on the stream (nothing for us <= 0).
inline cudaError_t spin(double us, cudaStream_t stream)
{
    if (us <= 0)
        return cudaSuccess;
    spinKernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(us * 1e3));
    return cudaGetLastError();
}

// ---- One process, every visible GPU: GPU g is rank g of one NCCL communicator. ----

struct Gpus {
    int n = 0;
    std::vector<std::string> names;    // per rank: the device's name
    std::vector<ncclComm_t> comms;     // per rank
    std::vector<cudaStream_t> streams; // per rank, on its GPU (blocking: ordered after the default stream)
    std::vector<std::pair<int, void*>> allocations;

    Gpus() = default;
    Gpus(const Gpus&) = delete;
    Gpus& operator=(const Gpus&) = delete;
    // Waits for the GPUs, then frees the buffers, streams and communicators.
    ~Gpus()
    {
        for (int g = 0; g < static_cast<int>(streams.size()); ++g) {
            cudaSetDevice(g);
            cudaStreamSynchronize(streams[g]);
        }
        for (auto [g, p] : allocations) {
            cudaSetDevice(g);
            cudaFree(p);
        }
        for (int g = 0; g < static_cast<int>(streams.size()); ++g) {
            cudaSetDevice(g);
            cudaStreamDestroy(streams[g]);
        }
        for (ncclComm_t c : comms)
            if (c)
                ncclCommDestroy(c);
    }

    // cudaMalloc on GPU g, freed with the Gpus. Returns 0 or 1 (after saying why).
    template <typename T>
    int allocate(int g, size_t count, T** out)
    {
        CHECK_CUDA(cudaSetDevice(g));
        void* p = nullptr;
        const cudaError_t e = cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T));
        if (e != cudaSuccess) {
            std::fprintf(stderr, "GPU %d: cannot allocate %zu bytes: %s\n", g, count * sizeof(T),
                         cudaGetErrorString(e));
            return 1;
        }
        allocations.emplace_back(g, p);
        *out = static_cast<T*>(p);
        return 0;
    }

    // Waits until every GPU's stream has finished. Returns 0 or 1.
    int synchronize() const
    {
        for (int g = 0; g < n; ++g) {
            CHECK_CUDA(cudaSetDevice(g));
            CHECK_CUDA(cudaStreamSynchronize(streams[g]));
        }
        return 0;
    }
};

// Opens every GPU this process sees: one stream each and one communicator over all of them
// (ncclCommInitAll). Returns 0, or the exit status after saying why: kExitNoGpu where there is no
// usable GPU (no driver, no device), 1 on another CUDA or NCCL error.
inline int openEveryGpu(const char* program, Gpus& gpus)
{
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n < 1) {
        std::fprintf(stderr, "%s: no GPU to run on (%s); this program needs at least one CUDA GPU\n", program,
                     e != cudaSuccess ? cudaGetErrorString(e) : "the CUDA driver reports 0 devices");
        return kExitNoGpu;
    }
    gpus.n = n;
    std::vector<int> devices(n);
    for (int g = 0; g < n; ++g) {
        devices[g] = g;
        cudaDeviceProp prop{};
        CHECK_CUDA(cudaGetDeviceProperties(&prop, g));
        gpus.names.emplace_back(prop.name);
        CHECK_CUDA(cudaSetDevice(g));
        // A blocking stream: it waits for what the programs do on the default stream first
        // (cudaMemcpy of the input, cudaMemset), so a collective never reads a buffer being filled.
        cudaStream_t s = nullptr;
        CHECK_CUDA(cudaStreamCreate(&s));
        gpus.streams.push_back(s);
    }
    gpus.comms.assign(n, nullptr);
    CHECK_NCCL(ncclCommInitAll(gpus.comms.data(), n, devices.data()));
    return 0;
}

// ---- The known input and its closed-form all-reduce (sum), exact in float. ----

// Rank r's element i: 100 (r + 1) + (i mod 100), so rank 0 holds 100, 101, ..., rank 1 200, 201, ...
inline float patternValue(int rank, size_t i)
{
    return static_cast<float>(100 * (rank + 1) + static_cast<int>(i % 100));
}
// The sum over n ranks: sum_r 100 (r + 1) + n (i mod 100) = 50 n (n + 1) + n (i mod 100). Every term
// is a whole number below 2^24 for n < 500, so float sums it exactly in any order.
inline float allReduceValue(int n, size_t i)
{
    return static_cast<float>(50 * n * (n + 1) + n * static_cast<int>(i % 100));
}

// Copies rank r's pattern (count elements) to a device buffer. Returns 0 or 1.
inline int fillPattern(int rank, float* device, size_t count)
{
    std::vector<float> host(count);
    for (size_t i = 0; i < count; ++i)
        host[i] = patternValue(rank, i);
    CHECK_CUDA(cudaSetDevice(rank));
    CHECK_CUDA(cudaMemcpy(device, host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
}

// Copies count elements of a device buffer on GPU g back to the host. Returns 0 or 1.
inline int readBack(int g, const float* device, size_t count, std::vector<float>& host)
{
    host.resize(count);
    CHECK_CUDA(cudaSetDevice(g));
    CHECK_CUDA(cudaMemcpy(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost));
    return 0;
}

// Compares got[j] with the all-reduce of n ranks at global index first + j, for every j. Returns
// the number of wrong elements; the first one's index goes to *firstWrong.
inline size_t countWrong(const std::vector<float>& got, int n, size_t first, size_t* firstWrong)
{
    size_t wrong = 0;
    for (size_t j = 0; j < got.size(); ++j)
        if (got[j] != allReduceValue(n, first + j) && wrong++ == 0)
            *firstWrong = j;
    return wrong;
}

// "[100 101 102 103 ...]": the first few values of a buffer.
inline std::string head(const std::vector<float>& v, size_t shown = 4)
{
    std::string s = "[";
    char buf[32];
    for (size_t i = 0; i < std::min(shown, v.size()); ++i) {
        std::snprintf(buf, sizeof buf, i ? " %g" : "%g", v[i]);
        s += buf;
    }
    return s + (v.size() > shown ? " ...]" : "]");
}

// Host wall clock in microseconds (steady).
inline double nowUs()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace lab
