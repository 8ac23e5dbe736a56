// The parts of a machine that are not GPUs: CPU sockets, PCIe switches, NICs (boxes), NVSwitch
// fabrics and network switches (bars); and the frame that groups one node's parts.
#pragma once

#include "shardlab/model/topology.h"
#include "topology/topologylayout.h"

#include <QCoreApplication>
#include <QGraphicsItem>

namespace shardlab::gui {

class SwitchItem : public QGraphicsItem {
    Q_DECLARE_TR_FUNCTIONS(SwitchItem)
public:
    enum { Type = UserType + 43 };
    SwitchItem(const SwitchNode& node, const VertexPlace& place, const QString& pairClass);
    int type() const override { return Type; }
    QString title() const { return m_title; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    SwitchKind m_kind;
    VertexShape m_shape;
    QRectF m_rect;
    QString m_title;
    QString m_sub;
};

class NodeFrameItem : public QGraphicsItem {
public:
    NodeFrameItem(const QRectF& rect, const QString& title, const QString& shortTitle);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QRectF m_rect;
    QString m_title;
    QString m_shortTitle;
};

} // namespace shardlab::gui
