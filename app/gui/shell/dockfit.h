// Where the Lessons dock goes on a narrow window: beside the pages while the pages at their
// minimum width and the dock at a readable width fit the window; below the pages otherwise (a
// 1024-pixel screen, presenter mode's larger fonts on a 1366-pixel one), where the lesson keeps
// the window's whole width. Before, the dock was squeezed to a strip and the window grew past
// the screen, cutting off the lesson, the per-rank table and the status bar.
#pragma once

class QDockWidget;
class QMainWindow;

namespace shardlab::gui::dockfit {

// The narrowest dock that still reads as a column of text at its font.
int readableWidth(const QDockWidget* dock);
// Whether a dock docked beside the central widget keeps a readable width next to the pages at
// their minimum width, in `width` (true for a dock elsewhere: below the pages, floating, hidden).
bool fitsBeside(const QMainWindow* window, const QDockWidget* dock, int width);
// Moves a visible, docked `dock` from beside the central widget to below it when both do not fit
// side by side in `width`, `belowPercent` of the window's height tall (never less than the dock's
// own minimum); never moves it back (presenter mode restores the layout it found, and a dock the
// user placed stays where it is). True when it moved.
bool fitBesideOrBelow(QMainWindow* window, QDockWidget* dock, int width, int belowPercent = 40);

} // namespace shardlab::gui::dockfit
