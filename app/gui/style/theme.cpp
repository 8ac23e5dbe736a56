#include "style/theme.h"

#include <QApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace shardlab::gui::theme {

QColor itemColour(int itemIndex)
{
    // Items (parameters, gradients, optimizer state...) in hues the kinds of time do not use
    // (palette.h: blue compute, orange communication, pink wait, brown paging, vermilion delay,
    // grey idle), so that a shard tile never looks like an activity on the same card during
    // playback; from Paul Tol's "muted" scheme, readable with colour-vision deficiencies.
    static const QColor palette[] = {
        QColor(0x44, 0xAA, 0x99), // teal
        QColor(0x7A, 0x5C, 0xC4), // violet
        QColor(0x99, 0x99, 0x33), // olive
        QColor(0x11, 0x77, 0x33), // green
        QColor(0xAA, 0x33, 0x77), // purple
        QColor(0x88, 0xCC, 0xEE), // cyan
        QColor(0xDD, 0xCC, 0x77), // sand
        QColor(0x33, 0x22, 0x88), // indigo
    };
    const int n = static_cast<int>(std::size(palette));
    return palette[((itemIndex % n) + n) % n];
}

QColor linkColour(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink: return QColor(0x3a, 0x8a, 0x12); // NVIDIA-ish green, darker for contrast
    case LinkKind::Pcie: return QColor(0x1f, 0x5f, 0xbf);
    case LinkKind::CrossSocket: return QColor(0xb2, 0x4a, 0x00);
    case LinkKind::Network: return QColor(0x6a, 0x3d, 0x9a);
    }
    return ink();
}

Qt::PenStyle linkStyle(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink:
    case LinkKind::Pcie: return Qt::SolidLine;
    case LinkKind::CrossSocket: return Qt::DashLine;
    case LinkKind::Network: return Qt::DashDotLine;
    }
    return Qt::SolidLine;
}

double linkWidth(double gbps) { return std::clamp(1.5 + 1.3 * std::log2(std::max(gbps, 1.0) / 8.0), 1.5, 10.0); }

QColor categoryColour(palette::Category category)
{
    const palette::Rgb c = palette::rgb(category);
    return QColor(c.r, c.g, c.b);
}

palette::Category activityCategory(ActivityState state)
{
    switch (state) {
    case ActivityState::Idle: return palette::Category::Idle;
    case ActivityState::Compute: return palette::Category::Compute;
    case ActivityState::Communicate: return palette::Category::Communication;
    case ActivityState::Wait: return palette::Category::Wait;
    case ActivityState::Paging: return palette::Category::Paging;
    }
    return palette::Category::Idle;
}

QColor activityColour(ActivityState state) { return categoryColour(activityCategory(state)); }

QColor utilisationColour(double u)
{
    u = std::clamp(u, 0.0, 1.0);
    // 0: light blue, 0.5: amber, 1: red
    const QColor a(0x42, 0xa5, 0xf5), b(0xff, 0xb3, 0x00), c(0xd5, 0x00, 0x00);
    auto mix = [](const QColor& x, const QColor& y, double t) {
        return QColor::fromRgbF(static_cast<float>(x.redF() + (y.redF() - x.redF()) * t),
                                static_cast<float>(x.greenF() + (y.greenF() - x.greenF()) * t),
                                static_cast<float>(x.blueF() + (y.blueF() - x.blueF()) * t));
    };
    return u < 0.5 ? mix(a, b, u * 2) : mix(b, c, (u - 0.5) * 2);
}

namespace {
double g_diagramTextScale = 1.0;
double g_diagramMinTextPx = 0;
} // namespace

void setDiagramTextScale(double scale) { g_diagramTextScale = scale > 0 ? scale : 1.0; }

double diagramTextScale() { return g_diagramTextScale; }

void setDiagramMinTextPx(double px) { g_diagramMinTextPx = std::max(0.0, px); }

bool diagramTextReadable(double pointSize, double lod)
{
    return g_diagramMinTextPx <= 0 || QFontMetricsF(diagramFont(pointSize)).height() * lod >= g_diagramMinTextPx;
}

QFont diagramFont(double pointSize, bool bold)
{
    QFont f = QApplication::font();
    f.setPointSizeF(pointSize * g_diagramTextScale);
    f.setBold(bold);
    return f;
}

} // namespace shardlab::gui::theme
