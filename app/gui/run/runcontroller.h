// Starts, supersedes and cancels engine runs (hotspot's jobtracker idea). Every run gets an id;
// starting a run cancels the one before it; results, progress and streamed data of any run but
// the newest are dropped here, so the widgets only ever see the current run. Lives on the GUI
// thread and owns the worker's thread.
#pragma once

#include "remote/remotetarget.h"
#include "run/engineworker.h"
#include "run/runstream.h"
#include "run/runtypes.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

class QThread;

namespace shardlab::gui {

class RemoteSession;
class TimelineData;

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Starts a run of `scenario`; any run in progress is cancelled and its results never appear.
    quint64 start(const Scenario& scenario, RunKind kind);
    // Shows a run made elsewhere (a result file, a trace) as if it had just finished here: the same
    // signals (started, then resultAvailable or failed), superseding any run in progress.
    // `incomplete`: why the run is incomplete (a stopped profile), kept in its outcome.
    quint64 present(const Scenario& scenario, std::shared_ptr<const RunResult> run, const QString& origin,
                    const QString& incomplete = QString());
    // Runs `scenario` on another machine over SSH (remote/remotesession.h): its stream goes into the
    // same buffer and lanes as a local simulation's, and the run it sends ends as any run made here
    // (resultAvailable through the worker's preparation). A connection that drops shows what
    // arrived, with RunOutcome::incomplete saying why; a run that never began fails.
    quint64 startRemote(const Scenario& scenario, const RemoteTarget& target);
    // Profiles a program on this machine: `target` runs `shardlab profile --live ... -- PROGRAM`
    // (remote/profiletarget.h) through the same session and reader as a remote run, with no
    // scenario sent: the stream's header names the machine and ranks, and the streaming timeline
    // is made then (streamingTimelineReady). Stop (cancel) ends the program; what it recorded until
    // then is shown, marked incomplete.
    // `origin` names where the run is saved (the profile's result file), for the page's banner.
    quint64 startProfile(const RemoteTarget& target, const QString& origin);
    // The session of the current remote run, or null (tests: to cut its connection).
    RemoteSession* remoteSession() const { return m_remote; }
    // The watchdog's deadline for the runs started from now on (default 10 s, as the CLI): live runs
    // abort a hung collective after it, simulations on their own clock.
    void setWatchdogMs(double ms) { m_watchdogMs = ms; }
    double watchdogMs() const { return m_watchdogMs; }
    // Stops the current run (the engine checks its flag at least every few thousand events). A
    // profiled program (startProfile) is ended instead, and what it recorded is still shown.
    void cancel();
    bool isRunning() const { return m_running; }
    quint64 currentId() const { return m_current; }

    // Whether live runs are possible (answered by the worker; false until it has answered).
    bool liveAvailable() const { return m_liveAvailable; }
    QString liveExplanation() const { return m_liveExplanation; }
    void probeLive();
    // Replaces the live executor (tests, demos). Takes effect for runs started afterwards.
    void setLiveRunner(EngineWorker::LiveRunner runner);
    // Runs `hook` after every simulated iteration, on the engine thread (tests: a gate that holds a
    // run until it is opened or cancelled). Takes effect for runs started afterwards.
    void setIterationHook(EngineWorker::IterationHook hook);

    // The timeline of the current run as it streams in (simulated, live or remote), or null.
    std::shared_ptr<TimelineData> streamingTimeline() const { return m_streaming; }
    bool streamIncomplete() const { return m_streamIncomplete; }
    // Lets go of `garbage` on the engine thread: freeing a large run's memory takes the kernel
    // long enough to stall the GUI thread.
    void disposeLater(std::shared_ptr<const void> garbage);
    // Most spans waiting for the GUI before an iteration is left out of the live view (50,000).
    void setStreamCapacity(size_t spans) { m_stream->setCapacity(spans); }
    // How often to look at the stream while a run goes (default 30 ms).
    void setCoalesceInterval(int ms) { m_coalesce.setInterval(ms); }

signals:
    void started(quint64 id, shardlab::gui::RunKind kind);
    void progress(quint64 id, int done, int total);
    void partialAvailable(quint64 id);       // streamingTimeline() grew; at most once per interval
    void streamingTimelineReady(quint64 id); // a profiled program's header arrived: streamingTimeline() is set
    void resultAvailable(shardlab::gui::RunOutcomePtr outcome);
    void failed(quint64 id, const QString& message);
    void cancelled(quint64 id);
    void liveAvailabilityChanged(bool available, const QString& explanation);

private:
    quint64 begin(); // a new current run id; the previous run is cancelled
    void onProgress(quint64 id, int done, int total);
    void onDataReady(quint64 id);
    void drainStream();
    void onFinished(quint64 id, RunOutcomePtr outcome);
    void onFailed(quint64 id, const QString& message);
    void onCancelled(quint64 id);
    void onLiveProbed(bool available, const QString& explanation);
    void follow(quint64 id, RemoteSession* session, const QString& origin);
    void presentRemote(quint64 id, const Scenario& scenario, std::shared_ptr<const RunResult> run,
                       const QString& origin, const QString& incomplete);

    QThread* m_thread = nullptr;
    EngineWorker* m_worker = nullptr;
    std::shared_ptr<RunStream> m_stream;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<TimelineData> m_streaming;
    QTimer m_coalesce;
    quint64 m_next = 0;
    quint64 m_current = 0;
    bool m_running = false;
    bool m_streamIncomplete = false;
    bool m_appending = false; // a chunk is going into the streaming lanes slice by slice
    bool m_liveAvailable = false;
    QString m_liveExplanation;
    double m_watchdogMs = 10000;
    RemoteSession* m_remote = nullptr; // the current run's, when it runs remotely
    QString m_incomplete;              // why the current remote run is incomplete
};

} // namespace shardlab::gui
