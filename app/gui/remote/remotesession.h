// One remote run: the system's `ssh` runs the target's command on the remote machine, the scenario
// goes over its standard input (never on a command line) and the run stream comes back on its
// standard output, read as it arrives by the engine's RunStreamReader, the one reader of run
// streams, on a thread of its own (StreamParser: a long profile's last line is tens of MB, which
// the GUI thread must not parse). Cancel ends ssh; the remote `shardlab` then stops at the next
// line it writes, since sshd closes its standard output (docs/remote.md "Cancel and dropped
// connections").
// Lives on the GUI thread: QProcess delivers bytes through the event loop, which hands them on.
#pragma once

#include "remote/remotefailure.h"
#include "remote/remotetarget.h"
#include "remote/streamparser.h"

#include "shardlab/io/run_stream.h"
#include "shardlab/model/scenario.h"

#include <QObject>
#include <QProcess>
#include <QThread>

#include <memory>

namespace shardlab::gui {

class RemoteSession : public QObject {
    Q_OBJECT
public:
    explicit RemoteSession(RemoteTarget target, QObject* parent = nullptr);
    ~RemoteSession() override;

    void start(const Scenario& scenario);
    // A command that needs no scenario (`shardlab profile --live`, whose header names the run):
    // nothing goes on its standard input.
    void startWithoutScenario();
    // The command is `shardlab profile --live` on a program: Stop ends the program and what the
    // stream brings until it ends is kept (it sends what was recorded: runAvailable, or failed
    // with the part that arrived) instead of cancelled(); failures are worded for a profile.
    void setProfile(bool profile) { m_profile = profile; }
    bool isProfile() const { return m_profile; }
    bool stopped() const { return m_cancelled; }
    void cancel();
    bool isRunning() const { return m_ssh.state() != QProcess::NotRunning; }
    const RemoteTarget& target() const { return m_target; }
    // The stream's header, once it arrived (headerAvailable).
    const std::shared_ptr<const StreamHeader>& header() const { return m_header; }
    // Where each chunk's spans go, called on the parser's thread (RunStream::push); set before start.
    void setChunkSink(StreamParser::ChunkSink sink) { m_parser->setChunkSink(std::move(sink)); }
    qint64 sshProcessId() const { return m_ssh.processId(); } // tests cut the connection with it

signals:
    void headerAvailable(); // header() is set
    // The run grew by an iteration or more, and the chunk sink has it; `tell`: its answer.
    void chunkAvailable(int done, int total, bool tell);
    void progress(int done, int total);
    // The run finished there. `scenario` is the one it ran (the stream's header).
    void runAvailable(std::shared_ptr<const shardlab::RunResult> run, const shardlab::Scenario& scenario);
    // It did not. `partial` holds what arrived (complete iterations, a note saying it is
    // incomplete), or null when nothing usable did.
    void failed(const QString& message, std::shared_ptr<const shardlab::RunResult> partial,
                const shardlab::Scenario& scenario);
    void cancelled();

private:
    bool launch(); // false: the target was refused (failed follows)
    void readOutput();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void onRefused(const QString& message);
    void onEnded(const std::shared_ptr<const StreamEnd>& end);

    RemoteTarget m_target;
    QProcess m_ssh;
    QThread m_parseThread;
    StreamParser* m_parser; // lives on m_parseThread
    std::shared_ptr<const StreamHeader> m_header;
    int m_exitCode = 0;
    bool m_crashed = false;
    Scenario m_sent;
    QString m_problem;   // the reader refused the stream
    QByteArray m_stderr; // the last 64 KiB
    bool m_cancelled = false;
    bool m_done = false;
    bool m_profile = false;
};

} // namespace shardlab::gui

Q_DECLARE_METATYPE(std::shared_ptr<const shardlab::RunResult>)
