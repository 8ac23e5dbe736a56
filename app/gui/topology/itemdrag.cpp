#include "topology/itemdrag.h"

#include <QDrag>
#include <QGraphicsItem>
#include <QMimeData>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace shardlab::gui {

QPixmap itemPixmap(QGraphicsItem& item, const QRectF& rect, double scale)
{
    QPixmap pixmap(std::max(1, static_cast<int>(std::ceil(rect.width() * scale))),
                   std::max(1, static_cast<int>(std::ceil(rect.height() * scale))));
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.scale(scale, scale);
    painter.translate(-rect.topLeft());
    QStyleOptionGraphicsItem option;
    item.paint(&painter, &option, nullptr);
    return pixmap;
}

Qt::DropAction dragWithPicture(QWidget* source, QMimeData* mime, const QPixmap& picture, Qt::DropActions actions,
                               Qt::DropAction defaultAction)
{
    auto* drag = new QDrag(source);
    drag->setMimeData(mime);
    drag->setPixmap(picture);
    drag->setHotSpot(QPoint(picture.width() / 2, picture.height() / 2));
    return drag->exec(actions, defaultAction);
}

} // namespace shardlab::gui
