#include "run/playbackcontroller.h"

#include <QShortcut>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <limits>

namespace shardlab::gui {

PlaybackController::PlaybackController(QObject* parent) : QObject(parent)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(16); // 60 frames per second
    connect(&m_timer, &QTimer::timeout, this, &PlaybackController::tick);
}

std::vector<double> PlaybackController::speedSteps()
{
    std::vector<double> s;
    for (int exponent = -4; exponent <= 1; ++exponent)
        for (double m : {1.0, 2.0, 5.0})
            if (m * std::pow(10.0, exponent) <= 10)
                s.push_back(m * std::pow(10.0, exponent));
    return s;
}

double PlaybackController::speedToPlayIn(double runUs, double seconds)
{
    // speed = run length / wanted real time, snapped down to the ladder
    const double want = runUs / 1e6 / seconds;
    const std::vector<double> steps = speedSteps();
    double pick = steps.front();
    for (double s : steps)
        if (s <= want * (1 + 1e-9))
            pick = s;
    return pick;
}

void PlaybackController::setIndex(std::shared_ptr<const ActivityIndex> index)
{
    pause();
    m_index = std::move(index);
    if (m_index)
        setSpeed(speedToPlayIn(m_index->endUs()));
    moveTo(0);
}

ActivitySnapshot PlaybackController::currentFrame() const
{
    return m_index ? m_index->at(m_timeUs) : ActivitySnapshot{};
}

void PlaybackController::moveTo(double us)
{
    m_timeUs = std::clamp(us, 0.0, endTime());
    emit timeChanged(m_timeUs);
    if (m_index) {
        ++m_frames;
        emit activityAvailable(currentFrame());
    }
}

void PlaybackController::play()
{
    if (!m_index || isPlaying())
        return;
    if (m_timeUs >= endTime())
        moveTo(0); // from the top again
    m_clock.start();
    m_lastNs = m_now ? m_now() : 0;
    m_timer.start();
    emit playingChanged(true);
}

void PlaybackController::pause()
{
    if (!isPlaying())
        return;
    m_timer.stop();
    emit playingChanged(false);
}

void PlaybackController::togglePlay() { isPlaying() ? pause() : play(); }

void PlaybackController::tick()
{
    // advance by the real time that passed, not by the timer's nominal interval
    const qint64 now = m_now ? m_now() : m_clock.nsecsElapsed();
    const double realUs = static_cast<double>(now - m_lastNs) / 1e3;
    m_lastNs = now;
    const double next = m_timeUs + realUs * m_speed;
    if (next >= endTime()) {
        moveTo(endTime());
        pause();
        return;
    }
    moveTo(next);
}

void PlaybackController::stepForward()
{
    if (!m_index)
        return;
    pause();
    moveTo(m_index->nextEvent(m_timeUs));
}

void PlaybackController::stepBackward()
{
    if (!m_index)
        return;
    pause();
    moveTo(m_index->previousEvent(m_timeUs));
}

void PlaybackController::setTime(double us) { moveTo(us); }

void PlaybackController::setSpeed(double factor)
{
    // the nearest step of the ladder (on a log scale), so that the speed box always shows it
    double best = m_speed;
    double distance = std::numeric_limits<double>::infinity();
    for (double s : speedSteps()) {
        const double d = std::fabs(std::log(s) - std::log(std::max(factor, 1e-12)));
        if (d < distance) {
            distance = d;
            best = s;
        }
    }
    if (best == m_speed)
        return;
    m_speed = best;
    emit speedChanged(m_speed);
}

void PlaybackController::faster()
{
    for (double s : speedSteps())
        if (s > m_speed * (1 + 1e-9)) {
            setSpeed(s);
            return;
        }
}

void PlaybackController::slower()
{
    const std::vector<double> steps = speedSteps();
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
        if (*it < m_speed * (1 - 1e-9)) {
            setSpeed(*it);
            return;
        }
}

QList<QShortcut*> PlaybackController::installShortcuts(QWidget* scope)
{
    QList<QShortcut*> made;
    auto bind = [&](const QKeySequence& key, void (PlaybackController::*slot)()) {
        auto* s = new QShortcut(key, scope);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, slot);
        made << s;
    };
    bind(QKeySequence(Qt::Key_Space), &PlaybackController::togglePlay);
    bind(QKeySequence(Qt::Key_Right), &PlaybackController::stepForward);
    bind(QKeySequence(Qt::Key_Left), &PlaybackController::stepBackward);
    bind(QKeySequence(Qt::Key_Plus), &PlaybackController::faster);
    bind(QKeySequence(Qt::Key_Equal), &PlaybackController::faster);
    bind(QKeySequence(Qt::Key_Minus), &PlaybackController::slower);
    bind(QKeySequence(Qt::Key_Home), &PlaybackController::toStart);
    bind(QKeySequence(Qt::Key_End), &PlaybackController::toEnd);
    return made;
}

void PlaybackController::toStart()
{
    pause();
    setTime(0);
}

void PlaybackController::toEnd()
{
    pause();
    setTime(endTime());
}

} // namespace shardlab::gui
