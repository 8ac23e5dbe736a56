// Presenter mode's look for QCustomPlot plots (the timeline and every analysis plot): fonts enlarged
// by a factor and, in the dark theme, white ink on black. apply() returns what puts the plot back
// exactly as it was.
#pragma once

#include <functional>

class QCustomPlot;

namespace shardlab::gui::plottheme {

std::function<void()> apply(QCustomPlot* plot, bool dark, double fontScale);

} // namespace shardlab::gui::plottheme
