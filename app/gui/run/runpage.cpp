#include "run/runpage.h"
#include "run/elidedlabel.h"

#include "style/scrollpage.h"

#include "i18n/language.h"

#include "run/playbackbar.h"
#include "run/playbackcontroller.h"
#include "run/runcontroller.h"
#include "run/summarypanel.h"
#include "remote/profiledialog.h"
#include "remote/sharedgpu.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScreen>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <utility>

namespace shardlab::gui {

RunPage::RunPage(QWidget* parent) : QWidget(parent)
{
    m_controller = new RunController(this);
    m_playback = new PlaybackController(this);

    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 6, 6, 6);

    // mode, run, cancel, progress
    auto* bar = new QHBoxLayout;
    m_simulate = new QRadioButton(tr("Simulate"), this);
    m_simulate->setToolTip(tr("Run the scenario on the analytic cost model: works on any computer"));
    m_live = new QRadioButton(tr("Live on this machine's GPUs"), this);
    m_modeGroup = new QButtonGroup(this);
    m_modeGroup->addButton(m_simulate, static_cast<int>(RunKind::Simulate));
    m_modeGroup->addButton(m_live, static_cast<int>(RunKind::Live));
    m_simulate->setChecked(true);
    m_live->setEnabled(false);
    bar->addWidget(m_simulate);
    bar->addWidget(m_live);
    m_liveNote = new ElidedLabel(this);
    m_liveNote->setStyleSheet(QStringLiteral("QLabel { color: #666; }"));
    bar->addWidget(m_liveNote);
    bar->addStretch(1);
    m_runButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"), this);
    m_runButton->setToolTip(tr("Run the scenario (Ctrl+R); a run in progress is replaced"));
    m_runButton->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_cancelButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"), this);
    m_cancelButton->setToolTip(tr("Stop the run in progress"));
    m_cancelButton->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setFixedWidth(fontMetrics().horizontalAdvance(tr("iteration 999 of 999")) + 40);
    m_progress->setFormat(tr("iteration %v of %m"));
    // Wide enough for its text in any language (the status text beside it takes the rest).
    m_progress->setMinimumWidth(std::min(
        220, m_progress->fontMetrics().horizontalAdvance(QString(m_progress->format())
                                                             .replace(QStringLiteral("%v"), QStringLiteral("1000"))
                                                             .replace(QStringLiteral("%m"), QStringLiteral("1000")))
                 + 24));
    m_progress->setValue(0);
    m_status = new ElidedLabel(this); // a long command or path never widens the window
    bar->addWidget(m_runButton);
    bar->addWidget(m_cancelButton);
    bar->addWidget(m_progress);
    bar->addWidget(m_status);
    column->addLayout(bar);

    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("runBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::PlainText); // errors quote remote machines, programs and files
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->hide();
    column->addWidget(m_banner);

    // timeline (and the diagram, when the main window adds it) and playback on the left, summary
    // and other tabs on the right
    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(split);
    auto* leftColumn = new QVBoxLayout(left);
    leftColumn->setContentsMargins(0, 0, 0, 0);
    m_leftSplit = new QSplitter(Qt::Vertical, left);
    m_leftSplit->setChildrenCollapsible(false);
    m_timeline = new TimelineView(m_leftSplit);
    m_leftSplit->addWidget(m_timeline);
    m_playbackBar = new PlaybackBar(m_playback, left);
    leftColumn->addWidget(m_leftSplit, 1);
    leftColumn->addWidget(m_playbackBar);
    m_sideTabs = new QTabWidget(split);
    m_sideTabs->setDocumentMode(true);
    m_summary = new SummaryPanel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_summary);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_sideTabs->addTab(scroll, tr("Summary"));
    m_sideTabs->setTabToolTip(0, tr("Step time, speed-up, efficiency, who waits for whom, and the per-rank table"));
    m_sideTabs->setMinimumWidth(470);
    split->addWidget(left);
    split->addWidget(m_sideTabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    column->addWidget(split, 1);

    for (QShortcut* s : m_playback->installShortcuts(this))
        m_shortcuts << s;

    connect(m_modeGroup, &QButtonGroup::idClicked, this, [this](int id) {
        const bool wasSharing = m_shareGpu;
        const RunKind before = m_mode;
        m_shareGpu = false;                // the page's Live is this machine's GPUs, one rank each
        setMode(static_cast<RunKind>(id)); // says so when the mode changed
        if (wasSharing && m_mode == before)
            emit modeChanged(m_mode); // the Run menu's Live with N ranks is off again
    });
    connect(m_runButton, &QPushButton::clicked, this, &RunPage::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &RunPage::cancel);
    connect(m_controller, &RunController::started, this, &RunPage::onStarted);
    connect(m_controller, &RunController::progress, this, &RunPage::onProgress);
    connect(m_controller, &RunController::partialAvailable, this, &RunPage::onPartial);
    connect(m_controller, &RunController::streamingTimelineReady, this, [this](quint64 id) {
        if (id == m_controller->currentId())
            showStreaming(); // a profiled program's: made when its stream's header arrived
    });
    connect(m_controller, &RunController::resultAvailable, this, &RunPage::onResult);
    connect(m_controller, &RunController::failed, this, &RunPage::onFailed);
    connect(m_controller, &RunController::cancelled, this, &RunPage::onCancelled);
    connect(m_controller, &RunController::liveAvailabilityChanged, this, &RunPage::onLiveAvailability);
    connect(m_playback, &PlaybackController::activityAvailable, this, &RunPage::activityAvailable);
    connect(m_playback, &PlaybackController::timeChanged, m_timeline, &TimelineView::setCursorTime);
    connect(m_timeline, &TimelineView::timeRequested, m_playback, &PlaybackController::setTime);

    onLiveAvailability(false, m_controller->liveExplanation());
    m_controller->probeLive();
    m_runButton->setEnabled(false);
    m_status->setText(tr("No scenario yet"));
}

RunPage::~RunPage() = default;

void RunPage::changeEvent(QEvent* event)
{
    // presenter mode's larger fonts: the progress text must still fit
    if (event->type() == QEvent::FontChange) {
        m_progress->setFixedWidth(fontMetrics().horizontalAdvance(tr("iteration 999 of 999")) + 40);
        fitSidePanel();
        // again once labels with style sheets have their new font too (presenter mode sets
        // their style sheets again after the application's font changed)
        QTimer::singleShot(0, this, &RunPage::fitSidePanel);
    }
    QWidget::changeEvent(event);
}

void RunPage::fitSidePanel()
{
    // The per-rank table is as wide as its contents: the panel makes room for it (larger fonts),
    // up to 42% of the screen, so that the timeline keeps the rest of a 1366-pixel laptop screen;
    // beyond that the table scrolls sideways in its page.
    const int cap = screen() ? screen()->availableGeometry().width() * 42 / 100 : 574;
    m_sideTabs->setMinimumWidth(std::max(470, std::min(cap, m_summary->sizeHint().width() + 30)));
}

QString RunPage::message() const { return m_banner->isHidden() ? QString() : m_banner->text(); }

QString RunPage::statusText() const { return m_status->text(); }

void RunPage::showBanner(const QString& text, bool error)
{
    m_banner->setText(text);
    m_banner->setStyleSheet(
        error ? QStringLiteral(
            "QLabel { background: #FBE3D6; color: black; border-left: 4px solid #D55E00; padding: 6px; }")
              : QStringLiteral(
                  "QLabel { background: #E3F1FB; color: black; border-left: 4px solid #0072B2; padding: 6px; }"));
    m_banner->setVisible(!text.isEmpty());
}

void RunPage::useLiveRunner(std::function<Result<RunResult>(const Scenario&, const LiveOptions&)> runner,
                            const QString& description)
{
    m_controller->setLiveRunner(std::move(runner));
    m_liveReplaced = true;
    onLiveAvailability(true, description);
}

void RunPage::setMode(RunKind mode)
{
    if (mode == RunKind::Live && !m_controller->liveAvailable() && !m_liveReplaced)
        mode = RunKind::Simulate;
    const bool changed = mode != m_mode;
    m_mode = mode;
    m_modeGroup->button(static_cast<int>(mode))->setChecked(true);
    if (changed)
        emit modeChanged(mode);
}

void RunPage::setWatchdogMs(double ms) { m_controller->setWatchdogMs(ms); }

double RunPage::watchdogMs() const { return m_controller->watchdogMs(); }

void RunPage::favourTimeline(bool on)
{
    if (m_leftSplit->count() < 2)
        return;
    if (on && m_leftSizes.isEmpty()) {
        m_leftSizes = m_leftSplit->sizes();
        const int total = m_leftSizes[0] + m_leftSizes[1];
        m_leftSplit->setSizes({total * 3 / 4, total - total * 3 / 4});
    } else if (!on && !m_leftSizes.isEmpty()) {
        m_leftSplit->setSizes(std::exchange(m_leftSizes, {}));
    }
}

void RunPage::setShortcutScope(QWidget* scope)
{
    for (const QPointer<QShortcut>& s : std::as_const(m_shortcuts))
        delete s.data();
    m_shortcuts.clear();
    if (!scope)
        scope = m_defaultShortcutScope ? m_defaultShortcutScope.data() : this;
    for (QShortcut* s : m_playback->installShortcuts(scope)) {
        s->setEnabled(m_shortcutsEnabled);
        m_shortcuts << s;
    }
}

void RunPage::setDefaultShortcutScope(QWidget* scope)
{
    m_defaultShortcutScope = scope;
    setShortcutScope(nullptr);
}

void RunPage::setShortcutsEnabled(bool enabled)
{
    m_shortcutsEnabled = enabled;
    for (const QPointer<QShortcut>& s : std::as_const(m_shortcuts))
        if (s)
            s->setEnabled(enabled);
}

void RunPage::setDiagram(QWidget* diagram)
{
    m_leftSplit->addWidget(diagram);
    m_leftSplit->setStretchFactor(0, 3);
    m_leftSplit->setStretchFactor(1, 2);
    m_leftSplit->setSizes({600, 400});
}

int RunPage::addSideTab(QWidget* tab, const QString& title, const QString& tooltip)
{
    // scrollable, so that a tall panel (the hang sandbox) never makes the page taller than a
    // 1366x768 screen, in presenter mode's larger fonts too
    const int index = m_sideTabs->addTab(scrollPage(tab), title);
    m_sideTabs->setTabToolTip(index, tooltip);
    return index;
}

void RunPage::showSideTab(QWidget* tab)
{
    for (int i = 0; i < m_sideTabs->count(); ++i)
        if (m_sideTabs->widget(i) == tab || m_sideTabs->widget(i)->isAncestorOf(tab))
            m_sideTabs->setCurrentIndex(i);
}

void RunPage::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    m_hasScenario = true;
    m_runButton->setEnabled(true);
    m_status->setText(tr("Ready: %1").arg(QString::fromStdString(scenario.name)));
    if (m_autoRun) {
        run();
    } else if (m_outcome) {
        showBanner(tr("The scenario changed since this run: press Run to see the new one."), false);
    }
}

void RunPage::run()
{
    if (!m_hasScenario)
        return;
    runScenario(m_scenario);
}

void RunPage::runScenario(const Scenario& scenario)
{
    if (m_mode == RunKind::Live && m_shareGpu) {
        startSharingGpu(scenario);
        return;
    }
    m_running = scenario;
    m_sharedRanks = 0;
    m_controller->start(scenario, m_mode);
}

void RunPage::startSharingGpu(const Scenario& scenario)
{
    if (const QString problem = sharedGpuProblem(scenario.ranks()); !problem.isEmpty()) {
        showBanner(problem, true);
        emit runFailed(problem);
        return;
    }
    m_running = scenario;
    m_profiled.clear();
    m_remoteHost.clear();
    m_sharedRanks = scenario.ranks();
    const QString shardlab = m_shardlab.isEmpty() ? ProfileRequest::defaultShardlab() : m_shardlab;
    m_controller->startRemote(scenario, sharedGpuTarget(shardlab, m_sharedRanks, watchdogMs()));
}

void RunPage::setShareGpu(bool on)
{
    if (on == m_shareGpu)
        return;
    m_shareGpu = on;
    emit modeChanged(m_mode); // the Run menu shows which Live it is
}

void RunPage::runRemote(const RemoteTarget& target)
{
    if (!m_hasScenario)
        return;
    m_running = m_scenario;
    m_profiled.clear();
    m_remoteHost = target.onThisMachine ? QString() : target.displayName();
    m_sharedRanks = 0;
    m_controller->startRemote(m_scenario, target);
}

void RunPage::runSharingGpu(const QString& shardlab)
{
    if (!m_hasScenario)
        return;
    m_shardlab = shardlab;
    startSharingGpu(m_scenario);
}

void RunPage::runProfile(const RemoteTarget& target, const QString& program, const QString& resultFile)
{
    m_running = Scenario{}; // the stream's header names the machine and ranks; the program comes with the result
    m_remoteHost.clear();
    m_sharedRanks = 0;
    m_profiled = program;
    m_controller->startProfile(target, resultFile);
}

void RunPage::showRun(const Scenario& scenario, std::shared_ptr<const RunResult> run, const QString& origin,
                      const QString& incomplete)
{
    m_running = scenario;
    m_controller->present(scenario, std::move(run), origin, incomplete);
}

void RunPage::cancel()
{
    m_controller->cancel();
    m_status->setText(tr("Cancelling\u2026"));
    m_cancelButton->setEnabled(false);
}

void RunPage::setRunning(bool running)
{
    m_cancelButton->setEnabled(running);
    emit runningChanged(running);
    m_progress->setVisible(true);
    if (!running)
        m_progress->setValue(m_progress->maximum());
}

void RunPage::onStarted(quint64, RunKind kind)
{
    setRunning(true);
    showBanner({}, false);
    m_playback->setIndex(nullptr);
    m_playbackBar->refresh();
    m_progress->setRange(0, std::max(1, m_running.iterations));
    m_progress->setValue(0);
    const bool profiling = m_controller->remoteSession() && !m_profiled.isEmpty();
    if (profiling) {
        m_status->setText(tr("Profiling %1\u2026 (Stop ends the program and keeps what it recorded)").arg(m_profiled));
        m_progress->setRange(0, 0); // how many collectives the program makes is not known
        // not the open scenario's figures: the program's come when it ends
        m_summary->clear(tr("Profiling your program: its summary, per-rank table and diagnosis appear when it ends "
                            "(or when you press Stop). The diagram shows the machine it ran on from then on."));
    } else if (m_controller->remoteSession() && m_sharedRanks > 0)
        m_status->setText(tr("Running %n rank(s) on this machine's one GPU, one process each\u2026 (results and waits "
                             "are real; times are not those of %n GPUs)",
                             nullptr, m_sharedRanks));
    else if (m_controller->remoteSession())
        m_status->setText(m_remoteHost.isEmpty() ? tr("Reading a run stream on this machine\u2026")
                                                 : tr("Running on %1 over SSH\u2026").arg(m_remoteHost));
    else
        m_status->setText(kind == RunKind::Live ? tr("Running on the GPUs\u2026") : tr("Simulating\u2026"));
    if (!profiling)
        m_profiled.clear();
    m_cancelButton->setText(profiling ? tr("Stop") : tr("Cancel"));
    m_cancelButton->setToolTip(
        profiling ? tr("End the profiled program; what it recorded until then is shown, marked incomplete")
                  : tr("Stop the run in progress"));
    showStreaming();
}

void RunPage::showStreaming()
{
    if (auto streaming = m_controller->streamingTimeline()) {
        std::vector<QString> names;
        for (const Op& op : m_running.program)
            names.push_back(QString::fromStdString(op.name.empty() ? opName(op.kind) : op.name));
        m_timeline->setOpNames(std::move(names));
        m_timeline->setStraggler(std::nullopt);
        showTimeline(streaming);
    }
}

void RunPage::onProgress(quint64, int done, int total)
{
    m_progress->setRange(0, total);
    m_progress->setValue(done);
}

void RunPage::onPartial(quint64)
{
    m_timeline->dataAppended();
    if (m_controller->streamIncomplete())
        m_status->setText(tr("Simulating\u2026 (drawing every iteration once the run ends)"));
}

void RunPage::showTimeline(std::shared_ptr<const TimelineData> data)
{
    auto old = m_timeline->sharedData(); // freed on the engine thread, not here
    m_timeline->setData(std::move(data));
    m_controller->disposeLater(std::move(old));
}

void RunPage::onResult(RunOutcomePtr outcome)
{
    setRunning(false);
    RunOutcomePtr previous = std::exchange(m_outcome, outcome); // let go of below, on the engine thread
    std::vector<QString> names;
    for (const Op& op : outcome->scenario.program)
        names.push_back(QString::fromStdString(op.name.empty() ? opName(op.kind) : op.name));
    m_timeline->setOpNames(std::move(names));
    m_timeline->setStraggler(outcome->summary.straggler);
    showTimeline(outcome->timeline);
    m_summary->setOutcome(outcome);
    fitSidePanel();
    m_playback->setIndex(outcome->activity);
    m_controller->disposeLater(std::move(previous));
    m_playbackBar->refresh();
    const int decimals = outcome->wallMs < 10 ? 1 : 0;
    const int shared = outcome->run->sharedGpu; // ranks that took turns on one GPU (--share-gpu)
    if (outcome->kind == RunKind::Live && shared > 0)
        m_status->setText(tr("Measured with %n rank(s) sharing one GPU", nullptr, shared));
    else if (!outcome->origin.isEmpty())
        m_status->setText(i18n::tidySpaces(outcome->kind == RunKind::Live
                                               ? tr("Measured run read from %1").arg(outcome->origin)
                                               : tr("Simulated run read from %1").arg(outcome->origin)));
    else
        m_status->setText(outcome->kind == RunKind::Live
                              ? tr("Measured in %1 ms").arg(outcome->wallMs, 0, 'f', decimals)
                              : tr("Simulated in %1 ms").arg(outcome->wallMs, 0, 'f', decimals));
    if (outcome->run->hang) // the iterations before the hung one completed
        m_progress->setValue(std::max(0, static_cast<int>(outcome->run->iterations.size()) - 1));
    if (!outcome->incomplete.isEmpty())
        showBanner(outcome->incomplete, true);
    else if (outcome->run->hang)
        showBanner(tr("The run hung: %1").arg(i18n::engineText(outcome->run->hang->explanationMessage())), true);
    else if (outcome->kind == RunKind::Live && !outcome->reference)
        showBanner(tr("The simulation of this scenario failed, so there is nothing to compare with: %1")
                       .arg(outcome->referenceError),
                   true);
    else if (outcome->kind == RunKind::Live && shared > 0)
        showBanner(tr("Measured with %n rank(s) taking turns on this one GPU: results, verification and waits are "
                      "real, times are not those of %n GPU(s). The faint dotted lane under each rank is the "
                      "simulation of the same scenario on this computer's model.",
                      nullptr, shared),
                   false);
    else if (outcome->kind == RunKind::Live && !outcome->origin.isEmpty())
        showBanner(i18n::tidySpaces(
                       tr("Measured by the run saved in %1. The faint dotted lane under each rank is the simulation "
                          "of the same scenario on this computer's model; the table on the right gives the error per "
                          "phase.")
                           .arg(outcome->origin)),
                   false);
    else if (outcome->kind == RunKind::Live)
        showBanner(tr("Measured on this machine. The faint dotted lane under each rank is the simulation of the same "
                      "scenario; the table on the right gives the error per phase."),
                   false);
    emit outcomeAvailable(outcome);
    emit runFinished(*outcome->run, outcome->summary);
}

void RunPage::onFailed(quint64, const QString& message)
{
    setRunning(false);
    m_progress->setValue(0);
    m_status->setText(tr("Failed"));
    showBanner(tr("The run failed: %1").arg(message), true);
    // Nothing of an earlier run stays as if it were this one (the timeline of another program, a
    // summary still saying "Profiling your program…"): the page is cleared and says why.
    m_profiled.clear();
    RunOutcomePtr previous = std::exchange(m_outcome, nullptr);
    m_timeline->setStraggler(std::nullopt);
    showTimeline(nullptr);
    m_playback->setIndex(nullptr);
    m_playbackBar->refresh();
    m_summary->clear(tr("The run failed, so there is nothing to show: the message above says why."));
    m_controller->disposeLater(std::move(previous));
    emit runFailed(message);
}

void RunPage::onCancelled(quint64)
{
    setRunning(false);
    m_progress->setValue(0);
    m_status->setText(tr("Cancelled"));
    if (m_outcome) { // back to the last finished run
        m_timeline->setStraggler(m_outcome->summary.straggler);
        showTimeline(m_outcome->timeline);
        m_playback->setIndex(m_outcome->activity);
        m_playbackBar->refresh();
    }
}

void RunPage::onLiveAvailability(bool available, const QString& explanation)
{
    if (m_liveReplaced && !available)
        return; // the probe of the real GPUs answered after a stand-in was installed
    m_live->setEnabled(available);
    m_live->setToolTip(available ? tr("Run real CUDA kernels and NCCL collectives: %1").arg(explanation) : explanation);
    m_liveNote->setText(available ? QString() : tr("(live unavailable: hover for why)"));
    m_liveNote->setToolTip(explanation);
    m_liveNote->setExplanation(explanation);
    if (!available && m_mode == RunKind::Live)
        setMode(RunKind::Simulate);
    emit liveAvailabilityChanged(available, explanation);
}

} // namespace shardlab::gui
