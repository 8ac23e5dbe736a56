// Colours of the timeline: the Okabe-Ito palette, distinguishable with every common colour
// vision deficiency and in greyscale on a washed-out projector (wait is also hatched).
#pragma once

#include "shardlab/run_result.h"

#include <QColor>

namespace shardlab::gui::timelinestyle {

inline QColor kindColour(SpanKind kind)
{
    switch (kind) {
    case SpanKind::Compute: return QColor(0x00, 0x72, 0xB2);  // blue
    case SpanKind::Comm: return QColor(0xE6, 0x9F, 0x00);     // orange
    case SpanKind::Wait: return QColor(0xCC, 0x79, 0xA7);     // reddish purple, hatched
    }
    return Qt::gray;
}

inline QColor stragglerBand() { return QColor(0xF0, 0xE4, 0x42, 70); } // yellow
inline QColor iterationBand() { return QColor(0, 0, 0, 12); }
inline QColor joinLine() { return QColor(0x40, 0x40, 0x40, 170); }
inline QColor selection() { return QColor(0, 0, 0); }
inline QColor cursor() { return QColor(0xD5, 0x5E, 0x00); } // vermillion
inline QColor annotationText() { return QColor(0x20, 0x20, 0x20); }
inline int referenceAlpha() { return 110; }

} // namespace shardlab::gui::timelinestyle
