// A link in the diagram: colour and dash by class (NVLink, PCIe, cross-socket, network), width by
// bandwidth, and a label such as "NV18 450 GB/s" or "PCIe 16 GB/s". During playback it carries the
// traffic of the current step: a moving dashed overlay whose width follows the bytes in flight and
// whose colour follows the link's utilisation, with an arrow for the direction.
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/sim/activity.h"
#include "topology/topologylayout.h"

#include <QCoreApplication>
#include <QGraphicsItem>
#include <QPainterPath>

namespace shardlab::gui {

class TopologyScene;

class LinkItem : public QGraphicsItem {
    Q_DECLARE_TR_FUNCTIONS(LinkItem)
public:
    enum { Type = UserType + 42 };
    LinkItem(TopologyScene* scene, int index, const Link& link, const LinkRoute& route);
    int type() const override { return Type; }
    int index() const { return m_index; }

    QString label() const { return m_label; }
    QRectF labelRect() const; // in scene coordinates
    bool labelVisible() const { return m_labelVisible; }
    void setLabelVisible(bool visible);
    // The diagram's text size changed: the label's box is measured again.
    void fontChanged() { prepareGeometryChange(); }
    bool labelFits() const; // the route is long enough to carry its label

    // `maxBytes`: the largest bytesInFlight of the frame, so widths compare across links.
    void setTraffic(const LinkActivity& traffic, double maxBytes, double phase);
    void clearTraffic();
    bool hasTraffic() const { return m_hasTraffic; }
    const LinkActivity& traffic() const { return m_traffic; }
    double trafficWidth() const;
    QColor trafficColour() const;

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;

private:
    QPointF pointAt(double t) const; // along the path, 0..1
    QPointF directionAt(double t) const;

    TopologyScene* m_scene;
    int m_index;
    LinkKind m_kind;
    double m_width;
    QPainterPath m_path;
    LinkRoute m_route;
    QString m_label;
    bool m_labelVisible = true;
    bool m_hasTraffic = false;
    LinkActivity m_traffic;
    double m_maxBytes = 0;
    double m_phase = 0;
};

} // namespace shardlab::gui
