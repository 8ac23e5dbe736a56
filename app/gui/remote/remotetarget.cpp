#include "remote/remotetarget.h"

#include "common/recentlist.h"
#include "i18n/language.h"

#include "shardlab/cluster/ssh_target.h"

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

QString RemoteTarget::displayName() const { return port > 0 ? host + QLatin1Char(':') + QString::number(port) : host; }

namespace {
// The app's fields as the engine's target: the host field holds [USER@]HOST (its port is a field
// of its own), taken as typed.
Result<SshTarget> engineTarget(const RemoteTarget& target)
{
    auto destination = parseSshDestination(target.host.toStdString(), SshRole::Destination, false);
    if (!destination)
        return destination.error();
    SshTarget t;
    t.destination = *destination;
    t.destination.port = target.port;
    for (const QString& o : target.sshOptions)
        t.programOptions.push_back(o.toStdString());
    return t;
}
} // namespace

QString remoteHostProblem(const QString& host)
{
    if (host.isEmpty())
        return RemoteTarget::tr("Enter a host: an alias from ~/.ssh/config, or user@host.");
    auto destination = parseSshDestination(host.toStdString(), SshRole::Destination, false);
    return destination ? QString() : i18n::engineError(destination.error());
}

QString remoteTargetProblem(const RemoteTarget& target, const QString& command)
{
    if (const QString host = remoteHostProblem(target.host); !host.isEmpty())
        return host;
    auto args = sshArguments(target, command);
    return args ? QString() : i18n::engineError(args.error());
}

Result<QStringList> sshArguments(const RemoteTarget& target, const QString& command)
{
    auto t = engineTarget(target);
    if (!t)
        return t.error();
    auto args = shardlab::sshArguments(*t, command.toStdString());
    if (!args)
        return args.error();
    QStringList out;
    for (const std::string& a : *args)
        out << QString::fromStdString(a);
    return out;
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
    return command.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)
        .contains(QStringLiteral("sim"));
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
