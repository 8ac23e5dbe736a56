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

bool fitBesideOrBelow(QMainWindow* window, QDockWidget* dock, int width)
{
    if (dock->isHidden() || dock->isFloating() || !window->centralWidget())
        return false;
    const Qt::DockWidgetArea area = window->dockWidgetArea(dock);
    if (area != Qt::LeftDockWidgetArea && area != Qt::RightDockWidgetArea)
        return false;
    const int pages = window->centralWidget()->minimumSizeHint().width();
    if (pages + readableWidth(dock) <= width)
        return false;
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    window->resizeDocks({dock}, {window->height() * 2 / 5}, Qt::Vertical);
    return true;
}

} // namespace shardlab::gui::dockfit
