#include "shell/windowfit.h"

#include <algorithm>

namespace shardlab::gui::windowfit {

QRect firstGeometry(QSize preferred, const QRect& available, const QMargins& frame)
{
    const QRect inside = available.marginsRemoved(frame);
    const QSize size(std::min(preferred.width(), inside.width()), std::min(preferred.height(), inside.height()));
    QRect r(QPoint(0, 0), size);
    r.moveCenter(inside.center());
    return r;
}

} // namespace shardlab::gui::windowfit
