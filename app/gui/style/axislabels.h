// Axis labels that are never cut. QCustomPlot centres a label on its axis and whatever is longer
// than the plot is cut off at the widget's edge ("per rank and step (ms" on a short plot, or
// in presenter mode's larger fonts). keepAxisLabelsWhole() makes every replot of a plot first
// break a label that is longer than its axis onto two lines at the space nearest its middle,
// then use a smaller font (down to 70%), and only then shorten a line with an ellipsis; the whole label comes back when
// the axis is long enough again, and a label the view sets later (another metric) is fitted the
// same way.
#pragma once

#include <QFont>
#include <QStringList>

class QCustomPlot;
class QCPAxis;

namespace shardlab::gui {

void keepAxisLabelsWhole(QCustomPlot* plot);
struct FittedLabel {
    QString text; // one line, or two joined by '\n'
    QFont font;
};
// `whole` in `wanted` fitted to `length` pixels: as it is when it fits; else on two lines (at a
// space, or between Chinese characters); else two lines in a font down to 70% of `wanted`; else
// those lines shortened with an ellipsis.
FittedLabel fitAxisLabel(const QString& whole, const QFont& wanted, int length);
// The labels of `plot` (axis name: label) that are longer than their axis as laid out now: what
// the tests that render every page at projector and laptop sizes look for.
QStringList clippedAxisLabels(QCustomPlot* plot);
// The vertical axes of `plot` whose neighbouring tick labels overlap as laid out now (closer than
// a line of their font). Every replot first asks a vertical axis for no more ticks than fit a line
// and a half apart (at most as many as the view chose), so this stays empty.
QStringList crowdedTickLabels(QCustomPlot* plot);

} // namespace shardlab::gui
