// The run page: mode (Simulate / Live), Run and Cancel, progress, the per-rank timeline, the
// playback controls and the summary. The main window adds it with one call and feeds it the
// scenario; the topology diagram listens to activityAvailable().
//
//   auto* run = new RunPage(this);
//   connect(document, &Document::scenarioChanged, run, &RunPage::setScenario);
//   connect(run, &RunPage::activityAvailable, diagram, &TopologyDiagram::setActivity);
#pragma once

#include "activity.h"
#include "runtypes.h"

#include "shardlab/live.h"

#include <functional>

#include <QWidget>

class QButtonGroup;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;

namespace shardlab::gui {

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
    void useLiveRunner(std::function<Result<RunResult>(const Scenario&, const LiveOptions&)> runner, const QString& description);

    RunOutcomePtr lastOutcome() const { return m_outcome; }
    QString message() const;           // the banner's text (errors, hangs, stale results)
    RunController* controller() const { return m_controller; }
    PlaybackController* playback() const { return m_playback; }
    TimelineView* timeline() const { return m_timeline; }
    SummaryPanel* summary() const { return m_summary; }
    PlaybackBar* playbackBar() const { return m_playbackBar; }
    QPushButton* runButton() const { return m_runButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }

public slots:
    void setScenario(const shardlab::Scenario& scenario);
    void run();
    void cancel();

signals:
    // What the topology diagram draws at the playback's current instant (up to 60 per second).
    void activityAvailable(const shardlab::gui::ActivityFrame& frame);
    // A run finished (the current one; superseded runs never arrive here).
    void runFinished(const shardlab::RunResult& result, const shardlab::Summary& summary);
    void outcomeAvailable(shardlab::gui::RunOutcomePtr outcome);
    void runFailed(const QString& message);

private:
    void onStarted(quint64 id, RunKind kind);
    void onProgress(quint64 id, int done, int total);
    void onPartial(quint64 id);
    void onResult(RunOutcomePtr outcome);
    void onFailed(quint64 id, const QString& message);
    void onCancelled(quint64 id);
    void onLiveAvailability(bool available, const QString& explanation);
    void showBanner(const QString& text, bool error);
    void showTimeline(std::shared_ptr<const TimelineData> data);
    void setRunning(bool running);

    Scenario m_scenario;
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
    QLabel* m_liveNote = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_banner = nullptr;
};

} // namespace shardlab::gui
