// What went wrong with a remote run or probe, in a sentence that names the host and what to do:
// from ssh's exit status and standard error and from what the stream reader saw. Pure, so that
// every case is tested without a network.
#pragma once

#include "remote/remotetarget.h"

#include <QString>

#include <optional>

namespace shardlab::gui {

struct RemoteEnd {
    int exitCode = 0;
    bool crashed = false;       // ssh ended on a signal (killed: the connection was cut here)
    bool failedToStart = false; // the ssh program could not be started
    QString stderrText;         // what ssh and the remote command wrote on standard error
    bool sawHeader = false;     // the stream's header arrived
    int iterationsArrived = 0;
    int iterationsTotal = 0;
    QString streamProblem; // the reader refused the stream (another version, not a stream)
    QString reportedError; // the remote run's own error line
    // A profiled program (`shardlab profile --live` on this machine): worded for it.
    bool profile = false;
    int collectivesArrived = 0;
};

QString explainRemoteEnd(const RemoteTarget& target, const RemoteEnd& end);
// The last non-empty line of standard error (ssh's and the shell's messages end there).
QString lastStderrLine(const QString& text);

} // namespace shardlab::gui
