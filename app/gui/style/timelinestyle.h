// Colours of the timeline: the Okabe-Ito palette, distinguishable with every common colour
// vision deficiency and in greyscale on a washed-out projector (wait is also hatched).
#pragma once

#include "shardlab/model/run_result.h"

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

// Presenter mode's dark theme draws the lanes on black: lines and labels then use white ink.
inline bool& darkBackground()
{
    static bool dark = false;
    return dark;
}
inline QColor ink(int alpha = 255) { return darkBackground() ? QColor(255, 255, 255, alpha) : QColor(0, 0, 0, alpha); }

inline QColor stragglerBand() { return QColor(0xF0, 0xE4, 0x42, darkBackground() ? 90 : 70); } // yellow
inline QColor iterationBand() { return ink(darkBackground() ? 24 : 12); }
inline QColor joinLine() { return darkBackground() ? QColor(0xD0, 0xD0, 0xD0, 200) : QColor(0x40, 0x40, 0x40, 170); }
inline QColor selection() { return ink(); }
inline QColor cursor() { return QColor(0xD5, 0x5E, 0x00); } // vermillion
inline QColor annotationText() { return QColor(0x20, 0x20, 0x20); }
inline int referenceAlpha() { return 110; }

} // namespace shardlab::gui::timelinestyle
