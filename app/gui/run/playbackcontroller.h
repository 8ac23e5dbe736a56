// Animated playback of a finished run: play, pause, step to the next event (a span boundary or
// a ring step), speed from 1/10,000 of real time (ring steps of a 100 MB all-reduce become
// visible) to 10x, and a position anywhere in the run. Emits an ActivitySnapshot at up to 60 frames
// per second for the topology diagram and the time for the timeline's cursor. The keyboard
// (Space, Left/Right, +/-) can be attached to any widget, so presenter mode reuses it.
#pragma once

#include "shardlab/sim/activity.h"

#include "shardlab/sim/activity.h"

#include <QElapsedTimer>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QTimer>

#include <functional>

#include <memory>
#include <vector>

class QShortcut;
class QWidget;

namespace shardlab::gui {

class PlaybackController : public QObject {
    Q_OBJECT
public:
    explicit PlaybackController(QObject* parent = nullptr);

    // A new run to play: pauses at its beginning and emits its first frame. Null clears.
    void setIndex(std::shared_ptr<const ActivityIndex> index);
    const ActivityIndex* index() const { return m_index.get(); }

    double time() const { return m_timeUs; }
    double endTime() const { return m_index ? m_index->endUs() : 0.0; }
    double speed() const { return m_speed; }
    bool isPlaying() const { return m_timer.isActive(); }
    ActivitySnapshot currentFrame() const;
    int framesEmitted() const { return m_frames; }
    // How often a frame is drawn while playing (16 ms: 60 frames per second; bench_timeline
    // measures the rate reached).
    int frameIntervalMs() const { return m_timer.interval(); }
    // The clock playback advances by, in nanoseconds (default: a steady clock). Tests replace it,
    // so that how far a frame moves never depends on how busy the machine is.
    void setClock(std::function<qint64()> nowNs) { m_now = std::move(nowNs); }

    // The speeds offered, as factors of real time: 1, 2, 5 per decade from 1e-4 to 10.
    static std::vector<double> speedSteps();
    // The step on the ladder at which a run of `runUs` plays in about `seconds` of real time.
    static double speedToPlayIn(double runUs, double seconds = 15);

    // Space: play/pause; Right/Left: next/previous event; +/-: faster/slower; Home/End: the
    // beginning/end of the run. Active while the focus is inside `scope`.
    // Returns the shortcuts, parented to `scope`.
    QList<QShortcut*> installShortcuts(QWidget* scope);

public slots:
    void play();
    void pause();
    void togglePlay();
    void stepForward();
    void stepBackward();
    void setTime(double us);
    void setSpeed(double factor);
    void faster();
    void slower();
    void toStart();
    void toEnd();

signals:
    void timeChanged(double us);
    void playingChanged(bool playing);
    void speedChanged(double factor);
    void activityAvailable(const shardlab::ActivitySnapshot& frame);

private:
    void tick();
    void moveTo(double us);

    std::shared_ptr<const ActivityIndex> m_index;
    QTimer m_timer;
    QElapsedTimer m_clock;
    std::function<qint64()> m_now;
    qint64 m_lastNs = 0;
    double m_timeUs = 0;
    double m_speed = 0.01;
    int m_frames = 0;
};

} // namespace shardlab::gui

Q_DECLARE_METATYPE(shardlab::ActivitySnapshot)
