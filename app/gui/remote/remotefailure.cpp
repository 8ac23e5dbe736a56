#include "remote/remotefailure.h"

#include <QCoreApplication>
#include <QStringList>

namespace shardlab::gui {

namespace {
// the context of these sentences in the translations
class RemoteFailure {
    Q_DECLARE_TR_FUNCTIONS(RemoteFailure)
};

bool mentions(const QString& text, std::initializer_list<const char*> needles)
{
    for (const char* n : needles)
        if (text.contains(QLatin1String(n), Qt::CaseInsensitive))
            return true;
    return false;
}
} // namespace

QString lastStderrLine(const QString& text)
{
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (auto it = lines.crbegin(); it != lines.crend(); ++it)
        if (!it->trimmed().isEmpty())
            return it->trimmed();
    return {};
}

namespace {

// `shardlab profile --live` on this machine: its own error line says what went wrong (no such
// program, no NCCL records); otherwise how it ended.
QString explainProfileEnd(const RemoteEnd& end, const QString& saidPart)
{
    if (!end.streamProblem.isEmpty())
        return RemoteFailure::tr("The profiler's output could not be read: %1").arg(end.streamProblem);
    if (!end.reportedError.isEmpty())
        return RemoteFailure::tr("Profiling failed: %1").arg(end.reportedError);
    if (end.sawHeader)
        return RemoteFailure::tr(
                   "The profiler stopped after %1 collectives, before the run's end%2. What arrived is shown, marked "
                   "incomplete.")
            .arg(end.collectivesArrived)
            .arg(saidPart);
    if (end.exitCode == 127)
        return RemoteFailure::tr(
                   "ShardLab's command line (shardlab) was not found%1. Give its full path in the dialog's "
                   "\"ShardLab command\".")
            .arg(saidPart);
    return RemoteFailure::tr("The profiler ended (exit status %1) without sending a run%2.")
        .arg(end.exitCode)
        .arg(saidPart);
}

} // namespace

QString explainRemoteEnd(const RemoteTarget& target, const RemoteEnd& end)
{
    const QString host = target.displayName();
    const QString said = lastStderrLine(end.stderrText);
    const QString saidPart = said.isEmpty() ? QString() : RemoteFailure::tr(" (it said: %1)").arg(said);
    if (end.failedToStart)
        return RemoteFailure::tr(
                   "The ssh program \"%1\" could not be started. Install the OpenSSH client (Debian: openssh-client).")
            .arg(target.sshProgram);
    if (end.profile)
        return explainProfileEnd(end, saidPart);
    if (!end.streamProblem.isEmpty())
        return RemoteFailure::tr("%1 answered with something this ShardLab cannot read: %2")
            .arg(host, end.streamProblem);
    if (!end.reportedError.isEmpty())
        return RemoteFailure::tr("The run on %1 failed: %2").arg(host, end.reportedError);
    if (end.sawHeader) {
        if (end.crashed)
            return RemoteFailure::
                tr("The connection to %1 was cut after %2 of %3 iterations. What arrived is shown, marked incomplete.")
                    .arg(host)
                    .arg(end.iterationsArrived)
                    .arg(end.iterationsTotal);
        return RemoteFailure::
            tr("The connection to %1 dropped after %2 of %3 iterations%4. What arrived is shown, marked incomplete; "
               "the run there stops when it next writes.")
                .arg(host)
                .arg(end.iterationsArrived)
                .arg(end.iterationsTotal)
                .arg(saidPart);
    }
    if (end.exitCode == 255) { // ssh's own failures
        if (mentions(said, {"Permission denied", "Too many authentication failures", "no matching host key",
                            "no matching key exchange"}))
            return RemoteFailure::tr(
                       "%1 refused the login%2. Check that your key is in ~/.ssh/authorized_keys there and loaded "
                       "(ssh-add), or name it in ~/.ssh/config; ShardLab does not ask for passwords.")
                .arg(host, saidPart);
        if (mentions(said, {"Host key verification failed", "REMOTE HOST IDENTIFICATION HAS CHANGED"}))
            return RemoteFailure::tr(
                       "The host key of %1 is not known or has changed%2. Connect once with ssh in a terminal to check "
                       "and accept it.")
                .arg(host, saidPart);
        if (mentions(said, {"Could not resolve hostname", "Name or service not known"}))
            return RemoteFailure::tr("%1 is not a known host name%2. Check the name, or add an alias to ~/.ssh/config.")
                .arg(host, saidPart);
        if (mentions(said, {"Connection refused", "timed out", "No route to host", "Network is unreachable",
                            "Connection closed", "Connection reset"}))
            return RemoteFailure::tr(
                       "%1 cannot be reached%2. Check that the machine is on and its SSH server is running, and the "
                       "port.")
                .arg(host, saidPart);
        return RemoteFailure::tr("ssh could not connect to %1 (exit status 255)%2.").arg(host, saidPart);
    }
    if (end.exitCode == 127)
        return RemoteFailure::tr(
                   "The command was not found on %1%2. Install the ShardLab package there, or give the full path of "
                   "shardlab in the remote command.")
            .arg(host, saidPart);
    if (end.exitCode == 126)
        return RemoteFailure::tr("The command on %1 cannot be run%2 (not executable?).").arg(host, saidPart);
    if (mentions(end.stderrText, {"--stream", "--json"}) && mentions(end.stderrText, {"not expected", "extras"}))
        return RemoteFailure::tr(
                   "The ShardLab on %1 does not know this option: it is older than this one. Install the same ShardLab "
                   "version there%2.")
            .arg(host, saidPart);
    if (end.crashed)
        return RemoteFailure::tr("The connection to %1 was cut before the run began.").arg(host);
    return RemoteFailure::tr("The command on %1 ended (exit status %2) without sending a run%3.")
        .arg(host)
        .arg(end.exitCode)
        .arg(saidPart);
}

} // namespace shardlab::gui
