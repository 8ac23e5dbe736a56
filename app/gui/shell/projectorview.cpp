#include "shell/projectorview.h"

#include "lessons/lesson_browser.h"
#include "run/playbackcontroller.h"
#include "run/runpage.h"
#include "style/plottheme.h"
#include "timeline/timelineview.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"

#include <QCloseEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QScreen>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace shardlab::gui {

ProjectorView::ProjectorView(TopologyScene* scene, RunPage* run, LessonBrowser* lessons, QWidget* parent,
                             double appFontScale, bool dark)
    : QWidget(parent, Qt::Window), m_run(run), m_lessons(lessons)
{
    setObjectName(QStringLiteral("projectorView"));
    setWindowTitle(tr("ShardLab: projector view"));
    setAttribute(Qt::WA_DeleteOnClose);
    // every child is made after the font is set, so that each measures itself with it (the
    // timeline's axes take their fonts from the view's when it is made)
    QFont large = font();
    large.setPointSizeF(large.pointSizeF() * kFontScale / std::max(1.0, appFontScale));
    setFont(large);

    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("projectorCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    QFont captionFont = large;
    captionFont.setPointSizeF(large.pointSizeF() * 1.2);
    captionFont.setBold(true);
    m_caption->setFont(captionFont);
    m_caption->setContentsMargins(16, 8, 16, 8);

    m_diagram = new TopologyView(scene, this);
    m_diagram->setInteractive(false);
    m_diagram->setBackgroundBrush(dark ? QBrush(QColor(0x0A, 0x0A, 0x0A)) : QBrush(Qt::white));
    m_timeline = new TimelineView(this);
    if (dark)
        (void)plottheme::apply(m_timeline->plot(), true, 1.0); // goes with this window: nothing to undo
    m_split = new QSplitter(Qt::Horizontal, this);
    m_split->addWidget(m_diagram);
    m_split->addWidget(m_timeline);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(m_caption);
    layout->addWidget(m_split, 1);
    auto* hint = new QLabel(tr("Space plays, arrows step, Esc closes"), this);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() / kFontScale);
    hint->setFont(small);
    hint->setAlignment(Qt::AlignRight);
    layout->addWidget(hint);

    PlaybackController* playback = run->playback();
    playback->installShortcuts(this);
    connect(playback, &PlaybackController::timeChanged, m_timeline, &TimelineView::setCursorTime);
    connect(run, &RunPage::outcomeAvailable, this, &ProjectorView::showOutcome);
    if (m_lessons)
        connect(m_lessons, &LessonBrowser::stepShown, this, &ProjectorView::refreshCaption);
    showOutcome(run->lastOutcome());
    if (playback->index())
        m_timeline->setCursorTime(playback->time());
}

QString ProjectorView::caption() const { return m_caption->text(); }

void ProjectorView::refreshCaption()
{
    // the lesson's step where the lessons are open beside the window; else the scenario and
    // what its run says
    QString text = m_lessons && m_lessons->isVisible() ? m_lessons->stepCaption() : QString();
    if (text.isEmpty()) {
        text = QString::fromStdString(m_run->scenario().name);
        if (m_outcome && !m_outcome->summary.sentence.empty())
            text = tr("%1: %2").arg(text, QString::fromStdString(m_outcome->summary.sentence));
    }
    m_caption->setText(text);
}

void ProjectorView::showOutcome(RunOutcomePtr outcome)
{
    m_outcome = std::move(outcome);
    if (m_outcome && m_outcome->timeline) {
        m_timeline->setData(m_outcome->timeline);
        m_timeline->setStraggler(m_outcome->summary.straggler);
    } else {
        m_timeline->setData(nullptr);
    }
    refreshCaption();
}

void ProjectorView::showOn(QWidget* screenOf)
{
    // as presenter mode does: cover the screen first (a bare X server grants no full screen),
    // then ask for full screen
    if (QScreen* screen = screenOf ? screenOf->screen() : nullptr)
        setGeometry(screen->geometry());
    showFullScreen();
    raise();
    activateWindow();
    QTimer::singleShot(0, this, [this] {
        // two fifths for the diagram whatever the timeline's labels ask for (their lanes shrink)
        const int width = m_split->width();
        m_split->setSizes({width * 2 / 5, width - width * 2 / 5});
        m_diagram->fitToWindow();
    });
}

void ProjectorView::keyPressEvent(QKeyEvent* event)
{
    // (the main window's Shift+F11 belongs to its own window: here it closes too)
    if (event->key() == Qt::Key_Escape || (event->key() == Qt::Key_F11 && event->modifiers() == Qt::ShiftModifier)) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

void ProjectorView::closeEvent(QCloseEvent* event)
{
    Q_EMIT closed();
    QWidget::closeEvent(event);
}

} // namespace shardlab::gui
