#include "topology/topologyview.h"

#include "topology/activitylegend.h"
#include "topology/topologyscene.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace shardlab::gui {

namespace {
constexpr double kMinZoom = 0.05, kMaxZoom = 4.0;
// Fitting never enlarges beyond this: a four-GPU machine should not fill a projector with 40 pt text.
constexpr double kMaxFitZoom = 1.25;
// Where the playback legend sits in the viewport, whatever the scroll position.
const QPoint kLegendAt(8, 8);
} // namespace

TopologyView::TopologyView(TopologyScene* scene, QWidget* parent) : QGraphicsView(scene, parent)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setDragMode(QGraphicsView::RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(Qt::white);
    setAcceptDrops(true);
    setToolTip(QString());
    m_legend = new ActivityLegend(viewport());
    m_legend->move(kLegendAt);
    m_legend->setVisible(!scene->activity().empty());
    m_legend->installEventFilter(this); // its size and visibility decide the band a fit leaves free
    connect(scene, &TopologyScene::activityShown, m_legend, &QWidget::setVisible);
    connect(scene, &TopologyScene::layoutRebuilt, this, [this] {
        if (m_autoFit)
            fitToWindow();
        else
            setSceneRect(QRectF()); // the view's area follows the new layout
    });
}

bool TopologyView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_legend && m_autoFit
        && (event->type() == QEvent::Show || event->type() == QEvent::Hide || event->type() == QEvent::Resize))
        fitToWindow();
    return QGraphicsView::eventFilter(watched, event);
}

double TopologyView::zoom() const { return transform().m11(); }

void TopologyView::zoomBy(double factor)
{
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    scale(target / zoom(), target / zoom());
    m_autoFit = false;
    emit zoomChanged(zoom());
}

void TopologyView::zoomIn() { zoomBy(1.25); }

void TopologyView::zoomOut() { zoomBy(0.8); }

void TopologyView::fitToWindow()
{
    const QRectF r = scene()->sceneRect();
    const QSize room = viewport()->size();
    if (r.isEmpty() || room.width() < 10)
        return;
    // The playback legend sits over the top-left corner; while it shows, the diagram fits below
    // it or beside it (whichever leaves it larger) instead of being drawn under it.
    const bool legend = m_legend->isVisible();
    const double below = legend ? kLegendAt.y() + m_legend->height() + 4 : 0;
    const double beside = legend ? kLegendAt.x() + m_legend->width() + 4 : 0;
    constexpr double kMargin = 3;
    auto fit = [&](double top, double left) {
        const double width = std::max(20.0, room.width() - 2 * kMargin - left);
        const double height = std::max(20.0, room.height() - 2 * kMargin - top);
        return std::clamp(std::min(width / r.width(), height / r.height()), kMinZoom, kMaxFitZoom);
    };
    const double sBelow = fit(below, 0), sBeside = fit(0, beside);
    const double s = std::max(sBelow, sBeside);
    setSceneRect(sBelow >= sBeside ? r.adjusted(0, -below / s, 0, 0) : r.adjusted(-beside / s, 0, 0, 0));
    setTransform(QTransform::fromScale(s, s));
    centerOn(sceneRect().center());
    m_autoFit = true;
    emit zoomChanged(zoom());
}

void TopologyView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy); // scrolls the viewport's child widgets too
    m_legend->move(kLegendAt);
}

void TopologyView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(1.15, steps));
    event->accept();
}

void TopologyView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        fitToWindow();
}

void TopologyView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton) {
        // pan: pretend a left-button hand drag
        m_panning = true;
        setDragMode(QGraphicsView::ScrollHandDrag);
        QMouseEvent fake(event->type(), event->position(), event->globalPosition(), Qt::LeftButton, Qt::LeftButton,
                         event->modifiers());
        QGraphicsView::mousePressEvent(&fake);
        m_autoFit = false;
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void TopologyView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_panning && event->button() == Qt::MiddleButton) {
        QMouseEvent fake(event->type(), event->position(), event->globalPosition(), Qt::LeftButton, Qt::NoButton,
                         event->modifiers());
        QGraphicsView::mouseReleaseEvent(&fake);
        setDragMode(QGraphicsView::RubberBandDrag);
        m_panning = false;
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void TopologyView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        setDragMode(QGraphicsView::ScrollHandDrag);
        m_autoFit = false;
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void TopologyView::keyReleaseEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        setDragMode(QGraphicsView::RubberBandDrag);
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

} // namespace shardlab::gui
