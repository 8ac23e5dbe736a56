// `shardlab profile --live [--out DIR] -- COMMAND...`: the profiled program as a run stream
// (run_stream.h, format version 2's open program) on standard output while it runs, for the app's
// Run > Profile a program (docs/profiling.md "Live").
//   * the program's standard output goes to standard error: standard output is the stream's;
//   * every 100 ms (or 4 times what the last look took, whichever is longer) the record files are
//     read on from where the last look stopped
//     (ProfileDirectoryTail), the run so far is built (buildProfiledRun, records still arriving)
//     and the collectives every rank has finished since the last chunk are sent, with the spans
//     up to them (settledPrefix, profile_live.h); the header goes out once a communicator of two
//     or more ranks is known (its scenario: the machine and ranks, no program yet);
//   * when the program has ended, the run is built from the files as `shardlab profile --collect`
//     builds it, and the result line brings it: the program as observed, and, when the chunks
//     sent differ from the finished run's first entries (the GPU clock fit moved as later kernel
//     brackets arrived), the whole final timeline, which replaces them. So the run the reader ends
//     with is the non-live profile's, entry for entry.
//   * Stop: SIGTERM to this process goes on to the program; what it recorded until then is
//     built and sent, with a note saying how it ended. A reader that goes away (a closed pipe)
//     stops the program the same way.
#include "cli.h"
#include "cli_profile.h"

#include "shardlab/base/version.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_format.h"
#include "shardlab/profile/profile_live.h"
#include "shardlab/profile/profile_reader.h"
#include "shardlab/profile/profile_scenario.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace shardlab::cli {

namespace {

namespace fs = std::filesystem;

constexpr auto kLookEvery = std::chrono::milliseconds(100);

bool sameSpan(const Span& a, const Span& b)
{
    return a.rank == b.rank && a.stream == b.stream && a.kind == b.kind && a.beginUs == b.beginUs && a.endUs == b.endUs
           && a.op == b.op && a.iteration == b.iteration && a.bucket == b.bucket && a.collective == b.collective
           && a.waitedFor == b.waitedFor && a.detail == b.detail;
}

bool sameCollective(const CollectiveRecord& a, const CollectiveRecord& b)
{
    auto sameTimes = [](const std::vector<double>& x, const std::vector<double>& y) {
        if (x.size() != y.size())
            return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (!(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i]))))
                return false;
        return true;
    };
    return a.op == b.op && a.iteration == b.iteration && a.bucket == b.bucket && a.sequence == b.sequence
           && a.kind == b.kind && a.bytes == b.bytes && a.group == b.group && sameTimes(a.arrivalUs, b.arrivalUs)
           && a.startUs == b.startUs && a.endUs == b.endUs && a.lastArrival == b.lastArrival
           && a.algorithm == b.algorithm && a.protocol == b.protocol && a.wrongElements == b.wrongElements;
}

// Whether what was sent is, entry for entry, the beginning of `final`.
bool sentIsPrefixOf(const RunResult& sent, const RunResult& final)
{
    if (sent.spans.size() > final.spans.size() || sent.collectives.size() > final.collectives.size())
        return false;
    for (size_t i = 0; i < sent.spans.size(); ++i)
        if (!sameSpan(sent.spans[i], final.spans[i]))
            return false;
    for (size_t i = 0; i < sent.collectives.size(); ++i)
        if (!sameCollective(sent.collectives[i], final.collectives[i]))
            return false;
    return true;
}

class LiveProfile {
public:
    LiveProfile(const ProfileArgs& a, RunStreamWriter& writer, const fs::path& dir, std::optional<Topology> machine)
        : m_a(a), m_writer(writer), m_tail(dir), m_machine(std::move(machine))
    {
    }

    // One look at the files: the header once the job's ranks are known, then what settled.
    void look()
    {
        if (m_tailProblem)
            return;
        if (Status st = m_tail.poll(); !st) {
            m_tailProblem = st.error();
            return;
        }
        if (!m_headerSent) {
            const int n = m_tail.worldRanks();
            if (n < 2)
                return;
            if (!sendHeader(machineFor(n)))
                return;
        }
        auto files = m_tail.files();
        if (!files)
            return;
        ProfileBuildOptions options;
        options.machine = m_machine;
        options.name = name();
        options.recordsStillArriving = true;
        auto built = buildProfiledRun(*files, options); // not yet (a rank with no record yet, no collective): next look
        if (!built)
            return;
        const size_t settled = settledCollectives(built->run);
        if (settled <= m_sent.collectives.size())
            return;
        const RunResult prefix = settledPrefix(built->run, settled);
        m_sent.spans.insert(m_sent.spans.end(), prefix.spans.begin() + static_cast<std::ptrdiff_t>(m_sent.spans.size()),
                            prefix.spans.end());
        m_sent.collectives.insert(m_sent.collectives.end(),
                                  prefix.collectives.begin() + static_cast<std::ptrdiff_t>(m_sent.collectives.size()),
                                  prefix.collectives.end());
        m_writer.chunk(prefix, static_cast<int>(settled), 0);
    }

    bool headerSent() const { return m_headerSent; }
    const std::optional<Error>& tailProblem() const { return m_tailProblem; }
    const RunResult& sent() const { return m_sent; }
    std::string name() const { return "profile of " + joined(m_a.command); }

    Topology machineFor(int ranks) const { return m_machine ? *m_machine : defaultProfileMachine(ranks); }

    bool sendHeader(const Topology& machine)
    {
        StreamHeader header;
        header.mode = RunMode::Live;
        header.shardlabVersion = kVersion;
        header.launch = "shardlab profile --live";
        header.openProgram = true;
        header.scenario.name = name();
        header.scenario.description = "The program as ShardLab's NCCL profiler observes it, while it runs.";
        header.scenario.strategy = kObservedStrategy;
        header.scenario.topology = machine;
        m_headerSent = m_writer.header(header);
        return m_headerSent;
    }

private:
    const ProfileArgs& m_a;
    RunStreamWriter& m_writer;
    ProfileDirectoryTail m_tail;
    std::optional<Topology> m_machine;
    bool m_headerSent = false;
    std::optional<Error> m_tailProblem;
    RunResult m_sent; // what the chunks brought, entry for entry
};

} // namespace

int profileLive(const ProfileArgs& a, Io io)
{
    std::signal(SIGPIPE, SIG_IGN); // a reader that goes away: the next line fails, the program is stopped
    LiveStreamOutput output(io);
    RunStreamWriter writer(output.stream());
    auto fail = [&](const Error& e) {
        writer.error(e);
        return reportError(e, io);
    };
    if (a.run.json)
        return fail(
            badInput(Message("cli.error.live_json").with("command", "profile --live").with("option", "--json")));
    int launchStatus = kExitOk;
    if (multiProcessLaunch(io, launchStatus))
        return fail(badInput(Message("cli.error.live_one_process")
                                 .with("command", "profile --live")
                                 .with("separator", "--")
                                 .with("example", "shardlab profile --live -- mpirun -np 4 ./prog")));
    if (launchStatus != kExitOk)
        return launchStatus;
    // Everything that can be checked, before an earlier run's records are removed; the folder stays
    // locked until the stream has ended.
    auto start = prepareProfile(a, false);
    if (!start)
        return fail(start.error());
    const fs::path& dir = start->dir;
    const std::optional<Topology>& machine = start->machine;
    removeEarlierRecords(dir);

    std::vector<std::string> extra = {"NCCL_PROFILER_PLUGIN=" + start->plugin,
                                      std::string(profile_format::kRecordsDirVariable) + "=" + dir.string()};
    if (const char* flush = std::getenv("SHARDLAB_PROFILE_FLUSH_MS"); !flush || !*flush)
        extra.push_back("SHARDLAB_PROFILE_FLUSH_MS=200"); // records reach the files while the program runs (recorder.h)
    auto program = ProfiledProgram::start(a.command, extra, true);
    if (!program) // said once: nothing was profiled
        return fail(program.error());
    io.err << "shardlab: "
           << io.say(Message("profile.running").with("command", joined(a.command)).with("dir", dir.string())) << "\n";

    LiveProfile live(a, writer, dir, machine);
    std::optional<int> status;
    bool readerGone = false;
    while (!(status = (*program)->ended(false))) {
        const auto lookStart = std::chrono::steady_clock::now();
        live.look();
        const auto lookTook = std::chrono::steady_clock::now() - lookStart;
        if (!writer.ok() && !readerGone) { // the app stopped reading, or its connection dropped
            readerGone = true;
            (*program)->terminate();
        }
        // The program runs on; this only paces the looks. Each look rebuilds the run so far, so a
        // long run's looks are spaced to 4 times what one took: at most a fifth of a core.
        std::this_thread::sleep_for(std::max<std::chrono::steady_clock::duration>(kLookEvery, 4 * lookTook));
    }
    const int signal = (*program)->signal();
    if (signal)
        io.err << "shardlab: " << io.say(Message("profile.signal").with("signal", signal)) << "\n";
    else if (*status != 0)
        io.err << "shardlab: " << io.say(Message("profile.exit").with("status", *status)) << "\n";
    if (readerGone) {
        io.err << "shardlab: " << io.say(Message("cli.error.reader_gone_program")) << "\n";
        return kExitRunFailed;
    }
    // From here on the program's own exit status, when it failed, is the command's (128 + N when
    // signal N ended it), as without --live; the stream says what else went wrong.
    auto passThrough = [&](int shown) { return *status != 0 ? *status : shown; };
    if (live.tailProblem())
        return passThrough(fail(*live.tailProblem()));

    // The finished run, exactly as `shardlab profile --collect DIR` builds it.
    auto files = readProfileDirectory(dir);
    if (!files)
        return passThrough(fail(*status == 0 ? files.error()
                                             : runFailed(Message("cli.error.ended_before_records")
                                                             .with("end", programEndMessage(**program, *status))
                                                             .with("reason", messageOf(files.error())))));
    ProfileBuildOptions options;
    options.machine = machine;
    options.name = live.name();
    options.programEnd = programEndMessage(**program, *status);
    auto built = buildProfiledRun(*files, options);
    if (!built)
        return passThrough(fail(built.error()));
    if (!live.headerSent() && !live.sendHeader(built->scenario.topology))
        return passThrough(kExitRunFailed);
    StreamEnding ending;
    ending.scenario = &built->scenario;
    ending.replaceTimeline = !sentIsPrefixOf(live.sent(), built->run);
    // the table and where the files went, on standard error (standard output is the stream's)
    const int shown = showProfiledRun(*built, dir, a, Io{io.err, io.err, io.lang});
    if (!writer.result(built->run, ending)) {
        io.err << "shardlab: " << io.say(Message("cli.stream.gone_before_result")) << "\n";
        return passThrough(kExitRunFailed);
    }
    return passThrough(shown);
}

} // namespace shardlab::cli
