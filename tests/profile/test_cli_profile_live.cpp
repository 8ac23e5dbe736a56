// `shardlab profile --live` end to end, with the stand-in NCCL program (fake_nccl_program.cpp) and
// the real `shardlab` process, whose standard output is read as the app reads it
// (RunStreamReader). Deterministic: the program pauses after K collectives until the test, having
// seen those K in the stream, opens its gate (a file); the plugin writes every record at once
// (SHARDLAB_PROFILE_FLUSH_MS=0). Nothing waits for a time to pass; a deadline only turns a hang
// into a failure.
#include "../cli/cli_test_helpers.h"

#include "shardlab/io/result_file.h"
#include "shardlab/io/run_stream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace shardlab {
namespace {

namespace fs = std::filesystem;

std::string liveOut(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("shardlab_live_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    return dir.string();
}

// `shardlab ARGS` with its standard output on a pipe this test reads.
class LiveProfileProcess {
public:
    explicit LiveProfileProcess(std::vector<std::string> args)
    {
        int fds[2];
        if (::pipe(fds) != 0)
            return;
        args.insert(args.begin(), SHARDLAB_CLI);
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(fds[1], STDOUT_FILENO);
            ::close(fds[0]);
            ::close(fds[1]);
            ::setenv("SHARDLAB_PROFILE_FLUSH_MS", "0", 1);
            std::vector<char*> argv;
            for (std::string& a : args)
                argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        ::close(fds[1]);
        m_fd = fds[0];
    }
    ~LiveProfileProcess()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        if (m_pid > 0 && m_status < 0)
            wait();
    }
    // Feeds `reader` until `enough` holds or the stream ends; false at the deadline (a hang).
    bool readUntil(RunStreamReader& reader, const std::function<bool()>& enough)
    {
        char buf[65536];
        while (!enough()) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 120'000) <= 0)
                return false;
            const ssize_t n = ::read(m_fd, buf, sizeof buf);
            if (n <= 0)
                return true; // the end
            EXPECT_TRUE(reader.feed(std::string_view(buf, static_cast<size_t>(n))));
        }
        return true;
    }
    void stop() { ::kill(m_pid, SIGTERM); }
    int wait()
    {
        int status = 0;
        ::waitpid(m_pid, &status, 0);
        m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return m_status;
    }

private:
    pid_t m_pid = -1;
    int m_fd = -1;
    int m_status = -1;
};

// How late the straggler is: far beyond what a provisional clock fit on a loaded machine gets
// wrong (a fit of a few brackets was seen 0.15 ms off under load, and wider under heavier), so
// who arrived last and who waited do not depend on the machine's load.
constexpr int kLateUs = 20'000;

std::vector<std::string> pausedProgram(const std::string& out, int collectives, int pauseAfter)
{
    return {"profile",
            "--live",
            "--out",
            out,
            "--",
            SHARDLAB_FAKE_NCCL_PROGRAM,
            "--ranks",
            "2",
            "--straggler",
            "1",
            "--late-us",
            std::to_string(kLateUs),
            "--collectives",
            std::to_string(collectives),
            "--pause-after",
            std::to_string(pauseAfter),
            "--until",
            out + "/go"};
}

// One span as the failure messages show it: "rank 0 compute op 2 collective -1 waited for -1 [10, 20] us".
std::string describe(const Span& s)
{
    return "rank " + std::to_string(s.rank) + " kind " + std::to_string(static_cast<int>(s.kind)) + " op "
           + std::to_string(s.op) + " iteration " + std::to_string(s.iteration) + " collective "
           + std::to_string(s.collective) + " waited for " + std::to_string(s.waitedFor) + " ["
           + std::to_string(s.beginUs) + ", " + std::to_string(s.endUs) + "] us";
}

void expectSameTimeline(const RunResult& a, const RunResult& b)
{
    ASSERT_EQ(a.spans.size(), b.spans.size());
    ASSERT_EQ(a.collectives.size(), b.collectives.size());
    ASSERT_EQ(a.iterations.size(), b.iterations.size());
    for (size_t i = 0; i < a.spans.size(); ++i) {
        const Span &x = a.spans[i], &y = b.spans[i];
        EXPECT_TRUE(x.rank == y.rank && x.kind == y.kind && x.op == y.op && x.collective == y.collective
                    && x.waitedFor == y.waitedFor && x.beginUs == y.beginUs && x.endUs == y.endUs)
            << "span " << i << ": " << describe(x) << " | " << describe(y);
    }
    for (size_t i = 0; i < a.collectives.size(); ++i) {
        EXPECT_EQ(a.collectives[i].op, b.collectives[i].op);
        EXPECT_EQ(a.collectives[i].lastArrival, b.collectives[i].lastArrival);
        EXPECT_EQ(a.collectives[i].startUs, b.collectives[i].startUs);
        EXPECT_EQ(a.collectives[i].endUs, b.collectives[i].endUs);
    }
}

TEST(CliProfileLive, TheStreamGrowsWhileTheProgramRunsAndEndsWithTheProfile)
{
    const std::string out = liveOut("grows");
    LiveProfileProcess live(pausedProgram(out, 5, 2));
    RunStreamReader reader("profile --live");
    // The program is held after 2 all-reduces: they arrive while it runs.
    ASSERT_TRUE(live.readUntil(reader, [&] { return reader.soFar().collectives.size() >= 2 || reader.finished(); }));
    ASSERT_TRUE(reader.header());
    EXPECT_TRUE(reader.header()->openProgram);
    EXPECT_EQ(reader.soFar().ranks, 2);
    EXPECT_FALSE(reader.finished());
    ASSERT_EQ(reader.soFar().collectives.size(), 2u); // no more: the program waits at the gate
    EXPECT_FALSE(fs::exists(out + "/go"));
    for (const CollectiveRecord& c : reader.soFar().collectives)
        EXPECT_EQ(c.lastArrival, 1); // the straggler, 20 ms late each time
    for (const Span& s : reader.soFar().spans)
        EXPECT_LT(s.op, 4); // the steps of collectives 0 and 1 only
    const RunResult provisional = reader.soFar();

    std::ofstream(out + "/go") << "go\n";
    // the program prints "fake NCCL program: 5 all-reduces ..." on its standard output as it ends:
    // it goes to standard error, and every line the reader gets is the stream's
    ASSERT_TRUE(live.readUntil(reader, [] { return false; }));
    EXPECT_EQ(live.wait(), 0);
    auto run = reader.finish();
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_EQ(run->collectives.size(), 5u);
    ASSERT_NE(reader.scenario(), nullptr);
    // 5 equal all-reduces: the finished run's program is one step of work + all-reduce, 5 times
    // (profile_steps.h); the provisional runs were one iteration of 5 (op 2k+1 for #k).
    ASSERT_EQ(reader.scenario()->program.size(), 2u);
    EXPECT_EQ(reader.scenario()->iterations, 5);
    EXPECT_EQ(run->iterations.size(), 5u);
    const auto globalStep = [](int op, int iteration) { return iteration * 2 + op; };

    // The final run is the non-live profile of the same records, entry for entry.
    auto saved = loadResult(out + "/profile.shardlab-result.json");
    ASSERT_TRUE(saved) << saved.error().message;
    expectSameTimeline(*run, saved->run);
    const auto again = test::runCommand({"profile", "--collect", out, "--result", out + "/again.shardlab-result.json",
                                         "--trace", out + "/again.trace.json"});
    ASSERT_EQ(again.status, 0) << again.err;
    auto collected = loadResult(out + "/again.shardlab-result.json");
    ASSERT_TRUE(collected);
    expectSameTimeline(*run, collected->run);

    // What the chunks brought is the final run's beginning in everything but the clock fit's
    // re-timing and the steps' numbering: the same steps, ranks, work, waits, collectives and who
    // was last. Communication spans are left out: a rank's all-reduce ends 0.1 ms after the
    // straggler arrives, and where the provisional fit (fewer brackets, a loaded machine: residual
    // errors of 0.15 ms were seen) puts that end before the arrival, the merge keeps the wait and
    // draws no communication for that rank (trace_merge.cpp): as measured, not a different run.
    const auto withoutComm = [](const std::vector<Span>& spans) {
        std::vector<Span> kept;
        for (const Span& s : spans)
            if (s.kind != SpanKind::Comm)
                kept.push_back(s);
        return kept;
    };
    const std::vector<Span> early = withoutComm(provisional.spans), final = withoutComm(run->spans);
    ASSERT_LE(early.size(), final.size());
    for (size_t i = 0; i < early.size(); ++i) {
        const Span &x = early[i], &y = final[i];
        EXPECT_TRUE(x.rank == y.rank && x.kind == y.kind && x.op == globalStep(y.op, y.iteration)
                    && x.collective == y.collective && x.waitedFor == y.waitedFor)
            << "span " << i << ": " << describe(x) << " | " << describe(y);
    }
    for (size_t i = 0; i < provisional.collectives.size(); ++i) {
        EXPECT_EQ(provisional.collectives[i].op, globalStep(run->collectives[i].op, run->collectives[i].iteration));
        EXPECT_EQ(provisional.collectives[i].sequence, run->collectives[i].sequence);
        EXPECT_EQ(provisional.collectives[i].bytes, run->collectives[i].bytes);
        EXPECT_EQ(provisional.collectives[i].lastArrival, run->collectives[i].lastArrival);
    }
    fs::remove_all(out);
}

TEST(CliProfileLive, StopEndsTheProgramAndKeepsWhatItRecorded)
{
    const std::string out = liveOut("stop");
    LiveProfileProcess live(pausedProgram(out, 5, 2));
    RunStreamReader reader("profile --live");
    ASSERT_TRUE(live.readUntil(reader, [&] { return reader.soFar().collectives.size() >= 2 || reader.finished(); }));
    ASSERT_FALSE(reader.finished());
    live.stop(); // as the app's Stop: SIGTERM to `shardlab profile`, which passes it on
    ASSERT_TRUE(live.readUntil(reader, [] { return false; }));
    EXPECT_EQ(live.wait(), 128 + SIGTERM); // the program's status, passed through
    auto run = reader.finish();
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->collectives.size(), 2u);
    bool said = false;
    for (const std::string& n : english(run->notes))
        said = said || n.find("the program was ended by signal 15") != std::string::npos;
    EXPECT_TRUE(said) << "the run says it is incomplete and why";
    EXPECT_TRUE(fs::exists(out + "/profile.shardlab-result.json"));
    fs::remove_all(out);
}

TEST(CliProfileLive, AMissingProgramIsAnErrorLineNamingIt)
{
    const std::string out = liveOut("missing");
    const auto r = test::runCommand({"profile", "--live", "--out", out, "--", "/no/such/program", "--flag"});
    EXPECT_EQ(r.status, 2) << r.err;
    auto read = readRunStream(r.out, "profile --live");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("the program /no/such/program does not exist"), std::string::npos)
        << read.error().message;
    const auto notOnPath = test::runCommand({"profile", "--live", "--out", out, "--", "shardlab-no-such-program"});
    EXPECT_EQ(notOnPath.status, 2);
    EXPECT_NE(notOnPath.out.find("shardlab-no-such-program was not found: no folder of PATH holds it"),
              std::string::npos)
        << notOnPath.out;
    fs::remove_all(out);
}

TEST(CliProfileLive, AProgramWithoutCollectivesEndsTheStreamWithAnError)
{
    const std::string out = liveOut("none");
    // `true` loads no NCCL: no record at all.
    const auto r = test::runCommand({"profile", "--live", "--out", out, "--", "true"});
    EXPECT_NE(r.status, 0);
    auto read = readRunStream(r.out, "profile --live");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("the program made no NCCL call, or NCCL did not load the plugin"),
              std::string::npos)
        << read.error().message;
    fs::remove_all(out);
}

} // namespace
} // namespace shardlab
