#include "shell/dockfit.h"

#include <QDockWidget>
#include <QFontMetrics>
#include <QMainWindow>

#include <algorithm>

namespace shardlab::gui::dockfit {

int readableWidth(const QDockWidget* dock)
{
    // about forty characters a line, and never less than the plain font's 300 pixels
    return std::max(300, dock->fontMetrics().averageCharWidth() * 40);
}

bool fitsBeside(const QMainWindow* window, const QDockWidget* dock, int width)
{
    if (dock->isHidden() || dock->isFloating() || !window->centralWidget())
        return true;
    const Qt::DockWidgetArea area = window->dockWidgetArea(const_cast<QDockWidget*>(dock));
    if (area != Qt::LeftDockWidgetArea && area != Qt::RightDockWidgetArea)
        return true;
    return window->centralWidget()->minimumSizeHint().width() + readableWidth(dock) <= width;
}

bool fitBesideOrBelow(QMainWindow* window, QDockWidget* dock, int width, int belowPercent)
{
    if (fitsBeside(window, dock, width))
        return false;
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    window->resizeDocks({dock}, {std::max(dock->minimumSizeHint().height(), window->height() * belowPercent / 100)},
                        Qt::Vertical);
    return true;
}

} // namespace shardlab::gui::dockfit
