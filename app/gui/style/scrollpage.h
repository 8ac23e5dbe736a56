// A page that scrolls instead of forcing its minimum size on the window: a tall panel (a table,
// two plots and their notes) would otherwise make the whole window taller than a 1366x768 screen,
// more so in Chinese, whose fonts are taller (issue 13). The content keeps its own minimum width
// and height inside the scroll area; the window can be smaller.
#pragma once

#include <QFrame>
#include <QScrollArea>

namespace shardlab::gui {

inline QScrollArea* scrollPage(QWidget* content, QWidget* parent = nullptr)
{
    auto* scroll = new QScrollArea(parent);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

} // namespace shardlab::gui
