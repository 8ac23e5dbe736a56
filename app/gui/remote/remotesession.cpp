#include "remote/remotesession.h"

#include "i18n/language.h"

#include "shardlab/io/scenario_io.h"

namespace shardlab::gui {

namespace {
constexpr qsizetype kStderrKept = 64 * 1024;
}

RemoteSession::RemoteSession(RemoteTarget target, QObject* parent)
    : QObject(parent), m_target(std::move(target)), m_parser(new StreamParser(m_target.displayName().toStdString()))
{
    connect(&m_ssh, &QProcess::readyReadStandardOutput, this, &RemoteSession::readOutput);
    connect(&m_ssh, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_ssh.readAllStandardError();
        if (m_stderr.size() > kStderrKept)
            m_stderr = m_stderr.right(kStderrKept);
    });
    connect(&m_ssh, &QProcess::finished, this, &RemoteSession::onFinished);
    connect(&m_ssh, &QProcess::errorOccurred, this, &RemoteSession::onError);

    m_parseThread.setObjectName(QStringLiteral("shardlab-stream"));
    m_parser->moveToThread(&m_parseThread);
    connect(&m_parseThread, &QThread::finished, m_parser, &QObject::deleteLater);
    connect(m_parser, &StreamParser::headerParsed, this, [this](std::shared_ptr<const StreamHeader> header) {
        m_header = std::move(header);
        emit headerAvailable();
    });
    connect(m_parser, &StreamParser::chunksParsed, this, &RemoteSession::chunkAvailable);
    connect(m_parser, &StreamParser::progressParsed, this, &RemoteSession::progress);
    connect(m_parser, &StreamParser::refused, this, &RemoteSession::onRefused);
    connect(m_parser, &StreamParser::ended, this, &RemoteSession::onEnded);
    m_parseThread.start();
}

RemoteSession::~RemoteSession()
{
    m_parser->disconnect(this);
    if (m_ssh.state() != QProcess::NotRunning) {
        m_ssh.disconnect(this);
        if (m_profile) { // `shardlab profile` passes SIGTERM on to the program, which must not be left running
            m_ssh.terminate();
            if (!m_ssh.waitForFinished(5000))
                m_ssh.kill();
        } else {
            m_ssh.kill();
        }
        m_ssh.waitForFinished(5000);
    }
    m_parseThread.quit(); // after the line being parsed, if any; the parser is deleted with the thread's end
    m_parseThread.wait();
}

void RemoteSession::start(const Scenario& scenario)
{
    m_sent = scenario;
    if (!launch())
        return;
    // the scenario on standard input, then end of input: the remote `shardlab ... -` reads to it
    m_ssh.write(QByteArray::fromStdString(serializeScenario(scenario)));
    m_ssh.closeWriteChannel();
}

void RemoteSession::startWithoutScenario()
{
    if (!launch())
        return;
    m_ssh.closeWriteChannel();
}

bool RemoteSession::launch()
{
    if (m_target.onThisMachine) {
        m_ssh.setProgram(QStringLiteral("/bin/sh"));
        m_ssh.setArguments({QStringLiteral("-c"), m_target.command});
    } else {
        auto args = sshArguments(m_target, m_target.command);
        if (!args) { // refused before ssh starts; said once the caller has heard of the start
            m_done = true;
            const QString problem = i18n::engineError(args.error());
            QMetaObject::invokeMethod(
                this, [this, problem] { emit failed(problem, nullptr, m_sent); }, Qt::QueuedConnection);
            return false;
        }
        m_ssh.setProgram(m_target.sshProgram);
        m_ssh.setArguments(*args);
    }
    m_ssh.start(QIODevice::ReadWrite);
    return true;
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
    QByteArray bytes = m_ssh.readAllStandardOutput();
    if (!m_problem.isEmpty() || bytes.isEmpty())
        return;
    QMetaObject::invokeMethod(
        m_parser, [p = m_parser, b = std::move(bytes)] { p->feed(b); }, Qt::QueuedConnection);
}

void RemoteSession::onRefused(const QString& message)
{
    if (!m_problem.isEmpty())
        return;
    // nothing more can be read: stop the remote side too. The sentence names the host already;
    // the reader's message (worded in the app's language) begins with it too.
    m_problem = message;
    for (const QString& colon : {QStringLiteral(": "), QStringLiteral("\uff1a")})
        if (const QString origin = m_target.displayName() + colon; message.startsWith(origin))
            m_problem = message.mid(origin.size());
    m_ssh.terminate();
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
    readOutput(); // what is left in the pipe, parsed before the end below
    m_stderr += m_ssh.readAllStandardError();
    if (m_cancelled && m_problem.isEmpty() && !m_profile) {
        emit cancelled();
        return;
    }
    m_exitCode = exitCode;
    m_crashed = status == QProcess::CrashExit;
    QMetaObject::invokeMethod(
        m_parser, [p = m_parser, sent = m_sent] { p->finish(sent); }, Qt::QueuedConnection);
}

void RemoteSession::onEnded(const std::shared_ptr<const StreamEnd>& e)
{
    if (m_problem.isEmpty() && e->run) {
        emit runAvailable(e->run, e->scenario);
        return;
    }
    // a result that arrived but does not fit its scenario; a stream that stopped early, or never
    // began, is explained from ssh's exit status below
    if (m_problem.isEmpty())
        m_problem = e->finishProblem;
    RemoteEnd end;
    end.exitCode = m_exitCode;
    end.crashed = m_crashed;
    end.stderrText = QString::fromUtf8(m_stderr);
    end.sawHeader = e->sawHeader;
    end.iterationsArrived = e->iterationsArrived;
    end.iterationsTotal = e->iterationsTotal > 0 ? e->iterationsTotal : e->scenario.iterations;
    end.streamProblem = m_problem;
    end.profile = m_profile;
    end.collectivesArrived = e->collectivesArrived;
    end.reportedError = e->reportedError;
    emit failed(explainRemoteEnd(m_target, end), end.streamProblem.isEmpty() ? e->partial : nullptr, e->scenario);
}

} // namespace shardlab::gui
