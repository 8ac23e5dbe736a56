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

// A view being drawn into an exported figure carries this dynamic property (true): what only
// belongs on screen (the timeline's selection) is left out (export/figure_exporter.cpp sets it).
inline constexpr char kExportingProperty[] = "shardlabExporting";

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
// Series that are not a kind of time keep out of the categories' colours, so that blue always
// means compute (tests/gui/test_palette.cpp checks it): results in ink, measurements and the
// efficiency in Okabe-Ito's sky blue (bluish green is memory). Presenter mode's dark theme lightens the
// ink (plottheme.h).
inline const QColor simulated{0x22, 0x22, 0x22};                   // near-black: the model's figures, the speed-up
inline const QColor measured{0x56, 0xB4, 0xE9};                    // sky blue
inline const QColor ideal{0x77, 0x77, 0x77};                       // grey, dashed
inline const QColor efficiency{0x56, 0xB4, 0xE9};                  // sky blue (bluish green is memory)
inline const QColor marker = of(palette::Category::InjectedDelay); // vermilion: an annotation, never a bar
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
