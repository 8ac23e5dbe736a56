#include "topology/shardtileitem.h"

#include "document/shardref.h"
#include "style/theme.h"
#include "topology/itemdrag.h"
#include "topology/topologyscene.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QMimeData>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWidget>

#include <algorithm>

namespace shardlab::gui {

ShardTileItem::ShardTileItem(GpuCardItem* card, const TileInfo& info) : QGraphicsItem(card), m_card(card), m_info(info)
{
    setFlag(ItemIsSelectable);
    setAcceptedMouseButtons(Qt::LeftButton | Qt::RightButton);
    setCursor(Qt::OpenHandCursor);
    setToolTip(info.toolTip);
}

QFont ShardTileItem::fittedTileFont(const QString& label, const QSizeF& box)
{
    // the tile's label at the diagram's text size, smaller where it would overflow the tile
    QFont f = theme::diagramFont(theme::kDiagramSmallestPt, true);
    const QFontMetricsF fm(f);
    const double width = fm.horizontalAdvance(label);
    const double fit = std::min(width > 0 ? (box.width() - 3) / width : 1.0, (box.height() - 1) / fm.height());
    if (fit < 1)
        f.setPointSizeF(std::max(1.0, f.pointSizeF() * fit));
    return f;
}

QRectF ShardTileItem::boundingRect() const { return QRectF(0, 0, kWidth, kHeight); }

void ShardTileItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    p->setRenderHint(QPainter::Antialiasing);
    const QRectF r = boundingRect().adjusted(0.5, 0.5, -0.5, -0.5);
    p->setPen(isSelected() ? QPen(theme::ink(), 2.5) : QPen(m_info.colour.darker(140), 1));
    p->setBrush(m_info.colour);
    p->drawRoundedRect(r, 4, 4);
    if (lod < 0.45 || !theme::diagramTextReadable(theme::kDiagramSmallestPt, lod))
        return;
    p->setPen(Qt::white);
    p->setFont(fittedTileFont(m_info.label, r.size()));
    p->drawText(r, Qt::AlignCenter, m_info.label);
}

void ShardTileItem::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    QGraphicsItem::mousePressEvent(event); // selection (Ctrl toggles)
    event->accept();
}

void ShardTileItem::mouseMoveEvent(QGraphicsSceneMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint moved = event->screenPos() - event->buttonDownScreenPos(Qt::LeftButton);
    if (moved.manhattanLength() < QApplication::startDragDistance())
        return;
    auto* scene = static_cast<TopologyScene*>(this->scene());
    QList<ShardRef> refs = scene->selectedShards();
    const ShardRef mine{m_info.item, m_info.shard, rank()};
    if (!refs.contains(mine))
        refs = {mine};
    dragWithPicture(event->widget(), shardMimeData(refs),
                    itemPixmap(*this, QRectF(0, 0, kWidth + 2, kHeight + 2), onScreenScale(event->widget())),
                    Qt::MoveAction | Qt::CopyAction, Qt::MoveAction);
}

void ShardTileItem::contextMenuEvent(QGraphicsSceneContextMenuEvent* event)
{
    auto* scene = static_cast<TopologyScene*>(this->scene());
    QList<ShardRef> refs = scene->selectedShards();
    const ShardRef mine{m_info.item, m_info.shard, rank()};
    if (!refs.contains(mine))
        refs = {mine};
    scene->showShardMenu(refs, event->screenPos());
    event->accept();
}

} // namespace shardlab::gui
