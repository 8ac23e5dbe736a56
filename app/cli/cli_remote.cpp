// `shardlab sim|live --on [USER@]HOST[:PORT] FILE`: the run made by the ShardLab of another machine
// over the system's ssh, as the app's Run > Live on… makes it (docs/remote.md): the target and
// ssh's argument list come from the engine (shardlab/cluster/ssh_target.h), which refuses a hostile
// field before ssh starts; the scenario goes on ssh's standard input, the remote `shardlab sim|live
// --stream -` answers with a run stream, read by the engine's RunStreamReader; the run is printed
// as a local one (the table, --json, --result, --trace, --csv).
#include "cli.h"
#include "progress.h"

#include "shardlab/cluster/ssh_target.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/text/foreign_text.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <ostream>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace shardlab::cli {

namespace {

constexpr size_t kStderrKept = 64 * 1024;

// The ssh client: $SHARDLAB_SSH (as git's GIT_SSH; the tests' wrapper), else `ssh` on the PATH.
std::string sshProgram()
{
    const char* env = std::getenv("SHARDLAB_SSH");
    return env && *env ? env : "ssh";
}

struct Child {
    pid_t pid = -1;
    int in = -1, out = -1, err = -1;
};

void closeFd(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

// `program args...` with its standard input, output and error on pipes; errno's text on failure.
Result<Child> spawn(const std::string& program, const std::vector<std::string>& args)
{
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0)
        return runFailed(systemWords(std::strerror(errno)));
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        return runFailed(systemWords(std::strerror(errno)));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    Child c;
    const int rc = ::posix_spawnp(&c.pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(in[1]);
        ::close(out[0]);
        ::close(err[0]);
        return runFailed(systemWords(std::strerror(rc)));
    }
    c.in = in[1];
    c.out = out[0];
    c.err = err[0];
    ::fcntl(c.in, F_SETFL, ::fcntl(c.in, F_GETFL) | O_NONBLOCK);
    return c;
}

struct Exchange {
    std::string stderrTail;
    int exitStatus = 0;           // ssh's (255: its own failure), 128+N for a signal
    std::optional<Error> refusal; // the reader's: not a run stream, another version, a damaged line
};

// Writes `input` to the child and reads its output into `reader` until both its outputs end.
// A stream the reader refuses ends the child (it would write on for nothing).
Exchange exchange(Child& c, const std::string& input, RunStreamReader& reader, ProgressLine& progress)
{
    Exchange x;
    size_t written = 0;
    char buf[65536];
    if (input.empty())
        closeFd(c.in);
    while (c.out >= 0 || c.err >= 0) {
        pollfd fds[3];
        int n = 0;
        int* which[3];
        for (int* fd : {&c.in, &c.out, &c.err})
            if (*fd >= 0) {
                fds[n] = {*fd, static_cast<short>(fd == &c.in ? POLLOUT : POLLIN), 0};
                which[n++] = fd;
            }
        if (::poll(fds, static_cast<nfds_t>(n), -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int k = 0; k < n; ++k) {
            if (fds[k].revents == 0)
                continue;
            int& fd = *which[k];
            if (&fd == &c.in) {
                const ssize_t w = ::write(fd, input.data() + written, input.size() - written);
                if (w > 0)
                    written += static_cast<size_t>(w);
                if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size())
                    closeFd(fd); // the end of the scenario: the remote `shardlab ... -` reads to it
                continue;
            }
            const ssize_t r = ::read(fd, buf, sizeof buf);
            if (r < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (r <= 0) {
                closeFd(fd);
                continue;
            }
            if (&fd == &c.err) {
                x.stderrTail.append(buf, static_cast<size_t>(r));
                if (x.stderrTail.size() > kStderrKept)
                    x.stderrTail.erase(0, x.stderrTail.size() - kStderrKept);
            } else if (!x.refusal) {
                const Status st =
                    reader.feed(std::string_view(buf, static_cast<size_t>(r)), [&](RunStreamReader::Event e) {
                        if (e == RunStreamReader::Event::Chunk || e == RunStreamReader::Event::Progress)
                            progress.update(reader.done(), reader.total());
                    });
                if (!st) {
                    x.refusal = st.error();
                    ::kill(c.pid, SIGTERM);
                }
            }
        }
    }
    closeFd(c.in);
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    x.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    progress.finish();
    return x;
}

// The last line ssh or the remote command wrote on standard error ("" when none).
std::string lastLine(const std::string& text)
{
    size_t end = text.find_last_not_of(" \t\r\n");
    if (end == std::string::npos)
        return {};
    const size_t start = text.find_last_of('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1,
                       end + 1 - (start == std::string::npos ? 0 : start + 1));
}

} // namespace

void addRemoteOptions(CLI::App* cmd, RunArgs& a, CLI::Option* stream)
{
    auto* on = cmd->add_option(
        "--on", a.on,
        "Run it on another machine over ssh: [USER@]HOST[:PORT], an alias of ~/.ssh/config or user@host; "
        "the ShardLab there runs it (--stream -, the scenario on its standard input) and the run is "
        "printed here (docs/remote.md)");
    // --on and --stream exclude each other, checked in runRemote(): a CLI11 `excludes` between them
    // would list --stream's exclusions in the order of the options' addresses, which changes from
    // one run to the next (the help text must not)
    (void)stream;
    cmd->add_option("--jump", a.jump, "With --on: reach the host through this jump host, [USER@]HOST[:PORT] (ssh -J)")
        ->needs(on);
    cmd->add_option("--remote-shardlab", a.remoteShardlab,
                    "With --on: the shardlab program there, a path absolute or relative to the home folder (default: "
                    "shardlab on its PATH)")
        ->needs(on);
    cmd->add_option("--launcher", a.launcher,
                    "With --on: what starts it there, such as \"srun -N1 --gpus-per-node=8\" or \"mpirun -np 4\"")
        ->needs(on);
    cmd->add_option("--ssh-config", a.sshConfig,
                    "With --on: the ssh configuration file to use (ssh -F) instead of ~/.ssh/config")
        ->needs(on);
}

int runRemote(const RunArgs& a, Io io, const std::string& mode, const std::vector<std::string>& forwarded)
{
    if (a.stream) {
        io.err << "shardlab: "
               << io.say(Message("cli.remote.not_with_stream")
                             .with("on", "--on")
                             .with("stream", "--stream")
                             .with("command", "shardlab " + mode + " --stream -"))
               << "\n";
        return kExitBadInput;
    }
    // every field checked before anything starts, on exactly the text given
    auto destination = parseSshDestination(a.on);
    if (!destination) {
        io.err << "shardlab: --on: " << worded(destination.error(), io.language()) << "\n";
        return kExitBadInput;
    }
    SshTarget target;
    target.destination = *destination;
    if (!a.jump.empty()) {
        auto jump = parseSshDestination(a.jump, SshRole::Jump);
        if (!jump) {
            io.err << "shardlab: --jump: " << worded(jump.error(), io.language()) << "\n";
            return kExitBadInput;
        }
        target.jump = *jump;
    }
    target.configFile = a.sshConfig;
    std::vector<std::string> remoteArgs{mode, "--stream", "-"};
    remoteArgs.insert(remoteArgs.end(), forwarded.begin(), forwarded.end());
    auto command = remoteCommandLine({a.remoteShardlab, a.launcher}, remoteArgs);
    if (!command)
        return reportError(command.error(), io);
    auto args = sshArguments(target, *command);
    if (!args)
        return reportError(args.error(), io);
    auto scenario = loadRunScenario(a, io.language());
    if (!scenario)
        return reportError(scenario.error(), io);

    const std::string host = sshDestinationText(target.destination);
    std::signal(SIGPIPE, SIG_IGN); // ssh gone: its pipe's end is seen by write(), not by a signal
    const std::string program = sshProgram();
    auto child = spawn(program, *args);
    if (!child) {
        io.err << "shardlab: "
               << io.say(Message("cli.remote.cannot_start")
                             .with("program", program)
                             .with("why", messageOf(child.error()))
                             .with("package", "openssh-client")
                             .with("variable", "SHARDLAB_SSH"))
               << "\n";
        return kExitRunFailed;
    }
    RunStreamReader reader(host);
    ProgressLine progress = progressLine(mode == "sim" ? "simulating" : "running live", "iteration");
    const Exchange x = exchange(*child, serializeScenario(*scenario), reader, progress);
    const std::string said = lastLine(x.stderrTail);

    const bool sawHeader = reader.header().has_value();
    auto run = reader.finish();
    if (!run) {
        const auto say = [&](const Message& m) { io.err << "shardlab: " << io.say(m) << "\n"; };
        const auto inLanguage = [&](const Error& e) { return worded(e, io.language()); };
        if (x.refusal)
            say(Message("cli.remote.unreadable").with("host", host).with("problem", inLanguage(*x.refusal)));
        else if (reader.reportedError()) // the remote run's own error line
            say(Message("cli.remote.failed").with("host", host).with("error", inLanguage(run.error())));
        else if (sawHeader)
            say(Message("cli.remote.stopped").with("host", host).with("problem", inLanguage(run.error())));
        else if (x.exitStatus == 255)
            say(Message("cli.remote.no_ssh").with("host", host));
        else if (x.exitStatus == 127)
            say(Message("cli.remote.not_found").with("host", host).with("option", "--remote-shardlab"));
        else
            say(Message("cli.remote.no_run").with("host", host).with("status", std::to_string(x.exitStatus)));
        if (!said.empty() && !reader.reportedError())
            say(Message("cli.remote.said").with("host", host).with("line", said));
        return reader.reportedError() && run.error().kind == ErrorKind::BadInput ? kExitBadInput : kExitRunFailed;
    }
    const Scenario& ran = reader.scenario() ? *reader.scenario() : *scenario;
    const StreamHeader& header = *reader.header();
    if (!writeResultFile(a.result, ran, *run, header.launch + " on " + host, header.machine, io))
        return kExitBadInput;
    const int status = printRun(ran, *run, a, io);
    return run->mode == RunMode::Live ? checkWrongElements(*run, status, io) : status;
}

} // namespace shardlab::cli
