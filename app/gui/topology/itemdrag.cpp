#include "topology/itemdrag.h"

#include <QDrag>
#include <QGraphicsItem>
#include <QGraphicsView>
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

double onScreenScale(const QWidget* viewport)
{
    const auto* view = viewport ? qobject_cast<const QGraphicsView*>(viewport->parentWidget()) : nullptr;
    if (!view)
        return 1.0;
    return std::clamp(view->transform().m11(), 0.2, 2.0);
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
