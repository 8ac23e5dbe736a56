// The main window's size on a screen: the first start fits the screen's available area (a
// 1366x768 laptop got a 1500x940 window, the lesson and the balance panel off the screen), and
// afterwards the window comes back as the user left it (QSettings "window/geometry").
#pragma once

#include <QMargins>
#include <QRect>
#include <QSize>

namespace shardlab::gui::windowfit {

// What the window would like: the pages and the Lessons dock side by side.
inline constexpr QSize kPreferredSize{1500, 940};
// The window manager's frame before the window is shown and has one: a title bar and borders.
inline constexpr QMargins kAssumedFrame{4, 32, 4, 4};

// The geometry (without the frame) of a first window of `preferred` size on a screen whose
// available area is `available`: no larger than the area less the frame `frame`, centred in it.
QRect firstGeometry(QSize preferred, const QRect& available, const QMargins& frame);

} // namespace shardlab::gui::windowfit
