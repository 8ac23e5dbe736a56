// The remote machine before a run: `shardlab topo --json` there (RemoteTarget::topologyCommand),
// read into its ShardLab version, stream format, whether live mode works and its topology.
#pragma once

#include "remote/remotetarget.h"

#include "shardlab/base/result.h"
#include "shardlab/model/topology.h"

#include <QObject>
#include <QProcess>

#include <optional>

namespace shardlab::gui {

struct RemoteMachine {
    QString shardlabVersion;
    int streamFormat = 0;
    QString live; // `shardlab --version`'s live line there
    std::optional<Topology> topology;
    QString topologyError; // why there is none (no GPU, no driver...)
};

// `topo --json`'s object; the message names what is wrong.
Result<RemoteMachine> parseRemoteMachine(const QByteArray& json);
// Several lines for the dialog: the versions (and a warning where they differ from this
// ShardLab's), then the GPUs or why there are none.
QString describeRemoteMachine(const RemoteMachine& machine, const QString& host);

class RemoteProbe : public QObject {
    Q_OBJECT
public:
    explicit RemoteProbe(QObject* parent = nullptr);
    ~RemoteProbe() override;
    void start(const RemoteTarget& target);
    void cancel();
    bool isRunning() const { return m_ssh.state() != QProcess::NotRunning; }

signals:
    void machineAvailable(const shardlab::gui::RemoteMachine& machine);
    void failed(const QString& message);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);

    RemoteTarget m_target;
    QProcess m_ssh;
    bool m_failedToStart = false;
};

} // namespace shardlab::gui

Q_DECLARE_METATYPE(shardlab::gui::RemoteMachine)
