#include "remote/remotesession.h"

#include "shardlab/io/scenario_io.h"

namespace shardlab::gui {

namespace {
constexpr qsizetype kStderrKept = 64 * 1024;
}

RemoteSession::RemoteSession(RemoteTarget target, QObject* parent)
    : QObject(parent), m_target(std::move(target)), m_reader(m_target.displayName().toStdString())
{
    connect(&m_ssh, &QProcess::readyReadStandardOutput, this, &RemoteSession::readOutput);
    connect(&m_ssh, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_ssh.readAllStandardError();
        if (m_stderr.size() > kStderrKept)
            m_stderr = m_stderr.right(kStderrKept);
    });
    connect(&m_ssh, &QProcess::finished, this, &RemoteSession::onFinished);
    connect(&m_ssh, &QProcess::errorOccurred, this, &RemoteSession::onError);
}

RemoteSession::~RemoteSession()
{
    if (m_ssh.state() != QProcess::NotRunning) {
        m_ssh.disconnect(this);
        if (m_profile) { // `shardlab profile` passes SIGTERM on to the program, which must not be left running
            m_ssh.terminate();
            if (m_ssh.waitForFinished(5000))
                return;
        }
        m_ssh.kill();
        m_ssh.waitForFinished(5000);
    }
}

void RemoteSession::start(const Scenario& scenario)
{
    m_sent = scenario;
    launch();
    // the scenario on standard input, then end of input: the remote `shardlab ... -` reads to it
    m_ssh.write(QByteArray::fromStdString(serializeScenario(scenario)));
    m_ssh.closeWriteChannel();
}

void RemoteSession::startWithoutScenario()
{
    launch();
    m_ssh.closeWriteChannel();
}

void RemoteSession::launch()
{
    if (m_target.onThisMachine) {
        m_ssh.setProgram(QStringLiteral("/bin/sh"));
        m_ssh.setArguments({QStringLiteral("-c"), m_target.command});
    } else {
        m_ssh.setProgram(m_target.sshProgram);
        m_ssh.setArguments(sshArguments(m_target, m_target.command));
    }
    m_ssh.start(QIODevice::ReadWrite);
}

void RemoteSession::cancel()
{
    if (m_ssh.state() == QProcess::NotRunning)
        return;
    m_cancelled = true;
    m_ssh.terminate(); // ssh closes the connection; sshd closes the remote run's output
}

void RemoteSession::readOutput()
{
    const QByteArray bytes = m_ssh.readAllStandardOutput();
    if (!m_problem.isEmpty())
        return;
    const bool hadHeader = m_reader.header().has_value();
    int chunks = 0;
    bool progressed = false;
    Status st = m_reader.feed(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                              [&](RunStreamReader::Event e) {
                                  if (e == RunStreamReader::Event::Chunk)
                                      ++chunks;
                                  else if (e == RunStreamReader::Event::Progress)
                                      progressed = true;
                              });
    if (!hadHeader && m_reader.header())
        emit headerAvailable();
    if (chunks > 0)
        emit chunkAvailable(m_reader.done(), m_reader.total());
    else if (progressed)
        emit progress(m_reader.done(), m_reader.total());
    if (!st) { // nothing more can be read: stop the remote side too
        // the sentence names the host already; the reader's message begins with it too
        std::string message = st.error().message;
        const std::string origin = m_target.displayName().toStdString() + ": ";
        if (message.rfind(origin, 0) == 0)
            message.erase(0, origin.size());
        m_problem = QString::fromStdString(message);
        m_ssh.terminate();
    }
}

void RemoteSession::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || m_done)
        return;
    m_done = true;
    RemoteEnd end;
    end.failedToStart = true;
    emit failed(explainRemoteEnd(m_target, end), nullptr, m_sent);
}

void RemoteSession::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_done)
        return;
    m_done = true;
    readOutput(); // what is left in the pipe
    m_stderr += m_ssh.readAllStandardError();
    if (m_cancelled && m_problem.isEmpty() && !m_profile) {
        emit cancelled();
        return;
    }
    const Scenario& ran = m_reader.scenario() ? *m_reader.scenario() : m_sent;
    if (m_problem.isEmpty()) {
        auto run = m_reader.finish();
        if (run) {
            emit runAvailable(std::make_shared<const RunResult>(std::move(run).value()), ran);
            return;
        }
        // a result that arrived but does not fit its scenario; a stream that stopped early, or never
        // began, is explained from ssh's exit status below
        if (m_reader.finished())
            m_problem = QString::fromStdString(run.error().message);
    }
    RemoteEnd end;
    end.exitCode = exitCode;
    end.crashed = status == QProcess::CrashExit;
    end.stderrText = QString::fromUtf8(m_stderr);
    end.sawHeader = m_reader.header().has_value();
    end.iterationsArrived = static_cast<int>(m_reader.soFar().iterations.size());
    end.iterationsTotal = m_reader.total() > 0 ? m_reader.total() : ran.iterations;
    end.streamProblem = m_problem;
    end.profile = m_profile;
    end.collectivesArrived = static_cast<int>(m_reader.soFar().collectives.size());
    if (m_reader.reportedError())
        end.reportedError = QString::fromStdString(m_reader.reportedError()->message);
    std::shared_ptr<const RunResult> partial;
    // an open program's stream (a profiled program) brings its iteration mark only at the end
    const bool open = m_reader.header() && m_reader.header()->openProgram;
    if (end.sawHeader && end.streamProblem.isEmpty() && end.reportedError.isEmpty()
        && (end.iterationsArrived > 0 || (open && !m_reader.soFar().spans.empty())))
        partial = std::make_shared<const RunResult>(m_reader.partial());
    emit failed(explainRemoteEnd(m_target, end), std::move(partial), ran);
}

} // namespace shardlab::gui
