// Two runs side by side (Run > Compare side by side…, Ctrl+Shift+B; the Lessons dock's "Side by
// side" for a lesson with a comparison scenario): every lesson has a comparison (replicated
// against ZeRO-3, 14/10 against 12/12, 8 against 16 GPUs). Both scenarios are simulated off the
// GUI thread; their timelines stand one above the other on one time axis (zooming or panning
// one moves the other), each under its name and step time, and the difference is named above
// them in one sentence (runDifference(): step, exposed communication, collectives per
// iteration, peak memory per GPU).
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/analysis/run_difference.h"
#include "shardlab/model/scenario.h"

#include <QWidget>

class QLabel;
class QProgressBar;

namespace shardlab::gui {

class TimelineView;

class SideBySideView : public QWidget {
    Q_OBJECT
public:
    explicit SideBySideView(QWidget* parent = nullptr);

    // Simulates both and shows them; a newer call supersedes one still running.
    void compare(const Scenario& a, const Scenario& b);
    bool busy() const { return m_jobs.running(); }

    TimelineView* timelineA() const { return m_a; }
    TimelineView* timelineB() const { return m_b; }
    QString differenceText() const;
    QString headerA() const;
    QString headerB() const;
    const RunDifference& difference() const { return m_difference; }

signals:
    void shown(); // both runs are on screen
    void failed(const QString& message);

private:
    void syncRange(TimelineView* from, TimelineView* to);

    JobTracker m_jobs{this};
    QLabel* m_sentence = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_headerA = nullptr;
    QLabel* m_headerB = nullptr;
    TimelineView* m_a = nullptr;
    TimelineView* m_b = nullptr;
    RunDifference m_difference;
    bool m_syncing = false;
};

} // namespace shardlab::gui
