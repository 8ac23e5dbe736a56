#include "remote/remotetarget.h"

#include "common/recentlist.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSettings>

namespace shardlab::gui {

namespace {
constexpr int kRememberedHosts = 12;
const QString kHostsKey = QStringLiteral("remote/hosts");
const QString kCommandKey = QStringLiteral("remote/command");
const QString kPortKey = QStringLiteral("remote/port");
} // namespace

QString RemoteTarget::displayName() const
{
    return port > 0 ? host + QLatin1Char(':') + QString::number(port) : host;
}

QString remoteHostProblem(const QString& host)
{
    if (host.trimmed().isEmpty())
        return RemoteTarget::tr("Enter a host: an alias from ~/.ssh/config, or user@host.");
    if (host.contains(QRegularExpression(QStringLiteral("\\s"))))
        return RemoteTarget::tr("The host \"%1\" contains a space; enter one alias or user@host.").arg(host);
    if (host.startsWith(QLatin1Char('-')))
        return RemoteTarget::tr("The host \"%1\" begins with '-', which ssh would read as an option.").arg(host);
    return {};
}

QStringList sshArguments(const RemoteTarget& target, const QString& command)
{
    QStringList args{QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), QStringLiteral("-o"),
                     QStringLiteral("ConnectTimeout=20"), QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=15"),
                     QStringLiteral("-T")};
    if (target.port > 0)
        args << QStringLiteral("-p") << QString::number(target.port);
    args << target.sshOptions;
    args << target.host.trimmed() << command;
    return args;
}

QString topologyCommandFor(const QString& runCommand)
{
    static const QRegularExpression tail(QStringLiteral("\\b(live|sim)\\s+--stream\\s+-\\s*$"));
    QString c = runCommand.trimmed();
    const auto m = tail.match(c);
    if (!m.hasMatch())
        return RemoteTarget::defaultTopologyCommand();
    return c.left(m.capturedStart()) + QStringLiteral("topo --json");
}

bool remoteCommandSimulates(const QString& command)
{
    return command.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts).contains(QStringLiteral("sim"));
}

RemoteSettings RemoteSettings::load(QSettings& settings)
{
    RemoteSettings s;
    s.hosts = settings.value(kHostsKey).toStringList();
    s.command = settings.value(kCommandKey, RemoteTarget::defaultCommand()).toString();
    s.port = settings.value(kPortKey, 0).toInt();
    return s;
}

void RemoteSettings::remember(QSettings& settings, const RemoteTarget& used)
{
    putFirst(hosts, used.host, kRememberedHosts);
    command = used.command;
    port = used.port;
    settings.setValue(kHostsKey, hosts);
    settings.setValue(kCommandKey, command);
    settings.setValue(kPortKey, port);
}

} // namespace shardlab::gui
