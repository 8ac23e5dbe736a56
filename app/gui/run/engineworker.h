// The object that runs the engine on its own thread (HOUSE_STYLE habit 2): simulations and live
// runs go in as queued calls; results come out as signals carrying immutable snapshots, tagged
// with the run's id so that the controller can drop stale ones. It never touches a widget.
#pragma once

#include "run/runstream.h"
#include "run/runtypes.h"

#include "shardlab/live/live.h"
#include "shardlab/sim/cost_model.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace shardlab::gui {

class EngineWorker : public QObject {
    Q_OBJECT
public:
    using LiveRunner = std::function<Result<RunResult>(const Scenario&, const LiveOptions&)>;
    // Called on the worker's thread after each simulated iteration has streamed (`done` iterations
    // so far). Tests use it as a gate that holds a run until they open it or cancel the run, so that
    // nothing depends on how fast the machine simulates.
    using IterationHook = std::function<void(int done, const std::atomic<bool>& cancel)>;

    explicit EngineWorker(std::shared_ptr<RunStream> stream);

    // Runs on the worker's thread. Returns when the run ends, fails or is cancelled. `watchdogMs`:
    // the deadline after which a hung collective is aborted (live runs; simulations abort on their
    // own clock, SimulationOptions::watchdogMs).
    void run(quint64 id, const Scenario& scenario, RunKind kind, std::shared_ptr<std::atomic<bool>> cancel,
             double watchdogMs = 10000);
    // A run made elsewhere (a result file, a trace): prepared for the widgets exactly as one made
    // here (summary, playback, lanes; a live run is compared with its simulation). `origin` names it.
    void present(quint64 id, const Scenario& scenario, std::shared_ptr<const RunResult> run, const QString& origin,
                 std::shared_ptr<std::atomic<bool>> cancel);
    // Whether live runs are possible here: the build has them and a GPU is visible.
    void probeLive();
    // Tests and demos replace the live executor (default: shardlab::runLive).
    void setLiveRunner(LiveRunner runner) { m_liveRunner = std::move(runner); }
    void setIterationHook(IterationHook hook) { m_iterationHook = std::move(hook); }

signals:
    void progress(quint64 id, int done, int total);
    void dataAvailable(quint64 id); // the stream went from empty to non-empty
    void resultAvailable(quint64 id, shardlab::gui::RunOutcomePtr outcome);
    void failed(quint64 id, const QString& message);
    void cancelled(quint64 id);
    void liveProbed(bool available, const QString& explanation);

private:
    RunOutcomePtr execute(quint64 id, const Scenario& scenario, RunKind kind, const std::atomic<bool>& cancel,
                          double watchdogMs, QString* error, bool* wasCancelled);
    // Everything the widgets need from a finished run; null when cancelled or on error.
    RunOutcomePtr prepare(quint64 id, RunKind kind, const Scenario& scenario, std::shared_ptr<const RunResult> run,
                          CostModel& model, const std::atomic<bool>& cancel, bool* wasCancelled);
    void deliver(quint64 id, const std::function<RunOutcomePtr(QString*, bool*)>& make,
                 const std::atomic<bool>& cancel);

    std::shared_ptr<RunStream> m_stream;
    LiveRunner m_liveRunner;
    IterationHook m_iterationHook;
};

} // namespace shardlab::gui
