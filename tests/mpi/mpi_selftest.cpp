// Run under mpirun (ctest label `mpi`): the real MPI transport, loaded as the CLI loads it.
//   mpi_selftest transport   broadcast, variable-size and large gathers, ping-pong clock offsets
//   mpi_selftest job         a whole multi-process run (runLiveJob) whose "GPU work" is a
//                            simulated run split into rank parts; rank 0 checks the merge
//   mpi_selftest stream      the same job streamed (`live --stream` under a launcher): each
//                            process hands its iterations over as they complete; rank 0 writes
//                            the run stream, reads it back and checks it is the merged run
//   mpi_selftest die         rank 1 stops after collective #3 (SIGSTOP, as a hung or frozen
//                            process); rank 0's heartbeat monitor must report it and end the job.
//                            (A process that dies is also noticed by mpirun itself, which may end
//                            the job before the monitor speaks: kill -9 is measured on the GPU
//                            machine, docs/reliability.md, not raced here.)
// Rank 0 prints "selftest OK" when every check passed; any failed check prints "FAILED".
#include "../engine/rank_parts.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/cluster/clock_sync.h"
#include "shardlab/cluster/job_monitor.h"
#include "shardlab/cluster/launch.h"
#include "shardlab/cluster/mpi_loader.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/multi_process.h"
#include "shardlab/sim/simulator.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

using namespace shardlab;

namespace {

int g_failures = 0;

void check(bool ok, int rank, const std::string& what)
{
    if (!ok) {
        std::fprintf(stderr, "rank %d: FAILED: %s\n", rank, what.c_str());
        ++g_failures;
    }
}

Bytes8 pattern(size_t n, int seed)
{
    Bytes8 b(n);
    for (size_t i = 0; i < n; ++i)
        b[i] = static_cast<std::uint8_t>((i * 31 + static_cast<size_t>(seed) * 7) & 0xff);
    return b;
}

void transportChecks(Transport& t)
{
    const int rank = t.rank(), size = t.size();
    auto launch = detectLauncher(processEnvironment());
    check(launch.ok() && launch->has_value() && (*launch)->rank == rank && (*launch)->size == size, rank,
          "the launcher's variables agree with MPI's rank and size");
    check(t.localSize() >= 1 && t.localRank() < t.localSize(), rank, "local rank below local size");
    // The NCCL unique id: 128 opaque bytes from rank 0.
    auto id =
        broadcastBytes(t, rank == 0 ? pattern(128, 99) : Bytes8{}, 0, Tag::Decision, deadlineIn(30'000), "unique id");
    check(id.ok() && *id == pattern(128, 99), rank, "broadcast of the 128-byte unique id");
    // Variable sizes, one of them 3 MB (past the eager limit: a rendezvous transfer).
    const size_t mine = rank == 1 ? 3u << 20 : static_cast<size_t>(rank) * 1000 + 1;
    auto all = gatherBytes(t, pattern(mine, rank), 0, Tag::Part, deadlineIn(30'000), "gather test");
    check(all.ok(), rank, all.ok() ? "" : all.error().message);
    if (rank == 0 && all.ok())
        for (int r = 0; r < size; ++r) {
            const size_t n = r == 1 ? 3u << 20 : static_cast<size_t>(r) * 1000 + 1;
            check((*all)[static_cast<size_t>(r)] == pattern(n, r), rank, "gathered bytes of rank " + std::to_string(r));
        }
    check(barrier(t, deadlineIn(30'000)).ok(), rank, "barrier");
    // Clock offsets: on one host CLOCK_MONOTONIC is one clock, so the truth is 0 and the
    // estimate must be within its bound; the bound itself must be small over shared memory.
    auto offsets = measureClockOffsets(t, processClockUs, 32, deadlineIn(30'000));
    check(offsets.ok(), rank, offsets.ok() ? "" : offsets.error().message);
    if (rank == 0 && offsets.ok())
        for (int r = 1; r < size; ++r) {
            const ClockOffset& o = (*offsets)[static_cast<size_t>(r)];
            std::printf("rank %d clock offset %.2f us, bound %.2f us (%d exchanges)\n", r, o.offsetUs, o.errorUs,
                        o.samples);
            check(std::fabs(o.offsetUs) <= o.errorUs + 0.01, rank, "offset within its bound on one host");
            check(o.errorUs < 5000, rank, "a clock bound below 5 ms");
        }
}

void jobChecks(Transport& t, bool stream)
{
    const int rank = t.rank(), size = t.size();
    // A scenario of `size` ranks on four-GPU teaching cards; its simulation is the "measurement".
    auto loaded = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/straggler-12-6-4-2.shardlab.json");
    check(loaded.ok(), rank, "scenario loads");
    if (!loaded.ok() || loaded->ranks() < size)
        return;
    Scenario s = *loaded;
    s.iterations = 2;
    auto whole = simulate(s);
    check(whole.ok() && s.ranks() == size, rank, "the job has one process per scenario rank (run with -np 4)");
    if (!whole.ok() || s.ranks() != size)
        return;
    whole->mode = RunMode::Live;
    LiveHooks h;
    h.createUniqueId = [] { return Result<Bytes8>(pattern(128, 5)); };
    h.visibleDevices = [] { return -1; };
    h.probe = [](int device, const Environment&) {
        RankTopologyReport r;
        r.host = hostName();
        r.device = device;
        r.gpuName = "pretend GPU";
        r.busId = "0000:0" + std::to_string(device) + ":00.0";
        r.probe = "selftest";
        return r;
    };
    h.clockUs = processClockUs;
    // Every part starts at one moment of the clock the processes of one host share: rank 0's choice.
    Bytes8 baseBytes;
    putDouble(baseBytes, processClockUs() + 200'000);
    auto agreed = broadcastBytes(t, baseBytes, 0, Tag::Decision, deadlineIn(30'000), "start time");
    check(agreed.ok(), rank, "the start time is shared");
    const double base = agreed.ok() ? getDouble(*agreed, 0) : 0;
    h.runRankPart = [&](const Scenario&, int r, int, const Bytes8& id, const LiveOptions& o, RankProgress& p) {
        check(id == pattern(128, 5), r, "the part got rank 0's unique id");
        RankPart part = test::partOf(*whole, r, base);
        if (o.iterationDone) { // streamed: each iteration handed over once the "GPU" got past its end
            const int n = static_cast<int>(whole->iterations.size());
            part.run = test::firstIterations(part.run, n);
            for (int it = 0; it < n; ++it) {
                while (processClockUs() < base + whole->iterations[static_cast<size_t>(it)].endUs)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                o.iterationDone(test::firstIterations(part.run, it + 1), it + 1, n);
            }
        }
        for (size_t i = 0; i < part.run.collectives.size(); ++i)
            p.collectiveCompleted(static_cast<int>(i), verbatim("collective " + std::to_string(i)));
        // the "GPU" is busy until the run's last moment
        const double until = base + whole->endUs();
        while (processClockUs() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return Result<RunResult>(part.run);
    };
    JobOptions o;
    o.clockRounds = 16;
    // streamed: rank 0 writes the run stream as `shardlab live --stream` does
    std::mutex writing;
    std::ostringstream streamed;
    RunStreamWriter writer(streamed);
    int chunks = 0;
    o.stream = stream;
    o.started = [&](const std::optional<Topology>& machine, const std::vector<RankTopologyReport>&) {
        std::lock_guard lock(writing);
        StreamHeader header;
        header.mode = RunMode::Live;
        header.scenario = s;
        header.machine = machine;
        header.launch = t.describe();
        check(writer.header(header), rank, "the header is written");
    };
    o.chunk = [&](const RunResult& soFar, int done, int total) {
        std::lock_guard lock(writing);
        ++chunks;
        check(done == chunks && total == s.iterations, rank, "chunks come in order, one per iteration");
        return writer.chunk(soFar, done, total);
    };
    o.onFailure = [&](const Message& m) {
        check(false, rank, "no failure expected: " + english(m));
        t.abort(3);
    };
    LaunchInfo launch;
    launch.rank = rank;
    launch.size = size;
    launch.localRank = t.localRank();
    launch.localSize = t.localSize();
    JobOutcome out = runLiveJob(t, s, launch, {}, h, o);
    check(out.exitStatus == 0, rank, "exit status 0 (" + english(out.message) + ")");
    if (rank != 0)
        return;
    check(out.run.has_value(), rank, "rank 0 has the merged run");
    if (!out.run)
        return;
    const Summary a = summarize(s, *whole), b = summarize(s, *out.run);
    std::printf("merged step %.4f ms vs %.4f ms; %s\n", b.stepTimeMs, a.stepTimeMs,
                english(out.run->clockNote).c_str());
    check(std::fabs(a.stepTimeMs - b.stepTimeMs) < 0.02 * a.stepTimeMs, rank, "the merged step time");
    check(a.straggler == b.straggler, rank, "the same straggler");
    check(out.run->collectives.size() == whole->collectives.size(), rank, "every collective matched");
    if (!stream)
        return;
    std::lock_guard lock(writing);
    check(chunks == s.iterations, rank, "one chunk per iteration during the run");
    check(writer.result(*out.run), rank, "the result is written");
    auto read = readRunStream(streamed.str(), "<stream>");
    check(read.ok(), rank, "the stream reads back" + (read.ok() ? std::string() : ": " + read.error().message));
    if (read.ok())
        check(serializeRunResult(*read) == serializeRunResult(*out.run), rank,
              "the stream read back is the merged run");
    std::printf("streamed %d chunks, %zu bytes; %s\n", chunks, streamed.str().size(),
                english(out.run->clockNote).c_str());
}

int dieCheck(Transport& t)
{
    RankProgress progress;
    for (int c = 0; c <= 3; ++c)
        progress.collectiveCompleted(c, verbatim("all_reduce 'grads' #" + std::to_string(c)));
    MonitorOptions o; // the defaults the CLI uses: 100 ms beats, 1 s of silence
    JobMonitor monitor(t, progress, hostName(), o, [&](const Message& m) {
        std::fprintf(stderr, "shardlab: rank %d: %s\n", t.rank(), english(m).c_str());
        std::fflush(stderr);
        t.abort(3);
    });
    monitor.setState(ProcessState::Running);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    if (t.rank() == 1)
        std::raise(SIGSTOP); // MPI_Abort from rank 0 kills it, stopped or not
    if (t.rank() != 1)
        progress.collectiveCompleted(4, verbatim("all_reduce 'grads' #4"));
    std::this_thread::sleep_for(std::chrono::seconds(20)); // the monitor ends the job before this
    std::fprintf(stderr, "rank %d: FAILED: nobody noticed that rank 1 stopped\n", t.rank());
    return 1;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "transport";
    auto opened = openMpiTransport();
    if (!opened) {
        std::fprintf(stderr, "FAILED: %s\n", opened.error().message.c_str());
        return 1;
    }
    std::unique_ptr<Transport> t = std::move(*opened);
    if (mode == "die")
        return dieCheck(*t);
    if (mode == "job" || mode == "stream")
        jobChecks(*t, mode == "stream");
    else
        transportChecks(*t);
    // everyone's verdict to rank 0
    Bytes8 verdict = {static_cast<std::uint8_t>(g_failures > 0)};
    auto all = gatherBytes(*t, verdict, 0, Tag::Final, deadlineIn(30'000), "verdict");
    int failed = g_failures > 0 || !all.ok();
    if (t->rank() == 0 && all.ok())
        for (const Bytes8& v : *all)
            failed |= v.empty() || v[0] != 0;
    if (t->rank() == 0)
        std::printf(failed ? "selftest FAILED (%s, %d processes)\n" : "selftest OK (%s, %d processes)\n",
                    t->describe().c_str(), t->size());
    const int status = failed ? 1 : 0;
    t.reset(); // MPI_Finalize
    return status;
}
