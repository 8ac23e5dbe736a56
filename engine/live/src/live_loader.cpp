// The engine side of live mode: opens libshardlab_live.so at first use and forwards every live.h
// call to it. Compiled into the engine when the build found CUDA and NCCL; the engine itself never
// links CUDA, so the simulation app starts on any machine and live mode loads where it can.
#include "shardlab/live/live_abi.h"
#include "shardlab/live/live_plan.h"
#include "shardlab/base/resources.h"
#include "shardlab/text/foreign_text.h"

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace shardlab {
namespace {

namespace fs = std::filesystem;

struct Loaded {
    const liveabi::Api* api = nullptr;
    std::string path;
    Message error; // why it is not available
};

std::vector<std::string> candidates()
{
    std::vector<std::string> list;
    for (const fs::path& p : shippedLibraryCandidates(SHARDLAB_LIVE_LIBRARY_NAME))
        list.push_back(p.string());
    list.push_back(SHARDLAB_LIVE_BUILD_PATH);
    return list;
}

// `problem` with what to do about a library the live library needs.
Message withHint(Message problem, const std::string& why)
{
    if (why.find("libnccl") != std::string::npos)
        return Message("error.live.hint_nccl")
            .with("problem", std::move(problem))
            .with("library", "libnccl.so.2")
            .with("apt", "apt install libnccl2")
            .with("pip", "pip install nvidia-nccl-cu13")
            .with("variable", "LD_LIBRARY_PATH");
    if (why.find("libcuda") != std::string::npos || why.find("libnvidia") != std::string::npos)
        return Message("error.live.hint_driver").with("problem", std::move(problem));
    return problem;
}

Loaded open(const std::string& path)
{
    Loaded l;
    l.path = path;
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = dlerror();
        const std::string why = e ? e : "";
        l.error = withHint(Message("error.live.library_unloadable")
                               .with("path", path)
                               .with("why", e ? systemWords(why) : Message("error.live.unknown_reason")),
                           why);
        return l;
    }
    auto entry = reinterpret_cast<ShardLabLiveEntry>(dlsym(handle, liveabi::kEntryPoint));
    const liveabi::Api* api = entry ? entry() : nullptr;
    if (!api) {
        l.error = Message("error.line.live_not_library").with("path", path).with("entry", liveabi::kEntryPoint);
        return l;
    }
    if (api->abiVersion != liveabi::kAbiVersion || api->layoutKey != liveabi::layoutKey()) {
        l.error = Message("error.line.live_other_build").with("path", path).with("version", std::string(kVersion));
        return l;
    }
    l.api = api; // the handle stays open for the life of the process
    return l;
}

Loaded load()
{
    if (const char* env = std::getenv("SHARDLAB_LIVE_LIBRARY"); env && *env) {
        if (!fs::exists(env))
            return Loaded{
                nullptr, env,
                Message("error.line.live_library_missing").with("variable", "SHARDLAB_LIVE_LIBRARY").with("path", env)};
        return open(env);
    }
    std::vector<std::string> looked;
    for (const std::string& path : candidates()) {
        std::error_code ec;
        if (fs::exists(path, ec))
            return open(fs::weakly_canonical(path, ec).string());
        looked.push_back(path);
    }
    // Finally the dynamic loader's own search path (LD_LIBRARY_PATH, ld.so.cache).
    Loaded l = open(SHARDLAB_LIVE_LIBRARY_NAME);
    if (l.api || english(l.error).find(SHARDLAB_LIVE_LIBRARY_NAME ": cannot open") == std::string::npos)
        return l; // loaded, or found but something it needs is missing
    std::string where;
    for (const std::string& p : looked)
        where += (where.empty() ? "" : ", ") + p;
    l.error = Message("error.line.live_not_found")
                  .with("library", SHARDLAB_LIVE_LIBRARY_NAME)
                  .with("where", where)
                  .with("variable", "SHARDLAB_LIVE_LIBRARY");
    return l;
}

const Loaded& loaded()
{
    static const Loaded l = load();
    return l;
}

Error unavailable() { return badInput(Message("error.line.live_unavailable").with("reason", loaded().error)); }

} // namespace

bool liveBuiltIn() { return true; }

Message liveBuildInfo()
{
    const Loaded& l = loaded();
    if (!l.api)
        return Message("error.line.live_does_not_load").with("with", SHARDLAB_LIVE_BUILT_WITH).with("reason", l.error);
    return Message("error.line.live_loads")
        .with("with", SHARDLAB_LIVE_BUILT_WITH)
        .with("path", l.path)
        .with("piece_runtime", runtimeVersionsMessage(l.api->runtimeVersions()));
}

Result<RunResult> runLive(const Scenario& scenario, const LiveOptions& options)
{
    if (Status st = checkLiveEvents(scenario, options.captureTimeline); !st)
        return st.error();
    if (!loaded().api)
        return unavailable();
    return loaded().api->runLive(scenario, options);
}

Result<std::vector<SweepRow>> benchLive(OpKind kind, int gpus, const std::vector<Bytes>& sizes,
                                        const LiveBenchOptions& options)
{
    if (!loaded().api)
        return unavailable();
    return loaded().api->benchLive(kind, gpus, sizes, options);
}

Result<std::vector<LiveDevice>> liveDevices()
{
    if (!loaded().api)
        return unavailable();
    return loaded().api->liveDevices();
}

Result<Topology> discoverTopology()
{
    if (!loaded().api)
        return unavailable();
    return loaded().api->discoverTopology();
}

Result<double> measureComputeTflops(int device, double intensity)
{
    if (!loaded().api)
        return unavailable();
    return loaded().api->measureComputeTflops(device, intensity);
}

Result<GemmMeasurement> measureGemms(const std::vector<GemmShape>& shapes, const GemmMeasureOptions& options)
{
    if (!loaded().api)
        return unavailable();
    return loaded().api->measureGemms(shapes, options);
}

Result<ClockCheck> checkClockAlignment(int device, double pauseMs)
{
    if (!loaded().api)
        return unavailable();
    return loaded().api->checkClockAlignment(device, pauseMs);
}

// live_rank.h: one rank of a multi-process run, through the same library.
Result<std::vector<std::uint8_t>> createNcclUniqueId()
{
    if (!loaded().api)
        return unavailable();
    return loaded().api->createNcclUniqueId();
}

int visibleCudaDevices() { return loaded().api ? loaded().api->visibleCudaDevices() : -1; }

RankTopologyReport probeRankTopology(int device, const Environment& env)
{
    if (!loaded().api) {
        RankTopologyReport r = probeTopologyFromSysfs(device, env);
        r.notes.push_back(Message("error.line.live_unavailable").with("reason", loaded().error));
        return r;
    }
    return loaded().api->probeRankTopology(device, env);
}

Result<RunResult> runLiveRankPart(const Scenario& scenario, int rank, int device,
                                  const std::vector<std::uint8_t>& uniqueId, const LiveOptions& options,
                                  RankProgress& progress)
{
    if (!loaded().api)
        return unavailable();
    return loaded().api->runLiveRankPart(scenario, rank, device, uniqueId, options, progress);
}

} // namespace shardlab
