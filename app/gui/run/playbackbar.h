// The playback controls under the timeline: step back, play/pause, step forward, speed, a
// scrubber over the whole run and the current time.
#pragma once

#include <QColor>
#include <QIcon>
#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace shardlab::gui {

class PlaybackController;

class PlaybackBar : public QWidget {
    Q_OBJECT
public:
    explicit PlaybackBar(PlaybackController* playback, QWidget* parent = nullptr);

    // Speed entries read "0.01x (1 s shows 10.0 ms)".
    static QString speedLabel(double factor);
    QSlider* scrubber() const { return m_scrubber; }
    QComboBox* speedBox() const { return m_speed; }
    QToolButton* playButton() const { return m_play; }
    // Re-reads the run's length and position (after a new run).
    void refresh();
    // Draws the buttons' icons in `colour` (presenter mode's dark theme: the style's icons are
    // dark); an invalid colour goes back to the style's own.
    void setIconColour(const QColor& colour);
    // `icon` as a silhouette in `colour` (its alpha kept), at the sizes it has.
    static QIcon tinted(const QIcon& icon, const QColor& colour);

private:
    QIcon icon(int standardPixmap) const;
    void showTime(double us);
    void showPlaying(bool playing);
    void showSpeed(double factor);

    static constexpr int kScrubSteps = 10000;
    PlaybackController* m_playback;
    QToolButton* m_back = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_forward = nullptr;
    QComboBox* m_speed = nullptr;
    QSlider* m_scrubber = nullptr;
    QLabel* m_time = nullptr;
    QColor m_iconColour;
};

} // namespace shardlab::gui
