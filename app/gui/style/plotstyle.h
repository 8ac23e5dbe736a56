// One look for every analysis plot, readable on a projector: large fonts, thick lines, and the
// Okabe-Ito colours (distinguishable with the common colour-vision deficiencies).
#pragma once

#include "shardlab/model/palette.h"

#include <QColor>
#include <QString>

class QCustomPlot;
class QCPAxis;
class QCPBars;
class QTableView;

namespace shardlab::gui {

namespace colors {
// The kinds of time: the engine's palette (shardlab/model/palette.h), as on the timeline.
inline QColor of(palette::Category category)
{
    const palette::Rgb c = palette::rgb(category);
    return QColor(c.r, c.g, c.b);
}
inline const QColor compute = of(palette::Category::Compute);
inline const QColor comm = of(palette::Category::Communication);
inline const QColor wait = of(palette::Category::Wait);
inline const QColor paging = of(palette::Category::Paging);
inline const QColor idle = of(palette::Category::Idle);
inline const QColor simulated{0x00, 0x72, 0xB2}; // blue
inline const QColor measured{0xCC, 0x79, 0xA7};  // reddish purple
inline const QColor ideal{0x55, 0x55, 0x55};
inline const QColor efficiency{0x00, 0x9E, 0x73}; // bluish green
inline const QColor marker{0xD5, 0x5E, 0x00};
} // namespace colors

// Fonts, margins, legend and grid for `plot`.
void stylePlot(QCustomPlot* plot);
// The legend in a row of its own above the plot, items side by side: it never hides data.
void legendOnTop(QCustomPlot* plot);
// A log-scale axis with ticks at powers of `base` and labels from `label` (e.g. binary sizes).
void setLogAxis(QCPAxis* axis, double base);
// A bar series stacked on `below` (nullptr: the bottom one).
QCPBars* addStackedBars(QCustomPlot* plot, const QString& name, const QColor& color, QCPBars* below);
// Tables of numbers, readable from the back of the room.
void styleTable(QTableView* table);
// "64 KiB", "1 GiB": nccl-tests' binary sizes for an axis tick.
QString binarySizeLabel(double bytes);

} // namespace shardlab::gui
