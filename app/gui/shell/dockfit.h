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
// Moves a visible, docked `dock` from beside the central widget to below it when both do not fit
// side by side in `width`; never moves it back (presenter mode restores the layout it found, and
// a dock the user placed stays where it is). True when it moved.
bool fitBesideOrBelow(QMainWindow* window, QDockWidget* dock, int width);

} // namespace shardlab::gui::dockfit
