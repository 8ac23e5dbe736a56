// A shard owned by a GPU, drawn as a small tile on its card. Drag it to another GPU to move it,
// Ctrl-drag to replicate it; Ctrl-click or rubber-band to select several and drag them together.
#pragma once

#include "topology/gpucarditem.h"

#include <QFont>
#include <QGraphicsItem>

namespace shardlab::gui {

class ShardTileItem : public QGraphicsItem {
public:
    static constexpr double kWidth = 32, kHeight = 20, kGap = 4;
    enum { Type = UserType + 41 };

    ShardTileItem(GpuCardItem* card, const TileInfo& info);
    int type() const override { return Type; }
    const TileInfo& info() const { return m_info; }
    int rank() const { return m_card->rank(); }

    // The label's font: the diagram's smallest text, shrunk where the label would overflow `box`.
    static QFont fittedTileFont(const QString& label, const QSizeF& box);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;

private:
    GpuCardItem* m_card;
    TileInfo m_info;
};

} // namespace shardlab::gui
