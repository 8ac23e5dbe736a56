// The plugin as NCCL uses it: loaded with dlopen, its v5 table driven by fake_nccl.h for four
// ranks in this process (rank 3 a straggler), then the engine's reader and builder. Every figure
// expected is worked out from the GPU stamps the fake ranks made, within the clock error the
// brackets allow (which the test recomputes from the same records).
#include "fake_nccl.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_clock.h"
#include "shardlab/profile/profile_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace shardlab {
namespace {

namespace fs = std::filesystem;

fs::path freshDir(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("shardlab_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// Each test runs in its own process (ALONE in tests/CMakeLists.txt): the plugin reads its folder once.
TEST(ProfilePlugin, FourRanksWithAStragglerBecomeTheRunTheyPlayed)
{
    const fs::path dir = freshDir("plugin4");
    ::setenv(profile_format::kRecordsDirVariable, dir.c_str(), 1);
    fakenccl::Plugin plugin(SHARDLAB_PROFILER_PLUGIN_PATH);
    ASSERT_TRUE(plugin.error.empty()) << plugin.error;
    const std::vector<std::int64_t> offsets = {1'000'000'000, -2'000'000'000LL + 5'000'000'000LL, 3'500'000'000, 0};
    fakenccl::Communicator comm(plugin, 0xfeedULL, offsets);
    ASSERT_FALSE(comm.failed());
    EXPECT_NE(comm.mask() & ncclabi::kKernelCh, 0);

    constexpr int n = 4, collectives = 3;
    constexpr std::uint64_t straggleNs = 2'000'000; // rank 3 is 2 ms late at #1
    // arrival/end per (collective, rank) on the host clock, from the fake GPUs' stamps
    double arrival[collectives][n], end[collectives][n];
    for (int k = 0; k < collectives; ++k) {
        for (int r = 0; r < n - 1; ++r)
            arrival[k][r] = static_cast<double>(comm.start(r, "AllReduce", 1 << 20, "ncclFloat32"))
                            - static_cast<double>(offsets[static_cast<size_t>(r)]);
        if (k == 1)
            fakenccl::spinFor(straggleNs);
        arrival[k][n - 1] = static_cast<double>(comm.start(n - 1, "AllReduce", 1 << 20, "ncclFloat32"))
                            - static_cast<double>(offsets[n - 1]);
        fakenccl::spinFor(300'000); // the transfer
        for (int r = 0; r < n; ++r)
            end[k][r] =
                static_cast<double>(comm.finish(r).gpuEndNs) - static_cast<double>(offsets[static_cast<size_t>(r)]);
        fakenccl::spinFor(500'000); // every rank's work before the next collective
    }
    comm.finalize();

    auto files = readProfileDirectory(dir);
    ASSERT_TRUE(files) << files.error().message;
    ASSERT_EQ(files->size(), 1u); // one process
    EXPECT_EQ(files->front().comms.size(), 4u);
    EXPECT_EQ(files->front().ops.size(), 12u);
    auto built = buildProfiledRun(*files);
    ASSERT_TRUE(built) << built.error().message;
    const RunResult& run = built->run;
    EXPECT_EQ(built->launch, "1 process driving 4 GPUs");
    ASSERT_EQ(run.collectives.size(), 3u);

    // The error bound of each rank's GPU -> host map, from the same records.
    std::vector<double> errUs(n);
    for (int r = 0; r < n; ++r) {
        std::vector<const ProfiledOp*> ops;
        for (const ProfiledOp& op : files->front().ops)
            if (op.context == files->front().comms[static_cast<size_t>(r)].context)
                ops.push_back(&op);
        errUs[static_cast<size_t>(r)] =
            gpuClockFromBrackets(kernelBrackets(ops, earliestGpuReading(ops))).errorNs() / 1e3;
    }
    // Two ranks' times each off by their bound, and drift fitted between two brackets can double it
    // away from them.
    const double tol = 4 * *std::max_element(errUs.begin(), errUs.end()) + 1e-3;

    // The straggler's collective: everybody else waited for rank 3, from their arrival to its.
    const CollectiveRecord& c1 = run.collectives[1];
    EXPECT_EQ(c1.lastArrival, 3);
    const double t0 = *std::min_element(arrival[0], arrival[0] + n);
    for (int r = 0; r < n; ++r)
        EXPECT_NEAR(c1.arrivalUs[static_cast<size_t>(r)], (arrival[1][r] - t0) / 1e3, tol) << "rank " << r;
    for (int r = 0; r < n - 1; ++r) {
        double wait = 0;
        for (const Span& s : run.spans)
            if (s.rank == r && s.kind == SpanKind::Wait && s.collective == 1) {
                wait += s.durationUs();
                EXPECT_EQ(s.waitedFor, 3);
            }
        EXPECT_NEAR(wait, (arrival[1][n - 1] - arrival[1][r]) / 1e3, tol) << "rank " << r;
        EXPECT_GE(wait, straggleNs / 1e3 - tol);
    }
    // Three equal all-reduces: three steps of one (profile_steps.h).
    EXPECT_EQ(run.iterations.size(), 3u);
    EXPECT_EQ(built->scenario.program.size(), 2u);
    // Each rank's work before #1 (step 1's work, op 0): from its end of #0 to its arrival at #1.
    for (int r = 0; r < n; ++r) {
        double work = 0;
        for (const Span& s : run.spans)
            if (s.rank == r && s.kind == SpanKind::Compute && s.op == 0 && s.iteration == 1)
                work += s.durationUs();
        EXPECT_NEAR(work, (arrival[1][r] - end[0][r]) / 1e3, tol) << "rank " << r;
    }
    const Summary sum = summarize(built->scenario, run);
    ASSERT_TRUE(sum.straggler.has_value());
    EXPECT_EQ(*sum.straggler, 3);
    // busbw of the step's all-reduce (4 MiB, 4 ranks): bytes / the mean over its 3 instances of
    // (latest end - last arrival), x 2(4-1)/4.
    double seconds = 0;
    for (int k = 0; k < collectives; ++k)
        seconds +=
            (*std::max_element(end[k], end[k] + n) - *std::max_element(arrival[k], arrival[k] + n)) / 1e9 / collectives;
    const double algbw = 4194304.0 / seconds / 1e9;
    ASSERT_EQ(sum.collectives.size(), 1u);
    EXPECT_EQ(sum.collectives[0].count, 3);
    EXPECT_NEAR(sum.collectives[0].algbwGBps, algbw, algbw * (2 * tol / (seconds * 1e6)) + 1e-9);
    EXPECT_NEAR(sum.collectives[0].busbwGBps / sum.collectives[0].algbwGBps, 1.5, 1e-12);
    fs::remove_all(dir);
}

TEST(ProfilePlugin, WithoutAFolderItStepsAsideAndSaysWhyOnce)
{
    ::unsetenv(profile_format::kRecordsDirVariable);
    // The folder of cost profiles (sim/profiles.h) is another variable: records never go there.
    const fs::path costProfiles = freshDir("plugin_cost_profiles");
    ::setenv("SHARDLAB_PROFILE_DIR", costProfiles.c_str(), 1);
    fakenccl::Plugin plugin(SHARDLAB_PROFILER_PLUGIN_PATH);
    ASSERT_TRUE(plugin.error.empty()) << plugin.error;
    testing::internal::CaptureStderr();
    void* ctx = nullptr;
    int mask = -1;
    const int first = plugin.v5->init(&ctx, 1, &mask, "x", 1, 2, 0, nullptr);
    const int second = plugin.v4->init(&ctx, &mask, "x", 1, 1, 2, 1, nullptr);
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_NE(first, ncclabi::kSuccess); // NCCL then leaves the plugin out
    EXPECT_NE(second, ncclabi::kSuccess);
    EXPECT_EQ(mask, 0);
    EXPECT_NE(said.find("SHARDLAB_PROFILE_RECORDS_DIR is not set"), std::string::npos) << said;
    EXPECT_EQ(said.find("SHARDLAB_PROFILE_RECORDS_DIR", said.find("SHARDLAB_PROFILE_RECORDS_DIR") + 1),
              std::string::npos)
        << "said twice: " << said;
    // Calls NCCL might still make do nothing.
    void* handle = reinterpret_cast<void*>(1);
    ncclabi::EventDescrV5 d{};
    d.type = ncclabi::kColl;
    EXPECT_EQ(plugin.v5->startEvent(ctx, &handle, &d), ncclabi::kSuccess);
    EXPECT_EQ(handle, nullptr);
    ::unsetenv("SHARDLAB_PROFILE_DIR");
    EXPECT_TRUE(fs::is_empty(costProfiles));
    fs::remove_all(costProfiles);
}

TEST(ProfilePlugin, AFullBufferIsWrittenOutAndNothingIsLost)
{
    const fs::path dir = freshDir("plugin_full");
    ::setenv(profile_format::kRecordsDirVariable, dir.c_str(), 1);
    fakenccl::Plugin plugin(SHARDLAB_PROFILER_PLUGIN_PATH);
    ASSERT_TRUE(plugin.error.empty()) << plugin.error;
    fakenccl::Communicator comm(plugin, 0xabcULL, {0, 0});
    // 6 records per collective and rank (group, collective, channel, its end, two stops): 2,000 collectives on 2 ranks
    // overflow the 8,192-record buffer several times.
    constexpr int collectives = 2000;
    for (int k = 0; k < collectives; ++k) {
        comm.start(0, "AllReduce", 1024, "ncclFloat32", 1);
        comm.start(1, "AllReduce", 1024, "ncclFloat32", 1);
        comm.finish(0);
        comm.finish(1);
    }
    comm.finalize();
    auto files = readProfileDirectory(dir);
    ASSERT_TRUE(files) << files.error().message;
    ASSERT_EQ(files->front().ops.size(), 2u * collectives);
    for (const ProfiledOp& op : files->front().ops) {
        ASSERT_EQ(op.kernel.size(), 1u);
        ASSERT_TRUE(op.kernel[0].gpuEndNs);
        ASSERT_TRUE(op.stopNs);
    }
    auto built = buildProfiledRun(*files);
    ASSERT_TRUE(built) << built.error().message;
    EXPECT_EQ(built->run.collectives.size(), static_cast<size_t>(collectives));
    fs::remove_all(dir);
}

// NCCL closes the plugin when its last communicator is destroyed and opens it again for the next:
// the process's file goes on, and ids and contexts stay unique.
TEST(ProfilePlugin, ClosedAndOpenedAgainTheFileGoesOn)
{
    const fs::path dir = freshDir("plugin_reload");
    ::setenv(profile_format::kRecordsDirVariable, dir.c_str(), 1);
    for (int round = 0; round < 2; ++round) {
        fakenccl::Plugin plugin(SHARDLAB_PROFILER_PLUGIN_PATH);
        ASSERT_TRUE(plugin.error.empty()) << plugin.error;
        fakenccl::Communicator comm(plugin, 0xa0 + static_cast<std::uint64_t>(round), {0, 0});
        for (int k = 0; k <= round; ++k) {
            comm.start(0, "AllReduce", 64, "ncclFloat32", 1);
            comm.start(1, "AllReduce", 64, "ncclFloat32", 1);
            comm.finish(0);
            comm.finish(1);
        }
        comm.finalize();
        ASSERT_EQ(dlclose(plugin.lib), 0); // the last reference: unloaded, its records written out
    }
    auto files = readProfileDirectory(dir);
    ASSERT_TRUE(files) << files.error().message;
    ASSERT_EQ(files->size(), 1u);
    EXPECT_EQ(files->front().comms.size(), 4u);
    EXPECT_EQ(files->front().ops.size(), 6u);
    fs::remove_all(dir);
}

// Interface v3 (NCCL 2.25) names the communicator on each event and gives no GPU timer: the run
// is timed by the host's calls, and says so.
TEST(ProfilePlugin, InterfaceV3IsTimedByTheHost)
{
    const fs::path dir = freshDir("plugin_v3");
    ::setenv(profile_format::kRecordsDirVariable, dir.c_str(), 1);
    fakenccl::Plugin plugin(SHARDLAB_PROFILER_PLUGIN_PATH);
    ASSERT_TRUE(plugin.error.empty()) << plugin.error;
    void* ctx[2] = {};
    for (void*& c : ctx) {
        int mask = 0;
        ASSERT_EQ(plugin.v3->init(&c, &mask), ncclabi::kSuccess);
        EXPECT_NE(mask & ncclabi::kColl, 0);
    }
    for (int k = 0; k < 2; ++k)
        for (int r = 0; r < 2; ++r) {
            ncclabi::EventDescrV3 d{};
            d.type = static_cast<std::uint8_t>(ncclabi::kColl);
            d.rank = r;
            d.coll.commHash = 0x77;
            d.coll.seqNumber = static_cast<std::uint64_t>(k);
            d.coll.func = "Broadcast";
            d.coll.count = 1000;
            d.coll.datatype = "ncclInt8";
            d.coll.root = 1;
            d.coll.algo = "RING";
            d.coll.proto = "LL";
            void* h = nullptr;
            plugin.v3->startEvent(ctx[r], &h, &d);
            ASSERT_NE(h, nullptr);
            plugin.v3->stopEvent(h);
        }
    for (void* c : ctx)
        plugin.v3->finalize(c);
    auto files = readProfileDirectory(dir);
    ASSERT_TRUE(files) << files.error().message;
    auto built = buildProfiledRun(*files);
    ASSERT_TRUE(built) << built.error().message;
    EXPECT_EQ(built->run.ranks, 2);
    ASSERT_EQ(built->run.collectives.size(), 2u);
    EXPECT_EQ(built->run.collectives[0].kind, OpKind::Broadcast);
    EXPECT_EQ(built->run.collectives[0].bytes, 1000u);
    EXPECT_EQ(built->run.collectives[0].protocol, Protocol::LL);
    EXPECT_EQ(built->scenario.program[1].root, 1);
    EXPECT_NE(english(built->run.clockNote).find("no GPU timer"), std::string::npos) << english(built->run.clockNote);
    fs::remove_all(dir);
}

// Interface v4 (NCCL 2.26): the communicator at init, GPU timers on kernel channels.
TEST(ProfilePlugin, InterfaceV4RecordsTheSame)
{
    const fs::path dir = freshDir("plugin_v4");
    ::setenv(profile_format::kRecordsDirVariable, dir.c_str(), 1);
    fakenccl::Plugin plugin(SHARDLAB_PROFILER_PLUGIN_PATH);
    ASSERT_TRUE(plugin.error.empty()) << plugin.error;
    void* ctx[2] = {};
    for (int r = 0; r < 2; ++r) {
        int mask = 0;
        ASSERT_EQ(plugin.v4->init(&ctx[r], &mask, "v4", 0x99, 1, 2, r, nullptr), ncclabi::kSuccess);
    }
    std::uint64_t gpu = 1'000'000;
    for (int r = 0; r < 2; ++r) {
        ncclabi::EventDescrV4 c{};
        c.type = static_cast<std::uint8_t>(ncclabi::kColl);
        c.coll.seqNumber = 0;
        c.coll.func = "ReduceScatter";
        c.coll.count = 256;
        c.coll.datatype = "ncclFloat16";
        c.coll.algo = "RING";
        c.coll.proto = "SIMPLE";
        void* h = nullptr;
        plugin.v4->startEvent(ctx[r], &h, &c);
        ncclabi::EventDescrV4 k{};
        k.type = static_cast<std::uint8_t>(ncclabi::kKernelCh);
        k.parentObj = h;
        k.kernelCh.pTimer = gpu;
        void* kh = nullptr;
        plugin.v4->startEvent(ctx[r], &kh, &k);
        ncclabi::StateArgsV4 end{};
        end.kernelCh.pTimer = gpu + 5000;
        plugin.v4->recordEventState(kh, ncclabi::kStateKernelChStop, &end);
        plugin.v4->stopEvent(kh);
        plugin.v4->stopEvent(h);
    }
    for (void* c : ctx)
        plugin.v4->finalize(c);
    auto files = readProfileDirectory(dir);
    ASSERT_TRUE(files) << files.error().message;
    ASSERT_EQ(files->front().ops.size(), 2u);
    for (const ProfiledOp& op : files->front().ops) {
        ASSERT_EQ(op.kernel.size(), 1u);
        EXPECT_EQ(op.kernel[0].gpuStartNs, gpu);
        EXPECT_EQ(op.kernel[0].gpuEndNs, gpu + 5000);
    }
    auto built = buildProfiledRun(*files);
    ASSERT_TRUE(built) << built.error().message;
    EXPECT_EQ(built->run.collectives[0].bytes, 1024u); // 256 x 2 bytes x 2 ranks
    fs::remove_all(dir);
}

} // namespace
} // namespace shardlab
