// `shardlab sim|live FILE --stream`: the run as a run stream (run_stream.h) on standard output
// while it happens, for the app (locally and over SSH, docs/remote.md). FILE `-` reads the
// scenario from standard input, so that nothing a user typed reaches a remote shell's command line.
//
// Stopping: the run is cancelled at the first line that cannot be written, i.e. as soon as the
// reader has gone (the app cancelled, the SSH connection dropped: sshd closes the pipe). SIGPIPE
// is ignored so that this is a clean cancellation, with the GPUs released by the executor's
// normal teardown, rather than death by signal.
#include "cli.h"

#include "shardlab/base/file_io.h"
#include "shardlab/base/version.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/live.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <csignal>
#include <iostream>
#include <iterator>
#include <memory>
#include <ostream>
#include <streambuf>

#include <fcntl.h>
#include <unistd.h>

namespace shardlab::cli {

namespace {

std::istream* g_scenarioInput = &std::cin;
bool g_outIsProcessStdout = false;

// Writes straight to a file descriptor (a private duplicate of standard output): while a live run
// sends file descriptor 1 to standard error (NCCL prints there), the stream still reaches the reader.
class FdStreamBuf : public std::streambuf {
public:
    explicit FdStreamBuf(int fd) : m_fd(fd) {}
    ~FdStreamBuf() override
    {
        if (m_fd >= 0)
            close(m_fd);
    }

protected:
    std::streamsize xsputn(const char* s, std::streamsize n) override
    {
        std::streamsize done = 0;
        while (done < n) {
            const ssize_t w = write(m_fd, s + done, static_cast<size_t>(n - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return done;
            done += w;
        }
        return done;
    }
    int_type overflow(int_type c) override
    {
        if (traits_type::eq_int_type(c, traits_type::eof()))
            return traits_type::not_eof(c);
        const char ch = traits_type::to_char_type(c);
        return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
    }

private:
    int m_fd;
};

using StreamRunner = std::function<Result<RunResult>(const Scenario&, RunStreamWriter&)>;

int streamRun(const RunArgs& a, Io io, StreamHeader header, std::ostream& out, const StreamRunner& runner)
{
    RunStreamWriter writer(out);
    auto fail = [&](const Error& e) {
        writer.error(e);
        return reportError(e, io);
    };
    auto scenario = loadRunScenario(a, io.language());
    if (!scenario)
        return fail(scenario.error());
    if (header.mode == RunMode::Live && !a.profile.empty())
        scenario->costProfile = a.profile;
    header.scenario = *scenario;
    header.shardlabVersion = kVersion;
    if (!writer.header(header)) {
        io.err << "shardlab: " << io.say("cli.stream.closed") << "\n";
        return kExitRunFailed;
    }
    auto run = runner(*scenario, writer);
    if (!writer.ok()) {
        io.err << "shardlab: " << io.say("cli.stream.reader_gone") << "\n";
        return kExitRunFailed;
    }
    if (!run)
        return fail(run.error());
    if (!writeResultFile(a.result, *scenario, *run, header.launch, header.machine, io))
        return fail(badInput(Message("error.line.result_not_saved").with("file", a.result)));
    if (!writer.result(*run)) {
        io.err << "shardlab: " << io.say("cli.stream.gone_before_result") << "\n";
        return kExitRunFailed;
    }
    if (run->hang) {
        io.err << "shardlab: " << io.say(Message("cli.hung").with("explanation", run->hang->explanationMessage()))
               << "\n";
        return kExitRunFailed;
    }
    return run->mode == RunMode::Live ? checkWrongElements(*run, kExitOk, io) : kExitOk;
}

} // namespace

void setScenarioInput(std::istream& in) { g_scenarioInput = &in; }
void setOutputIsProcessStdout(bool yes) { g_outIsProcessStdout = yes; }

Result<std::string> readScenarioInput()
{
    auto text = readCapped(*g_scenarioInput, "<standard input>",
                           Message("error.file_kind.suffix").with("suffix", ".shardlab.json"));
    if (!text && g_scenarioInput->bad())
        return badInput(Message("error.line.no_stdin_scenario"));
    return text;
}

int simStream(const RunArgs& a, Io io, const SimulationOptions& base)
{
    std::signal(SIGPIPE, SIG_IGN);
    StreamHeader header;
    header.mode = RunMode::Simulated;
    header.launch = "simulation";
    return streamRun(a, io, header, io.out, [&](const Scenario& scenario, RunStreamWriter& writer) {
        SimulationOptions options = base;
        options.iterationDone = [&](const RunResult& soFar, int done, int total) {
            return writer.chunk(soFar, done, total);
        };
        return simulate(scenario, options);
    });
}

// NCCL prints on file descriptor 1: in a real process the stream goes to a private duplicate of
// it while descriptor 1 goes to standard error.
struct LiveStreamOutput::Parts {
    std::unique_ptr<FdStreamBuf> buf;
    std::unique_ptr<std::ostream> own;
    std::unique_ptr<StdoutToStderr> quiet;
};

LiveStreamOutput::LiveStreamOutput(Io io) : m_parts(std::make_unique<Parts>()), m_io(io)
{
    std::signal(SIGPIPE, SIG_IGN);
    if (g_outIsProcessStdout) {
        io.out.flush();
        std::cout.flush();
        if (const int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0); fd >= 0) {
            m_parts->buf = std::make_unique<FdStreamBuf>(fd);
            m_parts->own = std::make_unique<std::ostream>(m_parts->buf.get());
        }
    }
    m_parts->quiet = std::make_unique<StdoutToStderr>(m_parts->own != nullptr);
}

LiveStreamOutput::~LiveStreamOutput()
{
    m_parts->quiet.reset();
    m_parts->own.reset();
    m_parts->buf.reset();
}

std::ostream& LiveStreamOutput::stream() { return m_parts->own ? *m_parts->own : m_io.out; }

int liveStream(const RunArgs& a, Io io, const LiveOptions& base)
{
    StreamHeader header;
    header.mode = RunMode::Live;
    header.launch = "single process";
    if (liveBuiltIn())
        if (auto machine = discoverTopology())
            header.machine = *machine;
    LiveStreamOutput output(io);
    return streamRun(a, io, header, output.stream(), [&](const Scenario& scenario, RunStreamWriter& writer) {
        LiveOptions options = base;
        // each iteration's timeline as it completes, as the simulator's stream sends it
        options.iterationDone = [&](const RunResult& soFar, int done, int total) {
            return writer.chunk(soFar, done, total);
        };
        return runLive(scenario, options);
    });
}

} // namespace shardlab::cli
