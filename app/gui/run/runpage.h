// The run page: mode (Simulate / Live), Run and Cancel, progress, the per-rank timeline, the
// playback controls and the summary. The main window adds it with one call and feeds it the
// scenario; the topology diagram listens to activityAvailable().
//
//   auto* run = new RunPage(this);
//   connect(document, &Document::scenarioChanged, run, &RunPage::setScenario);
//   connect(run, &RunPage::activityAvailable, diagram, &TopologyScene::setActivity);
#pragma once

#include "shardlab/sim/activity.h"
#include "remote/remotetarget.h"
#include "run/runtypes.h"

#include "shardlab/live/live.h"

#include <functional>
#include <memory>

#include <QPointer>
#include <QWidget>

class QButtonGroup;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QShortcut;
class QSplitter;
class QTabWidget;

namespace shardlab::gui {

class ElidedLabel;
class PlaybackBar;
class PlaybackController;
class RunController;
class SummaryPanel;
class TimelineData;
class TimelineView;

class RunPage : public QWidget {
    Q_OBJECT
public:
    explicit RunPage(QWidget* parent = nullptr);
    ~RunPage() override;

    const Scenario& scenario() const { return m_scenario; }
    RunKind mode() const { return m_mode; }
    void setMode(RunKind mode);
    // Re-simulate whenever the scenario changes (off by default: the user presses Run).
    void setAutoRun(bool on) { m_autoRun = on; }
    // Tests and demos: replace the live executor (and offer Live mode) with `runner`, described
    // to the user by `description`.
    void useLiveRunner(std::function<Result<RunResult>(const Scenario&, const LiveOptions&)> runner,
                       const QString& description);

    RunOutcomePtr lastOutcome() const { return m_outcome; }
    QString message() const;    // the banner's text (errors, hangs, stale results)
    QString statusText() const; // the run bar's status, whole ("Simulated in 0.3 ms")
    RunController* controller() const { return m_controller; }
    PlaybackController* playback() const { return m_playback; }
    TimelineView* timeline() const { return m_timeline; }
    SummaryPanel* summary() const { return m_summary; }
    PlaybackBar* playbackBar() const { return m_playbackBar; }
    QPushButton* runButton() const { return m_runButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }

    // The watchdog's deadline for the next runs (RunController::setWatchdogMs).
    void setWatchdogMs(double ms);
    double watchdogMs() const;

    // Assembly by the main window: a widget under the timeline (the topology diagram, which
    // animates with the playback) and tabs beside the summary (the hang sandbox).
    void setDiagram(QWidget* diagram);
    int addSideTab(QWidget* tab, const QString& title, const QString& tooltip = {});
    void showSideTab(QWidget* tab);
    QTabWidget* sideTabs() const { return m_sideTabs; }
    // Where the playback keys (Space, arrows, +/-, Home/End) work: this page (default) or, in
    // presenter mode, the whole window. nullptr goes back to the default scope.
    void setShortcutScope(QWidget* scope);
    // Presenter mode: the timeline takes three quarters of the left column's height (the machine's
    // activity the rest), so that a room sees every rank's lane; off puts the user's split back.
    void favourTimeline(bool on);
    // The scope that setShortcutScope(nullptr) returns to (the main window sets itself, so that
    // a focused tab bar or toolbar does not take the keys); installs it now.
    void setDefaultShortcutScope(QWidget* scope);
    // Whether the playback keys act (the main window turns them off while another page shows, so
    // that the editor's tables keep their arrows). Text fields and spin boxes keep their keys anyway.
    void setShortcutsEnabled(bool enabled);
    bool shortcutsEnabled() const { return m_shortcutsEnabled; }

public slots:
    void setScenario(const shardlab::Scenario& scenario);
    void run();
    void cancel();
    // Runs a variant of the scenario (the hang sandbox's) in the current mode; the page keeps the
    // document's scenario for the next plain run.
    void runScenario(const shardlab::Scenario& scenario);
    // Shows a run made elsewhere (a result file, a trace) exactly as one made here; `origin` names
    // the file in the status line.
    // Runs the open scenario on another machine over SSH (Run > Live on…).
    void runRemote(const RemoteTarget& target);
    // The scenario's ranks as processes sharing this machine's one GPU, through the command line
    // program `shardlab` (remote/sharedgpu.h); the caller checked sharedGpuProblem().
    void runSharingGpu(const QString& shardlab);
    // Live with the scenario's ranks sharing this machine's one GPU: while on (and the mode is
    // Live), Run, the hang sandbox's runs and the lessons' runs go through `shardlab live
    // --share-gpu N --stream -` (remote/sharedgpu.h). Choosing Simulate or Live turns it off.
    void setShareGpu(bool on);
    bool shareGpu() const { return m_shareGpu; }
    // The command line program those runs use (default: the one installed beside this program).
    void setShardlabProgram(const QString& path) { m_shardlab = path; }
    // Run > Profile a program…: `target` runs `shardlab profile --live` on this machine
    // (remote/profiledialog.h); its timeline appears once the program's communicators are known.
    // `resultFile`: where `shardlab profile` saves the run (named in the banner afterwards).
    void runProfile(const RemoteTarget& target, const QString& program, const QString& resultFile);
    // A run made elsewhere (a result file, a trace, a profile shown against its own document);
    // `incomplete` says why it is incomplete, if it is.
    void showRun(const shardlab::Scenario& scenario, std::shared_ptr<const shardlab::RunResult> run,
                 const QString& origin, const QString& incomplete = QString());

signals:
    // What the topology diagram draws at the playback's current instant (up to 60 per second).
    void activityAvailable(const shardlab::ActivitySnapshot& frame);
    // A run finished (the current one; superseded runs never arrive here).
    void runFinished(const shardlab::RunResult& result, const shardlab::Summary& summary);
    void outcomeAvailable(shardlab::gui::RunOutcomePtr outcome);
    void runFailed(const QString& message);
    void modeChanged(shardlab::gui::RunKind mode);
    // Whether Live can be chosen, and why (or why not).
    void liveAvailabilityChanged(bool available, const QString& explanation);
    // A run started (true) or ended, failed or was cancelled (false).
    void runningChanged(bool running);

protected:
    void changeEvent(QEvent* event) override;

private:
    void onStarted(quint64 id, RunKind kind);
    void onProgress(quint64 id, int done, int total);
    void onPartial(quint64 id);
    void onResult(RunOutcomePtr outcome);
    void onFailed(quint64 id, const QString& message);
    void onCancelled(quint64 id);
    void onLiveAvailability(bool available, const QString& explanation);
    void showBanner(const QString& text, bool error);
    void startSharingGpu(const Scenario& scenario);
    void showTimeline(std::shared_ptr<const TimelineData> data);
    void setRunning(bool running);
    void fitSidePanel();

    Scenario m_scenario;
    Scenario m_running;    // what the current run runs (the scenario, a sandbox variant, a file's)
    QString m_remoteHost;  // the machine of the last remote run, for the status line
    int m_sharedRanks = 0; // > 0: the run in progress is that many ranks sharing this machine's GPU
    bool m_shareGpu = false;
    QString m_shardlab;
    QString m_profiled; // the program being profiled, for the status line (empty: not a profile)
    void showStreaming();
    bool m_hasScenario = false;
    RunKind m_mode = RunKind::Simulate;
    bool m_autoRun = false;
    bool m_liveReplaced = false;
    RunOutcomePtr m_outcome;
    RunController* m_controller = nullptr;
    PlaybackController* m_playback = nullptr;
    TimelineView* m_timeline = nullptr;
    PlaybackBar* m_playbackBar = nullptr;
    SummaryPanel* m_summary = nullptr;
    QButtonGroup* m_modeGroup = nullptr;
    QRadioButton* m_simulate = nullptr;
    QRadioButton* m_live = nullptr;
    ElidedLabel* m_liveNote = nullptr; // cut where the bar is narrow (presenter mode's fonts)
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    ElidedLabel* m_status = nullptr;
    QLabel* m_banner = nullptr;
    QSplitter* m_leftSplit = nullptr;
    QList<int> m_leftSizes;                 // the split favourTimeline(true) found (empty: not favoured)
    QList<QPointer<QShortcut>> m_shortcuts; // on another widget in presenter mode, which may go first
    QPointer<QWidget> m_defaultShortcutScope;
    bool m_shortcutsEnabled = true;
    QTabWidget* m_sideTabs = nullptr;
};

} // namespace shardlab::gui
