#include "topology/linkitem.h"

#include "common/glossary.h"
#include "common/labels.h"
#include "style/theme.h"
#include "topology/topologyscene.h"

#include <QFontMetricsF>
#include <QGraphicsSceneContextMenuEvent>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace shardlab::gui {

namespace {
constexpr double kLabelPt = 9.5;

QString labelFor(const Link& l)
{
    const QString bw = qs(formatBandwidth(l.bandwidthGBps));
    switch (l.kind) {
    case LinkKind::NvLink: return LinkItem::tr("NV%1 %2").arg(l.count).arg(bw);
    case LinkKind::Pcie: return LinkItem::tr("PCIe %1").arg(bw);
    case LinkKind::CrossSocket: return LinkItem::tr("SYS %1").arg(bw);
    case LinkKind::Network: return LinkItem::tr("IB %1").arg(bw);
    }
    return bw;
}
} // namespace

LinkItem::LinkItem(TopologyScene* scene, int index, const Link& link, const LinkRoute& route)
    : m_scene(scene), m_index(index), m_kind(link.kind), m_width(theme::linkWidth(link.bandwidthGBps)), m_route(route),
      m_label(labelFor(link))
{
    if (!route.points.isEmpty()) {
        m_path.moveTo(route.points[0]);
        if (route.curved && route.points.size() == 3)
            m_path.quadTo(route.points[1], route.points[2]);
        else
            for (int i = 1; i < route.points.size(); ++i)
                m_path.lineTo(route.points[i]);
    }
    setZValue(link.kind == LinkKind::Network ? 0 : 1);
    setAcceptedMouseButtons(Qt::RightButton);
    setToolTip(tr("<b>%1 link</b> %2 - %3<br>%4 per direction%5, %6 per traversal<br><br>%7")
                   .arg(Labels::linkKind(link.kind), qs(link.a), qs(link.b), qs(formatBandwidth(link.bandwidthGBps)),
                        link.kind == LinkKind::NvLink ? tr(" over %n link(s)", nullptr, link.count) : QString(),
                        qs(formatMicros(link.latencyUs)), Glossary::link(link.kind)));
}

bool LinkItem::labelFits() const
{
    const QFontMetricsF fm(theme::diagramFont(kLabelPt));
    // a label on a vertical segment only needs room for its height
    return m_route.labelRoom
           >= (m_route.labelOnVertical ? fm.height() * 1.6 : fm.horizontalAdvance(m_label) * 0.6 + 12);
}

QRectF LinkItem::labelRect() const
{
    const QFontMetricsF fm(theme::diagramFont(kLabelPt));
    const QSizeF size(fm.horizontalAdvance(m_label) + 10, fm.height() + 4);
    return QRectF(m_route.labelPos - QPointF(size.width() / 2, size.height() / 2), size);
}

void LinkItem::setLabelVisible(bool visible)
{
    if (visible == m_labelVisible)
        return;
    prepareGeometryChange();
    m_labelVisible = visible;
}

void LinkItem::setTraffic(const LinkActivity& traffic, double maxBytes, double phase)
{
    m_hasTraffic = traffic.bytesInFlight > 0 || traffic.utilisation > 0;
    m_traffic = traffic;
    m_maxBytes = maxBytes;
    m_phase = phase;
    prepareGeometryChange();
    update();
}

void LinkItem::clearTraffic()
{
    if (!m_hasTraffic)
        return;
    m_hasTraffic = false;
    m_traffic = {};
    prepareGeometryChange();
    update();
}

double LinkItem::trafficWidth() const
{
    if (!m_hasTraffic)
        return 0;
    // width proportional to the bytes crossing the link, from 3 to 16 scene units
    const double share = m_maxBytes > 0 ? m_traffic.bytesInFlight / m_maxBytes : 0;
    return 3.0 + 13.0 * std::clamp(share, 0.0, 1.0);
}

QColor LinkItem::trafficColour() const { return theme::utilisationColour(m_traffic.utilisation); }

QRectF LinkItem::boundingRect() const
{
    const double pad = std::max(m_width, trafficWidth()) / 2 + 12;
    QRectF r = m_path.boundingRect().adjusted(-pad, -pad, pad, pad);
    if (m_labelVisible)
        r = r.united(labelRect());
    return r;
}

QPainterPath LinkItem::shape() const
{
    QPainterPathStroker s;
    s.setWidth(std::max(m_width, 8.0));
    return s.createStroke(m_path);
}

QPointF LinkItem::pointAt(double t) const { return m_path.pointAtPercent(std::clamp(t, 0.0, 1.0)); }

QPointF LinkItem::directionAt(double t) const
{
    const QPointF a = pointAt(t - 0.02), b = pointAt(t + 0.02);
    const double len = std::hypot(b.x() - a.x(), b.y() - a.y());
    return len > 0 ? (b - a) / len : QPointF(1, 0);
}

void LinkItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    p->setRenderHint(QPainter::Antialiasing);
    QPen pen(theme::linkColour(m_kind), m_width, theme::linkStyle(m_kind), Qt::FlatCap, Qt::RoundJoin);
    if (lod < 0.5 && !m_hasTraffic) {
        // zoomed out: a pen in screen pixels, so that dashes stay a few pixels long and cheap to draw
        pen.setCosmetic(true);
        pen.setWidthF(std::max(1.0, m_width * lod));
        if (pen.style() != Qt::SolidLine)
            pen.setDashPattern({4, 3});
    }
    if (m_hasTraffic)
        pen.setColor(pen.color().lighter(150));
    p->setPen(pen);
    p->setBrush(Qt::NoBrush);
    p->drawPath(m_path);

    if (m_hasTraffic) {
        // dashes that move along the link with the playback clock, in the direction of the flow
        QPen t(trafficColour(), trafficWidth(), Qt::CustomDashLine, Qt::FlatCap, Qt::RoundJoin);
        t.setDashPattern({2.0, 1.2});
        const double offset = std::fmod(m_phase, 3.2);
        t.setDashOffset(m_traffic.forward ? -offset : offset);
        p->setPen(t);
        p->drawPath(m_path);
        // an arrow at the middle, pointing the way the larger flow goes
        const QPointF c = pointAt(0.5);
        QPointF d = directionAt(0.5);
        if (!m_traffic.forward)
            d = -d;
        const QPointF n(-d.y(), d.x());
        const double s = 8 + trafficWidth();
        QPolygonF arrow({c + d * s, c - d * s * 0.6 + n * s * 0.7, c - d * s * 0.6 - n * s * 0.7});
        p->setPen(QPen(Qt::white, 1.5));
        p->setBrush(trafficColour().darker(120));
        p->drawPolygon(arrow);
    }

    if (m_labelVisible && lod >= 0.5 && theme::diagramTextReadable(kLabelPt, lod)) {
        const QRectF r = labelRect();
        p->setPen(QPen(theme::linkColour(m_kind).lighter(140), 1));
        p->setBrush(QColor(255, 255, 255, 235));
        p->drawRoundedRect(r, 5, 5);
        p->setFont(theme::diagramFont(kLabelPt, true));
        p->setPen(theme::linkColour(m_kind).darker(115));
        p->drawText(r, Qt::AlignCenter, m_label);
    }
}

void LinkItem::contextMenuEvent(QGraphicsSceneContextMenuEvent* event)
{
    m_scene->showLinkMenu(m_index, event->screenPos());
    event->accept();
}

} // namespace shardlab::gui
