// The status bar's passing messages: one line, shortened with an ellipsis to the room left of the
// permanent summary on the bar's right (a long failure ran into it), the whole text in the
// status bar's tooltip while the message shows.
#pragma once

#include <QString>

class QLabel;
class QStatusBar;

namespace shardlab::gui {

// `text`'s first line, elided to what fits between the bar's left edge and `permanent` (or the
// bar's right edge when it is hidden); not elided while the bar is not shown.
QString fittedStatusText(const QString& text, const QStatusBar* bar, const QLabel* permanent);
// Shows `text` for `timeoutMs` (0: until the next message) as fittedStatusText() words it.
void showStatusText(QStatusBar* bar, const QLabel* permanent, const QString& text, int timeoutMs);

} // namespace shardlab::gui
