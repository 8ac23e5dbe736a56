#include "remote/remoteprobe.h"

#include "i18n/language.h"
#include "remote/remotefailure.h"

#include "shardlab/base/message_json.h"
#include "shardlab/base/units.h"
#include "shardlab/base/version.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"

#include <nlohmann/json.hpp>

#include <map>

namespace shardlab::gui {

namespace {
class RemoteProbeText {
    Q_DECLARE_TR_FUNCTIONS(RemoteProbe)
};
} // namespace

Result<RemoteMachine> parseRemoteMachine(const QByteArray& text)
{
    nlohmann::json doc = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("shardlab_version"))
        return badInput(
            Message("cli.error.remote_not_json").with("command", "shardlab topo --json").with("option", "--json"));
    RemoteMachine m;
    const auto str = [&](const char* key) {
        const auto it = doc.find(key);
        return it != doc.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
    };
    // "live" and "error" in English, and beside them (from this version on) "live_message" and
    // "error_message": the same as Messages, worded in this app's language where they say the
    // same as the English (a ShardLab of another version may word them otherwise)
    const auto worded = [&](const char* englishKey, const char* messageKey) {
        const QString plain = str(englishKey);
        const auto it = doc.find(messageKey);
        const Message said = messageSaying(it != doc.end() ? &*it : nullptr, plain.toStdString());
        return said.empty() ? plain : i18n::engineText(said);
    };
    m.shardlabVersion = str("shardlab_version");
    m.live = worded("live", "live_message");
    m.topologyError = worded("error", "error_message");
    if (const auto f = doc.find("stream_format"); f != doc.end() && f->is_number_integer())
        m.streamFormat = f->get<int>();
    if (const auto t = doc.find("topology"); t != doc.end() && t->is_object()) {
        const nlohmann::json holder = {{"shardlab", kScenarioFormatVersion}, {"name", "remote"}, {"topology", *t}};
        auto parsed = parseScenario(holder.dump(), "topo --json");
        if (!parsed)
            return parsed.error();
        m.topology = parsed->topology;
    }
    return m;
}

QString describeRemoteMachine(const RemoteMachine& m, const QString& host)
{
    QStringList lines;
    lines << RemoteProbeText::tr("ShardLab %1 on %2 (here: %3).")
                 .arg(m.shardlabVersion, host, QString::fromUtf8(kVersion));
    if (m.streamFormat < kStreamFormatVersionOldest || m.streamFormat > kStreamFormatVersion)
        lines << RemoteProbeText::tr("Its run stream is format %1, this ShardLab reads format %2: install the same "
                                     "ShardLab version on both machines.")
                     .arg(m.streamFormat)
                     .arg(QStringLiteral("%1-%2").arg(kStreamFormatVersionOldest).arg(kStreamFormatVersion));
    else if (m.shardlabVersion != QString::fromUtf8(kVersion))
        lines << RemoteProbeText::tr("The versions differ but the stream format is the same: runs can be read.");
    if (m.topology) {
        std::map<std::string, int> names;
        for (const Gpu& g : m.topology->gpus)
            ++names[g.name + " (" + formatBytes(g.memory) + ")"];
        QStringList parts;
        for (const auto& [name, n] : names)
            parts << RemoteProbeText::tr("%1 \u00d7 %2").arg(n).arg(QString::fromStdString(name));
        lines << RemoteProbeText::tr("%n GPU(s): %1; %2 link(s).", nullptr, static_cast<int>(m.topology->gpus.size()))
                     .arg(parts.join(QStringLiteral(", ")))
                     .arg(m.topology->links.size());
    } else {
        lines << RemoteProbeText::tr("No GPU can be used there for live runs: %1").arg(m.topologyError);
    }
    return lines.join(QLatin1Char('\n'));
}

RemoteProbe::RemoteProbe(QObject* parent) : QObject(parent)
{
    connect(&m_ssh, &QProcess::finished, this, &RemoteProbe::onFinished);
    connect(&m_ssh, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart)
            return;
        RemoteEnd end;
        end.failedToStart = true;
        emit failed(explainRemoteEnd(m_target, end));
    });
}

RemoteProbe::~RemoteProbe()
{
    if (m_ssh.state() != QProcess::NotRunning) {
        m_ssh.disconnect(this);
        m_ssh.kill();
        m_ssh.waitForFinished(5000);
    }
}

void RemoteProbe::start(const RemoteTarget& target)
{
    cancel();
    m_target = target;
    auto args = sshArguments(target, target.topologyCommand);
    if (!args) { // refused before ssh starts
        emit failed(i18n::engineError(args.error()));
        return;
    }
    m_ssh.setProgram(target.sshProgram);
    m_ssh.setArguments(*args);
    m_ssh.start(QIODevice::ReadWrite);
    m_ssh.closeWriteChannel();
}

void RemoteProbe::cancel()
{
    if (m_ssh.state() == QProcess::NotRunning)
        return;
    m_ssh.blockSignals(true);
    m_ssh.kill();
    m_ssh.waitForFinished(5000);
    m_ssh.blockSignals(false);
}

void RemoteProbe::onFinished(int exitCode, QProcess::ExitStatus status)
{
    const QByteArray out = m_ssh.readAllStandardOutput();
    const QString err = QString::fromUtf8(m_ssh.readAllStandardError());
    // `topo --json` exits 3 where there is no GPU, with the reason in its object
    if (status == QProcess::NormalExit && (exitCode == 0 || exitCode == 3) && !out.trimmed().isEmpty()) {
        auto machine = parseRemoteMachine(out);
        if (machine) {
            emit machineAvailable(*machine);
            return;
        }
        emit failed(RemoteProbeText::tr("%1: %2").arg(m_target.displayName(), i18n::engineError(machine.error())));
        return;
    }
    RemoteEnd end;
    end.exitCode = exitCode;
    end.crashed = status == QProcess::CrashExit;
    end.stderrText = err;
    emit failed(explainRemoteEnd(m_target, end));
}

} // namespace shardlab::gui
