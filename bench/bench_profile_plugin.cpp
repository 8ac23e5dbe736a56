// Host cost of ShardLab's NCCL profiler plugin per event (issue 15's budget: <= 1 us), measured the
// way NCCL calls it: the v5 table, for collectives of one rank, each making 10 calls (group and
// collective start, two kernel channels' start, end state and stop, the collective's and the
// group's stop). Buffer write-outs to the record file are included, amortised, as in a real run.
// Prints the median of 7 runs of 200,000 collectives (2,000,000 calls) and the machine.
//   bench_profile_plugin [PLUGIN.so]
#include "bench_common.h"
#include "nccl_profiler_abi.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace shardlab;

int main(int argc, char** argv)
{
    const std::string path = argc > 1 ? argv[1] : SHARDLAB_PROFILER_PLUGIN_PATH;
    const auto dir = std::filesystem::temp_directory_path() / ("shardlab_bench_profile_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    ::setenv("SHARDLAB_PROFILE_RECORDS_DIR", dir.c_str(), 1); // profile_format.h
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::fprintf(stderr, "cannot open %s: %s\n", path.c_str(), dlerror());
        return 1;
    }
    const auto* p = static_cast<const ncclabi::ProfilerV5*>(dlsym(lib, "ncclProfiler_v5"));
    void* ctx = nullptr;
    int mask = 0;
    if (!p || p->init(&ctx, 0x1234, &mask, "bench", 1, 2, 0, nullptr) != ncclabi::kSuccess) {
        std::fprintf(stderr, "the plugin did not start\n");
        return 1;
    }
    ncclabi::EventDescrV5 group{}, coll{}, ch{};
    group.type = ncclabi::kGroup;
    coll.type = ncclabi::kColl;
    coll.coll.func = "AllReduce";
    coll.coll.datatype = "ncclBfloat16";
    coll.coll.algo = "RING";
    coll.coll.proto = "SIMPLE";
    coll.coll.count = 1 << 20;
    coll.coll.nChannels = 2;
    ch.type = ncclabi::kKernelCh;
    constexpr int collectives = 200000, callsPerCollective = 10;
    std::uint64_t seq = 0;
    const double seconds = bench::medianSeconds(7, [&] {
        for (int i = 0; i < collectives; ++i) {
            void *g = nullptr, *c = nullptr, *k0 = nullptr, *k1 = nullptr;
            p->startEvent(ctx, &g, &group);
            coll.coll.seqNumber = seq++;
            coll.coll.parentGroup = g;
            p->startEvent(ctx, &c, &coll);
            ch.parentObj = c;
            ch.kernelCh.pTimer = seq * 1000;
            ch.kernelCh.channelId = 0;
            p->startEvent(ctx, &k0, &ch);
            ch.kernelCh.channelId = 1;
            p->startEvent(ctx, &k1, &ch);
            ncclabi::StateArgsV4 end{};
            end.kernelCh.pTimer = seq * 1000 + 500;
            p->recordEventState(k0, ncclabi::kStateKernelChStop, &end);
            p->recordEventState(k1, ncclabi::kStateKernelChStop, &end);
            p->stopEvent(k0);
            p->stopEvent(k1);
            p->stopEvent(c);
            p->stopEvent(g);
        }
    });
    p->finalize(ctx);
    std::uintmax_t bytes = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        bytes += std::filesystem::file_size(e.path());
    std::filesystem::remove_all(dir);
    const double perCall = seconds / (collectives * callsPerCollective) * 1e9;
    std::printf("machine: %s\n", bench::machineDescription().c_str());
    std::printf("plugin: %s\n", path.c_str());
    std::printf("host time per plugin call: %.1f ns (median of 7 runs of %d calls; file write-outs included)\n",
                perCall, collectives * callsPerCollective);
    std::printf("host time per collective (10 calls): %.2f us; record file: %.1f bytes per collective\n",
                perCall * callsPerCollective / 1e3, static_cast<double>(bytes) / (7.0 * collectives));
    return 0;
}
