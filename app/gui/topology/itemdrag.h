// A drag out of the diagram with the dragged item's own picture under the pointer: a shard tile
// (ShardTileItem) or a plan's GPU card (GpuCardItem).
#pragma once

#include <QPixmap>
#include <QRectF>
#include <Qt>

class QGraphicsItem;
class QMimeData;
class QWidget;

namespace shardlab::gui {

// `item` painted into a transparent pixmap: its `rect` (item coordinates) at `scale`.
QPixmap itemPixmap(QGraphicsItem& item, const QRectF& rect, double scale = 1.0);

// The scale at which the view whose viewport is `viewport` shows the scene (its transform's
// horizontal scale), so that the dragged picture is as large as the item on screen; 1 when
// `viewport` is not a view's. Bounded to 0.2..2 so that the picture stays visible and not huge.
double onScreenScale(const QWidget* viewport);

// Runs the drag of `mime` (which the drag takes over) from `source` with `picture` centred on the
// pointer; returns the action the drop target took.
Qt::DropAction dragWithPicture(QWidget* source, QMimeData* mime, const QPixmap& picture, Qt::DropActions actions,
                               Qt::DropAction defaultAction);

} // namespace shardlab::gui
