// The projector view (View > Projector view, Shift+F11): the topology diagram and the per-rank
// timeline together on the whole screen, with the current lesson step (where the Lessons dock is
// open; else the scenario and what its run says) as a large caption above them, readable from the back of a
// lecture hall. It shows the run page's run: the diagram is one more view of the editor's scene
// (its cards animate with the playback), the timeline one more view of the same lanes with the
// playback's cursor, and the playback keys (Space, arrows, +/-, Home/End) work in it. Esc or
// Shift+F11 closes it; the main window is left as it was.
#pragma once

#include "run/runtypes.h"

#include <QWidget>

class QLabel;
class QSplitter;

namespace shardlab::gui {

class LessonBrowser;
class RunPage;
class TimelineView;
class TopologyScene;
class TopologyView;

class ProjectorView : public QWidget {
    Q_OBJECT
public:
    // Every font here is this much larger than the application's plain font: the caption 1.2
    // times as much again.
    static constexpr double kFontScale = 1.8;

    // `appFontScale`: how much larger the application's font is now than its plain one (presenter
    // mode's scale while it is on), so that the projector's fonts do not grow by both. `dark`:
    // presenter mode's dark theme, white on black (the diagram's background and the timeline's axes).
    ProjectorView(TopologyScene* scene, RunPage* run, LessonBrowser* lessons, QWidget* parent = nullptr,
                  double appFontScale = 1.0, bool dark = false);

    QString caption() const;
    TopologyView* diagram() const { return m_diagram; }
    TimelineView* timeline() const { return m_timeline; }
    // Full screen on `screenOf`'s screen (covering it where no window manager grants full screen).
    void showOn(QWidget* screenOf);

public slots:
    void refreshCaption();
    void showOutcome(shardlab::gui::RunOutcomePtr outcome);

signals:
    void closed();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    RunPage* m_run;
    LessonBrowser* m_lessons;
    QLabel* m_caption = nullptr;
    QSplitter* m_split = nullptr;
    TopologyView* m_diagram = nullptr;
    TimelineView* m_timeline = nullptr;
    RunOutcomePtr m_outcome;
};

} // namespace shardlab::gui
