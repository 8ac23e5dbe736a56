#include "run/engineworker.h"

#include "i18n/language.h"
#include "timeline/timelinedata.h"

#include "shardlab/analysis/prepared_run.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <QElapsedTimer>

#include <exception>

namespace shardlab::gui {

EngineWorker::EngineWorker(std::shared_ptr<RunStream> stream)
    : m_stream(std::move(stream)), m_liveRunner([](const Scenario& s, const LiveOptions& o) { return runLive(s, o); })
{
}

void EngineWorker::probeLive()
{
    if (!liveBuiltIn()) {
        emit liveProbed(false,
                        tr("Live runs are not built into this ShardLab: %1").arg(i18n::engineText(liveBuildInfo())));
        return;
    }
    auto devices = liveDevices();
    if (!devices) {
        emit liveProbed(false, tr("No GPU can be used for live runs: %1").arg(i18n::engineError(devices.error())));
        return;
    }
    if (devices->empty()) {
        emit liveProbed(false, tr("No GPU is visible to this process, so only simulation is possible."));
        return;
    }
    QStringList names;
    for (const LiveDevice& d : *devices)
        names << QString::fromStdString(d.name);
    emit liveProbed(true, tr("%n GPU(s) on this machine: %1", nullptr, static_cast<int>(devices->size()))
                              .arg(names.join(QStringLiteral(", "))));
}

void EngineWorker::run(quint64 id, const Scenario& scenario, RunKind kind, std::shared_ptr<std::atomic<bool>> cancel,
                       double watchdogMs)
{
    deliver(
        id,
        [&](QString* error, bool* wasCancelled) {
            return execute(id, scenario, kind, *cancel, watchdogMs, error, wasCancelled);
        },
        *cancel);
}

void EngineWorker::present(quint64 id, const Scenario& scenario, std::shared_ptr<const RunResult> run,
                           const QString& origin, std::shared_ptr<std::atomic<bool>> cancel)
{
    deliver(
        id,
        [&](QString* error, bool* wasCancelled) -> RunOutcomePtr {
            auto profile = profileFor(scenario);
            if (!profile) {
                *error = i18n::engineError(profile.error());
                return nullptr;
            }
            CostModel model(scenario.topology, *profile);
            QElapsedTimer clock;
            clock.start();
            const RunKind kind = run->mode == RunMode::Live ? RunKind::Live : RunKind::Simulate;
            auto out = prepare(id, kind, scenario, std::move(run), model, *cancel, wasCancelled);
            if (!out)
                return nullptr;
            auto edited = std::const_pointer_cast<RunOutcome>(out);
            edited->origin = origin;
            edited->wallMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
            return out;
        },
        *cancel);
}

void EngineWorker::deliver(quint64 id, const std::function<RunOutcomePtr(QString*, bool*)>& make,
                           const std::atomic<bool>& cancel)
{
    if (cancel.load()) { // superseded before it began
        emit cancelled(id);
        return;
    }
    QString error;
    bool wasCancelled = false;
    RunOutcomePtr outcome;
    try {
        outcome = make(&error, &wasCancelled);
    } catch (const std::exception& e) {
        error = tr("The run stopped on an internal error: %1").arg(QString::fromUtf8(e.what()));
    } catch (...) {
        error = tr("The run stopped on an unknown internal error.");
    }
    if (wasCancelled || (cancel.load() && !outcome))
        emit cancelled(id);
    else if (outcome)
        emit resultAvailable(id, outcome);
    else
        emit failed(id, error);
}

RunOutcomePtr EngineWorker::execute(quint64 id, const Scenario& scenario, RunKind kind, const std::atomic<bool>& cancel,
                                    double watchdogMs, QString* error, bool* wasCancelled)
{
    QElapsedTimer clock;
    clock.start();
    auto profile = profileFor(scenario);
    if (!profile) {
        *error = i18n::engineError(profile.error());
        return nullptr;
    }
    CostModel model(scenario.topology, *profile);

    // progress at once (the bar moves as soon as the run is under way), then at most every 50 ms: a
    // run of 100,000 short iterations must not flood the queue
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    bool first = true;
    auto report = [&](int done, int total) {
        if (first || done == total || sinceProgress.elapsed() >= 50) {
            first = false;
            sinceProgress.restart();
            emit progress(id, done, total);
        }
        return !cancel.load();
    };

    // each finished iteration into the timeline while the run goes on, simulated or live
    auto iterationDone = [&](const RunResult& soFar, int done, int total) {
        if (m_stream && m_stream->push(id, soFar, done, total))
            emit dataAvailable(id);
        if (m_iterationHook)
            m_iterationHook(done, cancel);
        return !cancel.load();
    };
    Result<RunResult> result = Error{};
    if (kind == RunKind::Simulate) {
        SimulationOptions o;
        o.cancel = &cancel;
        o.progress = report;
        o.watchdogMs = watchdogMs;
        o.iterationDone = iterationDone;
        result = simulate(scenario, model, o);
    } else {
        LiveOptions o;
        o.cancel = &cancel;
        o.progress = report;
        o.watchdogMs = watchdogMs;
        o.iterationDone = iterationDone;
        result = m_liveRunner(scenario, o);
    }
    if (!result) {
        *wasCancelled = result.error().kind == ErrorKind::Cancelled || cancel.load();
        *error = i18n::engineError(result.error());
        return nullptr;
    }
    auto out = prepare(id, kind, scenario, std::make_shared<const RunResult>(std::move(result).value()), model, cancel,
                       wasCancelled);
    if (out)
        std::const_pointer_cast<RunOutcome>(out)->wallMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return out;
}

RunOutcomePtr EngineWorker::prepare(quint64 id, RunKind kind, const Scenario& scenario,
                                    std::shared_ptr<const RunResult> run, CostModel& model,
                                    const std::atomic<bool>& cancel, bool* wasCancelled)
{
    auto prepared = prepareRun(scenario, std::move(run), model, &cancel);
    if (!prepared) {
        *wasCancelled = true; // prepareRun fails only when cancelled
        return nullptr;
    }
    auto out = std::make_shared<RunOutcome>();
    out->id = id;
    out->kind = kind;
    out->scenario = scenario;
    out->run = prepared->run;
    out->summary = std::move(prepared->summary);
    out->activity = std::move(prepared->activity);
    out->reference = std::move(prepared->reference);
    out->comparison = std::move(prepared->comparison);
    out->referenceError = QString::fromStdString(prepared->referenceError);
    out->timeline = TimelineData::build(out->run, out->reference);
    return out;
}

} // namespace shardlab::gui
