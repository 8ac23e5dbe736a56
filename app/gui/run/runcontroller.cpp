#include "run/runcontroller.h"

#include "remote/remotesession.h"
#include "timeline/timelinedata.h"

#include <QThread>

namespace shardlab::gui {

RunController::RunController(QObject* parent)
    : QObject(parent), m_stream(std::make_shared<RunStream>()), m_liveExplanation(tr("Checking for GPUs\u2026"))
{
    qRegisterMetaType<RunOutcomePtr>();
    qRegisterMetaType<RunKind>();
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("shardlab-engine"));
    m_worker = new EngineWorker(m_stream);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &EngineWorker::progress, this, &RunController::onProgress);
    connect(m_worker, &EngineWorker::dataAvailable, this, &RunController::onDataReady);
    connect(m_worker, &EngineWorker::resultAvailable, this, &RunController::onFinished);
    connect(m_worker, &EngineWorker::failed, this, &RunController::onFailed);
    connect(m_worker, &EngineWorker::cancelled, this, &RunController::onCancelled);
    connect(m_worker, &EngineWorker::liveProbed, this, &RunController::onLiveProbed);
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(30);
    connect(&m_coalesce, &QTimer::timeout, this, &RunController::drainStream);
    m_thread->start();
}

RunController::~RunController()
{
    if (m_cancel)
        m_cancel->store(true);
    m_thread->quit();
    m_thread->wait();
}

void RunController::probeLive()
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->probeLive(); }, Qt::QueuedConnection);
}

void RunController::setLiveRunner(EngineWorker::LiveRunner runner)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, r = std::move(runner)]() mutable { w->setLiveRunner(std::move(r)); },
        Qt::QueuedConnection);
}

void RunController::setIterationHook(EngineWorker::IterationHook hook)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, h = std::move(hook)]() mutable { w->setIterationHook(std::move(h)); },
        Qt::QueuedConnection);
}

quint64 RunController::begin()
{
    if (m_cancel)
        m_cancel->store(true); // the older run stops at its next check; its results are dropped
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_current = ++m_next;
    m_running = true;
    m_appending = false;
    m_streamIncomplete = false;
    m_coalesce.stop();
    m_stream->reset(m_current);
    disposeLater(std::move(m_streaming));
    m_incomplete.clear();
    if (m_remote) { // its ssh ends; its signals are no longer heard
        m_remote->disconnect(this);
        m_remote->cancel();
        m_remote->deleteLater();
        m_remote = nullptr;
    }
    return m_current;
}

quint64 RunController::startRemote(const Scenario& scenario, const RemoteTarget& target)
{
    const quint64 id = begin();
    const RunKind kind = remoteCommandSimulates(target.command) ? RunKind::Simulate : RunKind::Live;
    std::vector<std::string> devices;
    for (const Gpu& g : scenario.topology.gpus)
        devices.push_back(g.name);
    m_streaming = TimelineData::streaming(scenario.ranks(), std::move(devices));
    m_remote = new RemoteSession(target, this);
    follow(id, m_remote,
           target.onThisMachine ? tr("a run stream on this machine") : tr("%1 over SSH").arg(target.displayName()));
    m_remote->start(scenario);
    emit started(id, kind);
    return id;
}

quint64 RunController::startProfile(const RemoteTarget& target, const QString& origin)
{
    const quint64 id = begin();
    m_remote = new RemoteSession(target, this);
    m_remote->setProfile(true);
    RemoteSession* session = m_remote;
    connect(session, &RemoteSession::headerAvailable, this, [this, id, session] {
        if (id != m_current || !session->header())
            return;
        const Scenario& s = session->header()->scenario;
        std::vector<std::string> devices;
        for (const Gpu& g : s.topology.gpus)
            devices.push_back(g.name);
        m_streaming = TimelineData::streaming(s.ranks(), std::move(devices));
        emit streamingTimelineReady(id);
    });
    follow(id, session, origin);
    session->startWithoutScenario();
    emit started(id, RunKind::Live);
    return id;
}

void RunController::follow(quint64 id, RemoteSession* session, const QString& origin)
{
    // each chunk's spans go into the bounded buffer on the stream parser's thread, as the engine
    // thread's do; the GUI only hears that there is something to take
    session->setChunkSink([stream = m_stream, id](const RunResult& soFar, int done, int total) {
        return stream->push(id, soFar, done, total);
    });
    connect(session, &RemoteSession::chunkAvailable, this, [this, id](int done, int total, bool tell) {
        if (id != m_current)
            return;
        if (tell)
            onDataReady(id);
        onProgress(id, done, total);
    });
    connect(session, &RemoteSession::progress, this, [this, id](int done, int total) { onProgress(id, done, total); });
    connect(session, &RemoteSession::runAvailable, this,
            [this, id, origin, session](std::shared_ptr<const RunResult> run, const Scenario& ran) {
                // a profiled program stopped by the user: what it recorded until then
                const QString incomplete =
                    session->stopped()
                        ? tr("Stopped: the program was ended; the run holds what it recorded until then.")
                        : QString();
                presentRemote(id, ran, std::move(run), origin, incomplete);
            });
    connect(session, &RemoteSession::failed, this,
            [this, id, origin](const QString& message, std::shared_ptr<const RunResult> partial, const Scenario& ran) {
                if (partial)
                    presentRemote(id, ran, std::move(partial), origin, message);
                else
                    onFailed(id, message);
            });
    connect(session, &RemoteSession::cancelled, this, [this, id] { onCancelled(id); });
}

void RunController::presentRemote(quint64 id, const Scenario& scenario, std::shared_ptr<const RunResult> run,
                                  const QString& origin, const QString& incomplete)
{
    if (id != m_current || !m_running)
        return;
    m_incomplete = incomplete;
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, scenario, run = std::move(run), origin, cancel = m_cancel]() mutable {
            w->present(id, scenario, std::move(run), origin, cancel);
        },
        Qt::QueuedConnection);
}

quint64 RunController::start(const Scenario& scenario, RunKind kind)
{
    begin();
    std::vector<std::string> devices;
    for (const Gpu& g : scenario.topology.gpus)
        devices.push_back(g.name);
    // simulated and live runs alike hand each iteration over as it completes (iterationDone)
    m_streaming = TimelineData::streaming(scenario.ranks(), std::move(devices));
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id = m_current, scenario, kind, cancel = m_cancel, watchdog = m_watchdogMs] {
            w->run(id, scenario, kind, cancel, watchdog);
        },
        Qt::QueuedConnection);
    emit started(m_current, kind);
    return m_current;
}

quint64 RunController::present(const Scenario& scenario, std::shared_ptr<const RunResult> run, const QString& origin,
                               const QString& incomplete)
{
    begin();
    m_incomplete = incomplete;
    const RunKind kind = run->mode == RunMode::Live ? RunKind::Live : RunKind::Simulate;
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id = m_current, scenario, run = std::move(run), origin, cancel = m_cancel]() mutable {
            w->present(id, scenario, std::move(run), origin, cancel);
        },
        Qt::QueuedConnection);
    emit started(m_current, kind);
    return m_current;
}

void RunController::disposeLater(std::shared_ptr<const void> garbage)
{
    if (garbage)
        QMetaObject::invokeMethod(
            m_worker, [g = std::move(garbage)]() mutable { g.reset(); }, Qt::QueuedConnection);
}

void RunController::cancel()
{
    if (m_remote && m_remote->isRunning() && m_remote->isProfile()) {
        m_remote->cancel(); // Stop: the program ends, and what it recorded still comes and is shown
        return;
    }
    if (m_cancel)
        m_cancel->store(true);
    if (m_remote && m_remote->isRunning())
        m_remote->cancel(); // answers with cancelled() once ssh has ended
}

void RunController::onProgress(quint64 id, int done, int total)
{
    if (id == m_current && m_running)
        emit progress(id, done, total);
}

void RunController::onDataReady(quint64 id)
{
    if (id == m_current && m_running && !m_coalesce.isActive())
        m_coalesce.start();
}

void RunController::drainStream()
{
    if (!m_running || !m_streaming)
        return;
    // A chunk goes into the lanes a slice at a time, each in its own turn of the event loop, so
    // that a large one never holds up the GUI (about a millisecond per slice).
    constexpr size_t kSlice = 4000;
    if (!m_appending) {
        auto chunk = m_stream->take(m_current);
        if (!chunk)
            return;
        m_streamIncomplete = m_streamIncomplete || chunk->incomplete;
        if (chunk->done > 0 && chunk->total > chunk->done)
            m_streaming->expectGrowth(static_cast<double>(chunk->total) / chunk->done);
        m_streaming->beginAppend(std::move(chunk->spans), std::move(chunk->collectives), chunk->iterations,
                                 std::move(chunk->order));
        m_appending = true;
    }
    if (m_streaming->continueAppend(kSlice)) {
        QTimer::singleShot(0, this, &RunController::drainStream);
        return;
    }
    m_appending = false;
    emit partialAvailable(m_current);
    // more may have arrived while this chunk went in
    if (!m_coalesce.isActive())
        m_coalesce.start();
}

void RunController::onFinished(quint64 id, RunOutcomePtr outcome)
{
    if (id != m_current || !m_running)
        return; // superseded: never shown
    // the streamed run gets its last iterations too (stored; the final lanes replace it anyway)
    if (m_streaming)
        if (auto chunk = m_stream->take(m_current))
            m_streaming->beginAppend(std::move(chunk->spans), std::move(chunk->collectives), chunk->iterations,
                                     std::move(chunk->order));
    m_appending = false;
    m_running = false;
    m_coalesce.stop();
    disposeLater(std::move(m_streaming));
    if (!m_incomplete.isEmpty())
        std::const_pointer_cast<RunOutcome>(outcome)->incomplete = m_incomplete;
    emit resultAvailable(std::move(outcome));
}

void RunController::onFailed(quint64 id, const QString& message)
{
    if (id != m_current || !m_running)
        return;
    m_running = false;
    m_coalesce.stop();
    emit failed(id, message);
}

void RunController::onCancelled(quint64 id)
{
    if (id != m_current || !m_running)
        return;
    m_running = false;
    m_coalesce.stop();
    emit cancelled(id);
}

void RunController::onLiveProbed(bool available, const QString& explanation)
{
    m_liveAvailable = available;
    m_liveExplanation = explanation;
    emit liveAvailabilityChanged(available, explanation);
}

} // namespace shardlab::gui
