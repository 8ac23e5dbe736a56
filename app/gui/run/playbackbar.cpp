#include "run/playbackbar.h"

#include "run/playbackcontroller.h"
#include "timeline/timescale.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <cmath>

namespace shardlab::gui {

namespace {
// The position slider's least width: room to aim at a tenth of the run.
constexpr int kMinimumScrubberWidth = 80;
} // namespace

PlaybackBar::PlaybackBar(PlaybackController* playback, QWidget* parent) : QWidget(parent), m_playback(playback)
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    auto button = [&](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setIcon(this->icon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        b->setIconSize(QSize(24, 24));
        row->addWidget(b);
        return b;
    };
    m_back = button(QStyle::SP_MediaSkipBackward, tr("Previous event (Left): the last span boundary or ring step"));
    m_play = button(QStyle::SP_MediaPlay, tr("Play / pause (Space)"));
    m_forward = button(QStyle::SP_MediaSkipForward, tr("Next event (Right): the next span boundary or ring step"));

    auto* speedCaption = new QLabel(tr("Speed"), this);
    row->addWidget(speedCaption);
    m_speed = new QComboBox(this);
    m_speed->setToolTip(tr("Playback speed as a share of real time (+ / - change it). At 0.0001x one second "
                           "of playback shows 100 \u00b5s of the run: slow enough to follow the steps of a ring."));
    for (double s : PlaybackController::speedSteps())
        m_speed->addItem(speedLabel(s), s);
    // The box may be narrower than its longest entry (the factor comes first and stays; the list
    // shows every entry whole), so that the position slider keeps a usable width beside it.
    m_speed->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_speed->setMinimumContentsLength(7);
    row->addWidget(m_speed);

    m_scrubber = new QSlider(Qt::Horizontal, this);
    m_scrubber->setRange(0, kScrubSteps);
    m_scrubber->setToolTip(tr("Position in the run: drag to scrub"));
    m_scrubber->setFocusPolicy(Qt::NoFocus); // arrows step through events, not slider ticks
    // never collapsed to its handle (it looked like an unlabelled check box with the Lessons dock open)
    m_scrubber->setMinimumWidth(kMinimumScrubberWidth);
    row->addWidget(m_scrubber, 1);
    m_time = new QLabel(this);
    m_time->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("000.00 ms / 000.00 ms")));
    m_time->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    row->addWidget(m_time);

    connect(m_back, &QToolButton::clicked, playback, &PlaybackController::stepBackward);
    connect(m_play, &QToolButton::clicked, playback, &PlaybackController::togglePlay);
    connect(m_forward, &QToolButton::clicked, playback, &PlaybackController::stepForward);
    connect(m_speed, &QComboBox::activated, this,
            [this](int i) { m_playback->setSpeed(m_speed->itemData(i).toDouble()); });
    connect(m_scrubber, &QSlider::valueChanged, this,
            [this](int v) { m_playback->setTime(m_playback->endTime() * v / kScrubSteps); });
    connect(playback, &PlaybackController::timeChanged, this, &PlaybackBar::showTime);
    connect(playback, &PlaybackController::playingChanged, this, &PlaybackBar::showPlaying);
    connect(playback, &PlaybackController::speedChanged, this, &PlaybackBar::showSpeed);
    refresh();
}

QString PlaybackBar::speedLabel(double factor)
{
    const QString x = QString::number(factor, 'g', 3);
    return tr("%1x (1 s shows %2)").arg(x, QString::fromStdString(formatDuration(1e6 * factor)));
}

void PlaybackBar::refresh()
{
    const bool has = m_playback->index() != nullptr;
    for (QWidget* w : {static_cast<QWidget*>(m_back), static_cast<QWidget*>(m_play), static_cast<QWidget*>(m_forward),
                       static_cast<QWidget*>(m_speed), static_cast<QWidget*>(m_scrubber)})
        w->setEnabled(has);
    showTime(m_playback->time());
    showPlaying(m_playback->isPlaying());
    showSpeed(m_playback->speed());
}

void PlaybackBar::showTime(double us)
{
    const double end = m_playback->endTime();
    {
        const QSignalBlocker block(m_scrubber);
        m_scrubber->setValue(end > 0 ? static_cast<int>(std::lround(us / end * kScrubSteps)) : 0);
    }
    const TimeUnit unit = unitForSpan(end);
    const double resolution = unitDivisor(unit) / 100; // two decimals, as every time the app shows (style/numbers.h)
    m_time->setText(tr("%1 / %2").arg(QString::fromStdString(formatTime(us, unit, resolution)),
                                      QString::fromStdString(formatTime(end, unit, resolution))));
}

void PlaybackBar::showPlaying(bool playing)
{
    m_play->setIcon(icon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

QIcon PlaybackBar::icon(int standardPixmap) const
{
    const QIcon own = style()->standardIcon(static_cast<QStyle::StandardPixmap>(standardPixmap));
    return m_iconColour.isValid() ? tinted(own, m_iconColour) : own;
}

void PlaybackBar::setIconColour(const QColor& colour)
{
    m_iconColour = colour;
    m_back->setIcon(icon(QStyle::SP_MediaSkipBackward));
    m_forward->setIcon(icon(QStyle::SP_MediaSkipForward));
    showPlaying(m_playback->isPlaying());
}

QIcon PlaybackBar::tinted(const QIcon& icon, const QColor& colour)
{
    QIcon out;
    QList<QSize> sizes = icon.availableSizes();
    if (sizes.isEmpty())
        sizes = {QSize(16, 16), QSize(24, 24), QSize(32, 32)};
    for (const QSize& size : sizes)
        for (QIcon::Mode mode : {QIcon::Normal, QIcon::Disabled}) {
            QImage image = icon.pixmap(size, mode).toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied);
            QPainter p(&image);
            p.setCompositionMode(QPainter::CompositionMode_SourceIn);
            QColor c = colour;
            if (mode == QIcon::Disabled)
                c.setAlphaF(0.45f);
            p.fillRect(image.rect(), c);
            p.end();
            out.addPixmap(QPixmap::fromImage(image), mode);
        }
    return out;
}

void PlaybackBar::showSpeed(double factor)
{
    const int i = m_speed->findData(factor);
    if (i >= 0)
        m_speed->setCurrentIndex(i);
}

} // namespace shardlab::gui
