// Colours of the timeline. Spans: the engine's palette (Okabe-Ito, distinguishable with every
// common colour vision deficiency; wait is also hatched so that it reads in greyscale).
#pragma once

#include "shardlab/model/palette.h"
#include "shardlab/model/run_result.h"

#include <QColor>

namespace shardlab::gui::timelinestyle {

// The palette's colours (shardlab/model/palette.h), as everywhere else.
inline QColor categoryColour(palette::Category category)
{
    const palette::Rgb c = palette::rgb(category);
    return QColor(c.r, c.g, c.b);
}
inline QColor kindColour(SpanKind kind, SpanDetail detail = SpanDetail::None)
{
    return categoryColour(palette::categoryOf(kind, detail));
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
