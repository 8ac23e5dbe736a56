// Where a remote run goes: an SSH destination (a host alias of ~/.ssh/config or user@host, with an
// optional port) and the commands run there. ShardLab never handles passwords or opens a socket of
// its own: the system's `ssh` does authentication and transport (keys, agent, ProxyJump, known
// hosts as the user configured them), in batch mode so that it never waits for a typed answer.
// docs/remote.md.
#pragma once

#include "shardlab/base/result.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

class QSettings;

namespace shardlab::gui {

struct RemoteTarget {
    Q_DECLARE_TR_FUNCTIONS(RemoteTarget)
public:
    QString host; // "lab-gpu" (an alias) or "alice@gpu1.example.org"
    int port = 0; // 0: ssh's own choice (the alias's Port, else 22)
    // Run there with the scenario on standard input; it must write a run stream (run_stream.h).
    QString command = defaultCommand();
    // Run there to show the machine before a run: `shardlab topo --json`'s object.
    QString topologyCommand = defaultTopologyCommand();
    QStringList sshOptions; // more ssh options before the destination (tests: -i KEY, -F CONFIG)
    QString sshProgram = QStringLiteral("ssh");
    // Run the command on this machine through `sh -c` instead of ssh: the same stream and reader
    // path without a network (the demo on the GPU machine: `shardlab live --stream -` piped in).
    bool onThisMachine = false;

    static QString defaultCommand() { return QStringLiteral("shardlab live --stream -"); }
    static QString defaultTopologyCommand() { return QStringLiteral("shardlab topo --json"); }
    // "lab-gpu", "alice@gpu1:2222"
    QString displayName() const;
};

// Why `host` cannot be an SSH destination (empty when it can), in the user's language: the
// engine's check (shardlab/cluster/ssh_target.h) of exactly this text, untrimmed: a name of ASCII
// letters, digits, '.', '-' and '_' (or user@name), not beginning with '-'.
QString remoteHostProblem(const QString& host);
// Why `target` cannot run `command` (empty when it can): the host, the port and the command as
// sshArguments() checks them.
QString remoteTargetProblem(const RemoteTarget& target, const QString& command);
// ssh's arguments for `command` on `target`, built and checked by the engine (ssh_target.h, shared
// with the command line's --on): batch mode, a connect timeout, the port, the extra options, `--`,
// the destination and the command (which the remote shell reads, as the user typed it). The error
// is the engine's English (BadInput), naming the field.
shardlab::Result<QStringList> sshArguments(const RemoteTarget& target, const QString& command);
// The command that shows the machine a run command runs on: its `live|sim --stream -` replaced by
// `topo --json`, so that `srun -N1 --gpus-per-node=8 shardlab live --stream -` asks a compute node
// (not the login node); the default topology command for a command of another shape.
QString topologyCommandFor(const QString& runCommand);
// Whether the command streams a simulation (`... sim --stream -`) rather than a live run.
bool remoteCommandSimulates(const QString& command);

// The machines used before, most recent first, and the commands, in the settings.
struct RemoteSettings {
    QStringList hosts;
    QString command = RemoteTarget::defaultCommand();
    int port = 0;
    static RemoteSettings load(QSettings& settings);
    void remember(QSettings& settings, const RemoteTarget& used);
};

} // namespace shardlab::gui
