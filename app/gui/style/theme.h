// Colours and sizes shared by the diagram and the panels, chosen to read on a projector: strong
// contrast, no meaning carried by colour alone (every state also has a word or a number).
#pragma once

#include "shardlab/model/palette.h"
#include "shardlab/model/topology.h"
#include "shardlab/sim/activity.h"

#include <QColor>
#include <QFont>

namespace shardlab::gui::theme {

// Workload items get distinct colours by their index (shard tiles, gauge segments, swatches).
QColor itemColour(int itemIndex);

QColor linkColour(LinkKind kind);
Qt::PenStyle linkStyle(LinkKind kind);
// Pen width in scene units for a bandwidth: grows with log2(bandwidth) so that 16 GB/s PCIe and
// 450 GB/s NVLink differ visibly without the latter filling the diagram.
double linkWidth(double gbps);

inline QColor ok() { return QColor(0x2e, 0x7d, 0x32); }       // green 800
inline QColor warn() { return QColor(0xef, 0x6c, 0x00); }     // orange 800
inline QColor overflow() { return QColor(0xc6, 0x28, 0x28); } // red 800
inline QColor ink() { return QColor(0x21, 0x21, 0x21); }
inline QColor mutedInk() { return QColor(0x55, 0x5b, 0x66); }
inline QColor cardFill() { return QColor(0xff, 0xff, 0xff); }
inline QColor frameFill() { return QColor(0xf3, 0xf5, 0xf8); }
// A node's frame on presenter mode's dark theme (timelinestyle::darkBackground()): dark grey
// instead of the light one, which made the whole diagram a white box on black (issue 29).
inline QColor frameFillDark() { return QColor(0x26, 0x2a, 0x31); }
inline QColor gaugeTrack() { return QColor(0xe3, 0xe7, 0xed); }

// The colour of a kind of time (compute, communication, wait, paging, ...): the engine's
// palette (shardlab/model/palette.h), which every view and the lab report read.
QColor categoryColour(palette::Category category);
// A rank's state during playback, in its category's colour.
palette::Category activityCategory(ActivityState state);
QColor activityColour(ActivityState state);
// Traffic colour for a link's utilisation 0..1: blue (light) through amber to red (saturated).
QColor utilisationColour(double utilisation);

// Font for diagram text of `pointSize` at 100 % zoom, times the diagram's text scale.
QFont diagramFont(double pointSize, bool bold = false);
// Presenter mode enlarges the diagram's text (not its geometry: cards keep their layout, so the
// text takes a larger share of the diagram when it is fitted to the window). 1 = plain. Scenes
// re-measure their labels on the QEvent::FontChange that follows the application font change.
void setDiagramTextScale(double scale);
double diagramTextScale();
// The smallest height in screen pixels at which the diagram draws small print (0: no minimum).
// Presenter mode asks for 12 px: below it, cards are drawn compact and link labels hidden rather
// than shown too small to read from the back of a room.
void setDiagramMinTextPx(double px);
// Whether diagram text of `pointSize` is drawn at zoom `lod`: its line height on screen reaches
// the minimum.
bool diagramTextReadable(double pointSize, double lod);
// Smallest diagram text, in points at 100 % zoom and scale 1 (shard tile labels): what a test
// multiplies by the zoom and the text scale to know whether the diagram is readable.
inline constexpr double kDiagramSmallestPt = 8.5;

} // namespace shardlab::gui::theme
