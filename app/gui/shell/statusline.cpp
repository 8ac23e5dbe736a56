#include "shell/statusline.h"

#include <QFontMetrics>
#include <QLabel>
#include <QStatusBar>

namespace shardlab::gui {

namespace {
// QStatusBar draws its message from 6 px in; a gap before the permanent widget
constexpr int kStatusMessageLeft = 6;
constexpr int kStatusGap = 12;
} // namespace

QString fittedStatusText(const QString& text, const QStatusBar* bar, const QLabel* permanent)
{
    QString line = text.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (line.isEmpty())
        line = text.simplified();
    if (!bar->isVisible()) // not laid out: nothing to fit (a window not shown yet)
        return line;
    const int right = permanent && permanent->isVisible() ? permanent->x() : bar->width();
    const int room = right - kStatusMessageLeft - kStatusGap;
    if (room <= 0)
        return line;
    return bar->fontMetrics().elidedText(line, Qt::ElideRight, room);
}

void showStatusText(QStatusBar* bar, const QLabel* permanent, const QString& text, int timeoutMs)
{
    const QString shown = fittedStatusText(text, bar, permanent);
    bar->setToolTip(shown == text ? QString() : text);
    bar->showMessage(shown, timeoutMs);
}

} // namespace shardlab::gui
