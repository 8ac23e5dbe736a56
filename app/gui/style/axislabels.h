// Axis labels that are never cut. QCustomPlot centres a label on its axis and whatever is longer
// than the plot is cut off at the widget's edge ("per rank and step (ms" on a short plot, or
// in presenter mode's larger fonts). keepAxisLabelsWhole() makes every replot of a plot first
// break a label that is longer than its axis onto two lines at the space nearest its middle,
// then shorten a line that is still too long with an ellipsis; the whole label comes back when
// the axis is long enough again, and a label the view sets later (another metric) is fitted the
// same way.
#pragma once

#include <QStringList>

class QCustomPlot;
class QCPAxis;

namespace shardlab::gui {

void keepAxisLabelsWhole(QCustomPlot* plot);
// The label `axis` shows: its own label (what the view set) fitted to `length` pixels.
QString fittedAxisLabel(const QCPAxis* axis, int length);
// The labels of `plot` (axis name: label) that are longer than their axis as laid out now: what
// the tests that render every page at projector and laptop sizes look for.
QStringList clippedAxisLabels(QCustomPlot* plot);

} // namespace shardlab::gui
